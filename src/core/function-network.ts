import * as ec2 from 'aws-cdk-lib/aws-ec2';

/** Where a bundled Lambda function of this library runs: your VPC, so that no function runs on the open internet. */
export interface FunctionNetworkOptions {
  /**
   * The VPC the function runs in (AWS Control Tower control CT.LAMBDA.PR.3). Without NAT it reaches AWS only through
   * VPC endpoints (`SageMakerVpcEndpoints`).
   *
   * @default - no VPC: the function runs on Lambda's network
   */
  readonly vpc?: ec2.IVpc;
  /**
   * The subnets of the function's network interfaces.
   *
   * @default - the VPC's isolated subnets, else its private subnets with egress
   */
  readonly vpcSubnets?: ec2.SubnetSelection;
  /**
   * The function's security groups.
   *
   * @default - one is created, with no inbound rule and HTTPS (443) out only
   */
  readonly securityGroups?: ec2.ISecurityGroup[];
}
