import * as ec2 from 'aws-cdk-lib/aws-ec2';

/**
 * Where an endpoint's model containers run: your VPC (the model's `VpcConfig`), and whether they may use the network at
 * all. Shared by the realtime, async and shared-GPU endpoints.
 */
export interface EndpointNetworkOptions {
  /**
   * The VPC the model containers get network interfaces in (AWS::SageMaker::Model `VpcConfig`), so that they reach your
   * resources privately. Without NAT, give the VPC the endpoints of `SageMakerVpcEndpoints` (at least S3: SageMaker
   * reads the model artifacts through it).
   *
   * @default - no VPC: the containers use SageMaker's network
   */
  readonly vpc?: ec2.IVpc;
  /**
   * The subnets of the containers' network interfaces: at least two Availability Zones
   * (https://docs.aws.amazon.com/sagemaker/latest/dg/host-vpc.html).
   *
   * @default - the VPC's private subnets (isolated or with egress)
   */
  readonly vpcSubnets?: ec2.SubnetSelection;
  /**
   * The security groups of the containers' network interfaces (1-5).
   *
   * @default - one is created, with no inbound rule and HTTPS (443) out only
   */
  readonly securityGroups?: ec2.ISecurityGroup[];
  /**
   * Run every model container of the endpoint without any network access (AWS::SageMaker::Model
   * `EnableNetworkIsolation`): no calls out, not even to AWS services; SageMaker still downloads the artifacts. AWS
   * Marketplace model packages (and JumpStart's proprietary models, which are Marketplace packages) require it. A model
   * source that sets network isolation itself keeps it whatever this says.
   *
   * @default false
   */
  readonly enableNetworkIsolation?: boolean;
}
