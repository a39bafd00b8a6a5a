import { Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { IAM_ACTION, serviceWildcard } from '../private/iam-actions';
import { acknowledgeFinding } from '../private/nag';
import { PropValidator } from '../private/validation';

/**
 * An interface endpoint of an AWS service that this library's constructs call from a VPC without internet access.
 *
 * Its policy support records whether the service's documentation says it honours a VPC endpoint policy; where it does not
 * say so, no policy is attached (the endpoint then allows what IAM allows).
 */
export class SageMakerVpcEndpointService {
  /**
   * The SageMaker API (`sagemaker.api`): DescribeEndpoint, pipelines, lineage.
   * Endpoint policies: https://docs.aws.amazon.com/sagemaker/latest/dg/interface-vpc-endpoint.html
   */
  public static readonly SAGEMAKER_API = new SageMakerVpcEndpointService('SageMakerApi', ec2.InterfaceVpcEndpointAwsService.SAGEMAKER_API, 'sagemaker', true);
  /**
   * SageMaker Runtime (`sagemaker.runtime`): InvokeEndpoint, InvokeEndpointAsync, streaming.
   * Endpoint policies: https://docs.aws.amazon.com/sagemaker/latest/dg/interface-vpc-endpoint.html
   */
  public static readonly SAGEMAKER_RUNTIME = new SageMakerVpcEndpointService('SageMakerRuntime', ec2.InterfaceVpcEndpointAwsService.SAGEMAKER_RUNTIME, 'sagemaker', true);
  /**
   * Feature Store runtime (`sagemaker.featurestore-runtime`): GetRecord, PutRecord. Its documentation does not describe
   * endpoint policies, so none is attached.
   */
  public static readonly FEATURESTORE_RUNTIME = new SageMakerVpcEndpointService('FeatureStoreRuntime',
    ec2.InterfaceVpcEndpointAwsService.SAGEMAKER_FEATURESTORE_RUNTIME, 'sagemaker', false);
  /** AWS STS. Endpoint policies: https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_sts_vpce.html */
  public static readonly STS = new SageMakerVpcEndpointService('Sts', ec2.InterfaceVpcEndpointAwsService.STS, 'sts', true);
  /** CloudWatch Logs. Endpoint policies: https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/cloudwatch-logs-and-interface-VPC.html */
  public static readonly CLOUDWATCH_LOGS = new SageMakerVpcEndpointService('Logs', ec2.InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS, 'logs', true);
  /** CloudWatch metrics (`monitoring`). Endpoint policies: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/cloudwatch-and-interface-VPC.html */
  public static readonly CLOUDWATCH_MONITORING = new SageMakerVpcEndpointService('Monitoring', ec2.InterfaceVpcEndpointAwsService.CLOUDWATCH_MONITORING, 'cloudwatch', true);
  /** ECR API (`ecr.api`). Endpoint policies: https://docs.aws.amazon.com/AmazonECR/latest/userguide/vpc-endpoints.html */
  public static readonly ECR_API = new SageMakerVpcEndpointService('EcrApi', ec2.InterfaceVpcEndpointAwsService.ECR, 'ecr', true);
  /** ECR registry (`ecr.dkr`), image layers come from S3 through the gateway endpoint. Endpoint policies: as ECR_API. */
  public static readonly ECR_DOCKER = new SageMakerVpcEndpointService('EcrDocker', ec2.InterfaceVpcEndpointAwsService.ECR_DOCKER, 'ecr', true);
  /**
   * Secrets Manager: the MCP server reads its handle key at cold start.
   * Endpoint policies: https://docs.aws.amazon.com/secretsmanager/latest/userguide/vpc-endpoint-overview.html
   */
  public static readonly SECRETS_MANAGER = new SageMakerVpcEndpointService('SecretsManager', ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER, 'secretsmanager', true);
  /**
   * SQS: dead-letter queues of the bundled functions.
   * Endpoint policies: https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-internetwork-traffic-privacy.html
   */
  public static readonly SQS = new SageMakerVpcEndpointService('Sqs', ec2.InterfaceVpcEndpointAwsService.SQS, 'sqs', true);

  /**
   * SNS: the success and error topics of an async endpoint. Not in `all()`: whether SageMaker publishes an async
   * endpoint's notifications from the VPC (with the execution role, which needs sns:Publish:
   * https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-check-predictions.html) is not documented; add it
   * to `services` for an async endpoint in a VPC without internet access (https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/reliability.md, "Unconfirmed").
   * Endpoint policies: https://docs.aws.amazon.com/sns/latest/dg/sns-vpc-endpoint-policy.html
   */
  public static readonly SNS = new SageMakerVpcEndpointService('Sns', ec2.InterfaceVpcEndpointAwsService.SNS, 'sns', true);

  /** The endpoints the MCP stack calls: all of the above but `SNS`. */
  public static all(): SageMakerVpcEndpointService[] {
    return [
      SageMakerVpcEndpointService.SAGEMAKER_API, SageMakerVpcEndpointService.SAGEMAKER_RUNTIME, SageMakerVpcEndpointService.FEATURESTORE_RUNTIME,
      SageMakerVpcEndpointService.STS, SageMakerVpcEndpointService.CLOUDWATCH_LOGS, SageMakerVpcEndpointService.CLOUDWATCH_MONITORING,
      SageMakerVpcEndpointService.ECR_API, SageMakerVpcEndpointService.ECR_DOCKER, SageMakerVpcEndpointService.SECRETS_MANAGER,
      SageMakerVpcEndpointService.SQS,
    ];
  }

  private constructor(
    /** The construct id of the endpoint. */
    public readonly id: string,
    /** The interface endpoint service. */
    public readonly service: ec2.InterfaceVpcEndpointAwsService,
    /** The IAM service prefix of the actions the endpoint's policy allows. */
    public readonly actionPrefix: string,
    /** Whether the service documents VPC endpoint policies (a policy is attached only then). */
    public readonly supportsPolicy: boolean,
  ) {}
}

/** Properties of `SageMakerVpcEndpoints`. */
export interface SageMakerVpcEndpointsProps {
  /** The VPC, typically without NAT or internet gateway (`ec2.SubnetType.PRIVATE_ISOLATED` subnets). */
  readonly vpc: ec2.IVpc;
  /**
   * Where the interface endpoints' network interfaces go.
   *
   * @default - the VPC's isolated subnets
   */
  readonly subnets?: ec2.SubnetSelection;
  /**
   * The interface endpoints to create.
   *
   * @default SageMakerVpcEndpointService.all()
   */
  readonly services?: SageMakerVpcEndpointService[];
  /**
   * Buckets of other accounts that principals of this account may read through the S3 gateway endpoint, as bucket
   * names (e.g. the JumpStart cache bucket `jumpstart-cache-prod-<region>`). The ECR layer bucket of the region is
   * always allowed, to any principal (image pulls read layers from it through ECR's presigned URLs).
   *
   * @default - none besides ECR's layer bucket
   */
  readonly externalReadBuckets?: string[];
}

/**
 * The VPC endpoints an isolated VPC (no NAT, no internet gateway) needs for this library's endpoints, bundled functions
 * and MCP server: interface endpoints for SageMaker API and runtime, Feature Store runtime, STS, CloudWatch Logs and
 * metrics, ECR API and registry, Secrets Manager and SQS, and gateway endpoints for S3 and DynamoDB.
 *
 * Every endpoint policy is a data perimeter for the stack's account: only principals of this account
 * (`aws:PrincipalAccount`), only the service's own actions, and for S3 and DynamoDB only resources of this account
 * (`aws:ResourceAccount`), plus the external read buckets (read-only, this account's principals only) and ECR's layer
 * bucket, which is the one exception: `s3:GetObject` on `prod-<region>-starport-layer-bucket` for any principal, as ECR's
 * documentation gives it, because ECR hands the layers out through presigned URLs created by an ECR account. The
 * interface endpoints accept HTTPS from the VPC's CIDR only.
 */
export class SageMakerVpcEndpoints extends Construct {
  /** The interface endpoints by their service id (e.g. `SageMakerRuntime`). */
  public readonly interfaceEndpoints: { [id: string]: ec2.InterfaceVpcEndpoint } = {};
  /** The S3 gateway endpoint. */
  public readonly s3Endpoint: ec2.GatewayVpcEndpoint;
  /** The DynamoDB gateway endpoint. */
  public readonly dynamoDbEndpoint: ec2.GatewayVpcEndpoint;
  /** The security group of the interface endpoints: HTTPS in from the VPC's CIDR. */
  public readonly securityGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: SageMakerVpcEndpointsProps) {
    super(scope, id);
    const services = props.services ?? SageMakerVpcEndpointService.all();
    const v = new PropValidator(`SageMakerVpcEndpoints '${id}'`);
    const ids = services.map((s) => s.id);
    v.check(new Set(ids).size === ids.length, 'services', ids, 'each service at most once');
    v.check(services.length > 0, 'services', ids, 'at least one service');
    for (const b of props.externalReadBuckets ?? []) {
      v.pattern('externalReadBuckets', b, /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)');
    }
    v.throwIfInvalid();

    const stack = Stack.of(this);
    const account = stack.account;
    const subnets = props.subnets ?? { subnetType: ec2.SubnetType.PRIVATE_ISOLATED };

    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: 'HTTPS from the VPC to the AWS service endpoints of the SageMaker MCP stack',
      allowAllOutbound: false,
    });
    this.securityGroup.addIngressRule(ec2.Peer.ipv4(props.vpc.vpcCidrBlock), ec2.Port.tcp(443), 'HTTPS from the VPC');
    // cdk-nag's EC23 (no 0.0.0.0/0 ingress) cannot evaluate a CIDR that is a reference and reports an error instead.
    acknowledgeFinding(this.securityGroup, 'AwsSolutions-EC23',
      'The only ingress rule is HTTPS from the VPC\'s own CIDR block (a reference to the VPC, which the rule cannot evaluate), never 0.0.0.0/0.');

    for (const s of services) {
      const endpoint = new ec2.InterfaceVpcEndpoint(this, s.id, {
        vpc: props.vpc,
        service: s.service,
        subnets,
        privateDnsEnabled: true,
        securityGroups: [this.securityGroup],
        open: false,
      });
      if (s.supportsPolicy) {
        endpoint.addToPolicy(new iam.PolicyStatement({
          sid: 'AccountPrincipalsOnly',
          principals: [new iam.AnyPrincipal()],
          actions: [serviceWildcard(s.actionPrefix)],
          resources: ['*'],
          conditions: { StringEquals: { 'aws:PrincipalAccount': account } },
        }));
      }
      this.interfaceEndpoints[s.id] = endpoint;
    }

    // Gateway endpoints for S3 and DynamoDB: host-vpc.html asks for an S3 endpoint so that models in a VPC can read their
    // artifacts (https://docs.aws.amazon.com/sagemaker/latest/dg/host-vpc.html#host-vpc-s3).
    const gatewaySubnets = [subnets];
    this.s3Endpoint = new ec2.GatewayVpcEndpoint(this, 'S3', { vpc: props.vpc, service: ec2.GatewayVpcEndpointAwsService.S3, subnets: gatewaySubnets });
    this.s3Endpoint.addToPolicy(new iam.PolicyStatement({
      sid: 'AccountBuckets',
      principals: [new iam.AnyPrincipal()],
      actions: [IAM_ACTION.s3['*']],
      resources: ['*'],
      conditions: { StringEquals: { 'aws:PrincipalAccount': account, 'aws:ResourceAccount': account } },
    }));
    // ECR keeps image layers in an AWS-owned bucket per region and hands them out "using a presigned URL, which is
    // created by an Amazon ECR account": the request is not signed by a principal of this account, so a condition on
    // aws:PrincipalAccount would never match. This is the minimum statement ECR's documentation gives, as it gives it
    // (https://docs.aws.amazon.com/AmazonECR/latest/userguide/vpc-endpoints.html#ecr-setting-up-s3-gateway).
    this.s3Endpoint.addToPolicy(new iam.PolicyStatement({
      sid: 'EcrImageLayers',
      principals: [new iam.AnyPrincipal()],
      actions: [IAM_ACTION.s3.GetObject],
      resources: [`arn:${stack.partition}:s3:::prod-${stack.region}-starport-layer-bucket/*`],
    }));
    // The other AWS-owned buckets (JumpStart artifacts, ...) are read with this account's own credentials (the model's
    // execution role, a function's role), so the stricter data-perimeter condition holds for them: only this
    // account's principals may read them through this endpoint.
    if (props.externalReadBuckets?.length) {
      this.s3Endpoint.addToPolicy(new iam.PolicyStatement({
        sid: 'ReadAwsOwnedBuckets',
        principals: [new iam.AnyPrincipal()],
        actions: [IAM_ACTION.s3.GetObject],
        resources: props.externalReadBuckets.map((b) => `arn:${stack.partition}:s3:::${b}/*`),
        conditions: { StringEquals: { 'aws:PrincipalAccount': account } },
      }));
    }

    this.dynamoDbEndpoint = new ec2.GatewayVpcEndpoint(this, 'DynamoDb', {
      vpc: props.vpc, service: ec2.GatewayVpcEndpointAwsService.DYNAMODB, subnets: gatewaySubnets,
    });
    this.dynamoDbEndpoint.addToPolicy(new iam.PolicyStatement({
      sid: 'AccountTables',
      principals: [new iam.AnyPrincipal()],
      actions: [IAM_ACTION.dynamodb['*']],
      resources: [stack.formatArn({ service: 'dynamodb', resource: 'table', resourceName: '*' })],
      conditions: { StringEquals: { 'aws:PrincipalAccount': account } },
    }));
  }
}
