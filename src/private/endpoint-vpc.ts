/**
 * Internal (not exported from the package): validation of an endpoint's network options, the model's VpcConfig and the
 * security group created when none is given.
 */
import { Token } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { IAM_ACTION } from './iam-actions';
import { renderModel } from './model';
import { PropValidator } from './validation';
import { EndpointNetworkOptions } from '../core/endpoint-network';
import { InstanceType } from '../core/instance-type';
import { ModelSource } from '../core/model-source';
import { ModelSourceConfig } from '../core/model-source-config';

/** What `bindEndpointNetwork` resolved. */
export interface BoundEndpointNetwork {
  /** The model's VpcConfig, or undefined without a VPC. */
  readonly vpcConfig?: sagemaker.CfnModel.VpcConfigProperty;
  /** The security groups' connections, or undefined without a VPC. */
  readonly connections?: ec2.Connections;
  readonly enableNetworkIsolation: boolean;
}

/**
 * Validates the network options (recording problems on `v`), and creates the security group when none is given.
 */
export function bindEndpointNetwork(scope: Construct, v: PropValidator, opts: EndpointNetworkOptions): BoundEndpointNetwork {
  const isolation = opts.enableNetworkIsolation ?? false;
  if (!opts.vpc) {
    v.check(opts.vpcSubnets === undefined, 'vpcSubnets', 'given', 'no vpcSubnets without vpc');
    v.check(opts.securityGroups === undefined, 'securityGroups', 'given', 'no securityGroups without vpc');
    return { enableNetworkIsolation: isolation };
  }
  v.range('securityGroups', opts.securityGroups?.length, 1, 5, { unit: 'security groups' });
  const selected = opts.vpc.selectSubnets(opts.vpcSubnets ?? defaultSubnets(opts.vpc));
  const azs = new Set(selected.availabilityZones.filter((az) => !Token.isUnresolved(az)));
  if (selected.availabilityZones.every((az) => !Token.isUnresolved(az))) {
    // "You must create at least two subnets in different availability zones in your private VPC, even if you have only
    // one hosting instance." https://docs.aws.amazon.com/sagemaker/latest/dg/host-vpc.html
    v.check(azs.size >= 2, 'vpcSubnets', [...azs], 'subnets in at least two Availability Zones (SageMaker hosting requires two)');
  }
  v.range('vpcSubnets', selected.subnetIds.length, 1, 16, { unit: 'subnets' });
  const securityGroups = opts.securityGroups ?? [createModelSecurityGroup(scope, opts.vpc)];
  return {
    vpcConfig: { subnets: selected.subnetIds, securityGroupIds: securityGroups.map((g) => g.securityGroupId) },
    connections: new ec2.Connections({ securityGroups }),
    enableNetworkIsolation: isolation,
  };
}

/** The private subnets of a VPC: isolated ones first, else those with egress. */
function defaultSubnets(vpc: ec2.IVpc): ec2.SubnetSelection {
  return vpc.isolatedSubnets.length > 0 ? { subnetType: ec2.SubnetType.PRIVATE_ISOLATED } : { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS };
}

function createModelSecurityGroup(scope: Construct, vpc: ec2.IVpc): ec2.SecurityGroup {
  const sg = new ec2.SecurityGroup(scope, 'SecurityGroup', {
    vpc,
    description: 'SageMaker model containers: no inbound; HTTPS out only',
    allowAllOutbound: false,
  });
  // HTTPS to any address: the S3 gateway endpoint's addresses are a regional prefix list (not known at synth without a
  // lookup) besides the interface endpoints in the VPC; in isolated subnets no route leads further. AWS's own VPC guides
  // give the same rule, "Outbound TCP 443 to 0.0.0.0/0"
  // (https://docs.aws.amazon.com/sagemaker/latest/dg/model-customize-mtrl-vpc.html).
  sg.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS to the VPC endpoints (interface and S3 gateway)');
  return sg;
}

/** The `connections` of an endpoint: only with a VPC (like a Lambda function's). */
export function endpointConnections(what: string, connections: ec2.Connections | undefined): ec2.Connections {
  if (!connections) {
    throw new Error(`${what}: connections: the endpoint has no VPC; expected 'vpc' in its props to manage its security groups`);
  }
  return connections;
}

/**
 * What the execution role of a model in a VPC needs: SageMaker creates and deletes the containers' network interfaces
 * with it ("Add Permissions for Endpoint Access for Containers Running in a VPC to Custom IAM Policies",
 * https://docs.aws.amazon.com/sagemaker/latest/dg/host-vpc.html): all ten actions of that list, ec2:DescribeVpcEndpoints
 * included. The EC2 actions take no narrower resource there.
 */
export function grantVpcAccess(role: iam.IRole): void {
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    actions: [
      IAM_ACTION.ec2.CreateNetworkInterface, IAM_ACTION.ec2.CreateNetworkInterfacePermission, IAM_ACTION.ec2.DeleteNetworkInterface,
      IAM_ACTION.ec2.DeleteNetworkInterfacePermission, IAM_ACTION.ec2.DescribeNetworkInterfaces, IAM_ACTION.ec2.DescribeVpcs,
      IAM_ACTION.ec2.DescribeDhcpOptions,
      IAM_ACTION.ec2.DescribeSubnets, IAM_ACTION.ec2.DescribeSecurityGroups, IAM_ACTION.ec2.DescribeVpcEndpoints,
    ],
    resources: ['*'],
  }));
}

/** An existing model keeps the network it was created with: the endpoint cannot put it in its VPC. */
export function rejectExistingModelInVpc(subject: string, config: ModelSourceConfig, network: BoundEndpointNetwork): void {
  if (!config.modelName || (!network.vpcConfig && !network.enableNetworkIsolation)) return;
  new PropValidator(subject).check(false, network.vpcConfig ? 'vpc' : 'enableNetworkIsolation', 'given',
    `no network options with an existing model (ModelSource.fromModelName '${config.modelName}'): its VpcConfig and `
    + 'EnableNetworkIsolation were set when it was created').throwIfInvalid();
}

/**
 * Binds a model source with `role` in an endpoint's network and renders its AWS::SageMaker::Model (realtime and async
 * models): an existing model cannot join the network, a created one in a VPC lets the role manage its network
 * interfaces.
 */
export function bindModelInNetwork(scope: Construct, id: string, subject: string, source: ModelSource, opts: {
  readonly role: iam.IRole; readonly instanceType?: InstanceType; readonly network: BoundEndpointNetwork;
}): { config: ModelSourceConfig; modelName: string; model?: sagemaker.CfnModel } {
  const { role, network } = opts;
  const config = source.bind(scope, { role, instanceType: opts.instanceType });
  rejectExistingModelInVpc(subject, config, network);
  if (network.vpcConfig && !config.modelName) grantVpcAccess(role);
  return { config, ...renderModel(scope, id, config, role, network) };
}
