/**
 * Internal (not exported from the package): a bundled Lambda function's VPC settings, the HTTPS-only security group
 * created when none is given, and the EC2 actions its (own, non-default) role needs to run in a VPC.
 */
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { IAM_ACTION } from './iam-actions';
import { acknowledgePolicyWildcardFindings } from './nag';
import { PropValidator } from './validation';
import { FunctionNetworkOptions } from '../core/function-network';

/** Records problems of the options (`prefix` locates them, e.g. `resultRecorder.`). */
export function validateFunctionNetwork(v: PropValidator, prefix: string, opts: FunctionNetworkOptions): void {
  if (!opts.vpc) {
    v.check(opts.vpcSubnets === undefined, `${prefix}vpcSubnets`, 'given', `no vpcSubnets without ${prefix}vpc`);
    v.check(opts.securityGroups === undefined, `${prefix}securityGroups`, 'given', `no securityGroups without ${prefix}vpc`);
  }
  v.range(`${prefix}securityGroups`, opts.securityGroups?.length, 1, 5, { unit: 'security groups' });
}

/** The `lambda.FunctionOptions` part for the options: nothing without a VPC. */
export function functionVpcProps(opts: FunctionNetworkOptions): Pick<lambda.FunctionOptions, 'vpc' | 'vpcSubnets' | 'securityGroups' | 'allowAllOutbound'> {
  if (!opts.vpc) return {};
  const subnets = opts.vpcSubnets
    ?? (opts.vpc.isolatedSubnets.length > 0 ? { subnetType: ec2.SubnetType.PRIVATE_ISOLATED } : { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS });
  return opts.securityGroups
    ? { vpc: opts.vpc, vpcSubnets: subnets, securityGroups: opts.securityGroups }
    : { vpc: opts.vpc, vpcSubnets: subnets, allowAllOutbound: false };
}

/**
 * After the function exists: HTTPS out on the security group Lambda created (when none was given), and the network
 * interface actions on its role, which CDK adds (as a managed policy) only to roles it creates itself
 * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-vpc.html#configuration-vpc-permissions).
 */
export function finishFunctionNetwork(fn: lambda.Function, role: iam.IRole, opts: FunctionNetworkOptions): void {
  if (!opts.vpc) return;
  if (!opts.securityGroups) {
    fn.connections.allowToAnyIpv4(ec2.Port.tcp(443), 'HTTPS to the VPC endpoints of AWS services');
  }
  const statement = new iam.PolicyStatement({
    actions: [
      IAM_ACTION.ec2.CreateNetworkInterface, IAM_ACTION.ec2.DescribeNetworkInterfaces, IAM_ACTION.ec2.DescribeSubnets,
      IAM_ACTION.ec2.DeleteNetworkInterface,
      IAM_ACTION.ec2.AssignPrivateIpAddresses, IAM_ACTION.ec2.UnassignPrivateIpAddresses,
    ],
    resources: ['*'],
  });
  role.addToPrincipalPolicy(statement);
  acknowledgePolicyWildcardFindings(fn,
    () => role.node.tryFindChild('DefaultPolicy')?.node.tryFindChild('Resource') as iam.CfnPolicy | undefined,
    [{
      action: /^ec2:(CreateNetworkInterface|DescribeNetworkInterfaces|DescribeSubnets|DeleteNetworkInterface|AssignPrivateIpAddresses|UnassignPrivateIpAddresses)$/,
      reason: 'A Lambda function in a VPC: Lambda manages its network interfaces with the function\'s role, and AWS documents these EC2 '
        + 'actions on * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-vpc.html#configuration-vpc-permissions).',
    }]);
}
