import { awscdk } from 'projen';

/**
 * `test:floor`: construct tests against aws-cdk-lib at the peer floor (test/floor/run.ts), for what the L1s of older
 * aws-cdk-lib versions drop (instance pools' MetricsConfig and ScaleInPolicy are overrides below 2.268).
 */
export function configureCapacity(project: awscdk.AwsCdkConstructLibrary): void {
  project.addTask('test:floor', {
    description: 'Run construct tests against aws-cdk-lib at the peer floor (default: the version-agnostic template tests; pass test files to choose; needs the npm registry once)',
    exec: 'ts-node --project scripts/tsconfig.json --transpile-only test/floor/run.ts',
    receiveArgs: true,
  });
}
