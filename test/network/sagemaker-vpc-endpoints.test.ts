import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { SageMakerVpcEndpoints, SageMakerVpcEndpointService } from '../../src';

function isolatedVpc(scope: Stack): ec2.Vpc {
  return new ec2.Vpc(scope, 'Vpc', {
    maxAzs: 2,
    natGateways: 0,
    subnetConfiguration: [{ name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }],
  });
}

function stack(): Stack {
  return new Stack(new App(), 'S', { env: { account: '123456789012', region: 'us-east-1' } });
}

describe('SageMakerVpcEndpoints', () => {
  test('creates every interface endpoint with private DNS in the isolated subnets, and the S3 and DynamoDB gateways', () => {
    const s = stack();
    const vpc = isolatedVpc(s);
    new SageMakerVpcEndpoints(s, 'Endpoints', { vpc });
    const t = Template.fromStack(s);
    const names = Object.values(t.findResources('AWS::EC2::VPCEndpoint'))
      .map((r) => JSON.stringify(r.Properties.ServiceName))
      .map((n) => (/com\.amazonaws\.us-east-1\.([a-z0-9.-]+)"$/.exec(n) ?? /"\.([a-z0-9.-]+)"\]\]\}$/.exec(n))?.[1] ?? n)
      .sort();
    expect(names).toEqual(['dynamodb', 'ecr.api', 'ecr.dkr', 'logs', 'monitoring', 's3', 'sagemaker.api',
      'sagemaker.featurestore-runtime', 'sagemaker.runtime', 'secretsmanager', 'sqs', 'sts']);
    t.resourcePropertiesCountIs('AWS::EC2::VPCEndpoint', { VpcEndpointType: 'Interface', PrivateDnsEnabled: true }, 10);
  });

  test('interface endpoint policies admit only this account\'s principals and the service\'s own actions', () => {
    const s = stack();
    new SageMakerVpcEndpoints(s, 'Endpoints', { vpc: isolatedVpc(s) });
    const t = Template.fromStack(s);
    t.hasResourceProperties('AWS::EC2::VPCEndpoint', {
      ServiceName: 'com.amazonaws.us-east-1.sagemaker.runtime',
      PolicyDocument: {
        Statement: [{
          Action: 'sagemaker:*',
          Effect: 'Allow',
          Principal: { AWS: '*' },
          Resource: '*',
          Condition: { StringEquals: { 'aws:PrincipalAccount': '123456789012' } },
        }],
      },
    });
  });

  test('SNS, for an async endpoint\'s notifications, is offered but not in all(); added, it gets the account-only policy', () => {
    expect(SageMakerVpcEndpointService.all()).not.toContain(SageMakerVpcEndpointService.SNS);
    const s = stack();
    new SageMakerVpcEndpoints(s, 'Endpoints', { vpc: isolatedVpc(s), services: [SageMakerVpcEndpointService.SNS] });
    Template.fromStack(s).hasResourceProperties('AWS::EC2::VPCEndpoint', {
      ServiceName: 'com.amazonaws.us-east-1.sns',
      PrivateDnsEnabled: true,
      PolicyDocument: { Statement: [{ Sid: 'AccountPrincipalsOnly', Effect: 'Allow', Principal: { AWS: '*' }, Action: 'sns:*', Resource: '*', Condition: { StringEquals: { 'aws:PrincipalAccount': '123456789012' } } }], Version: '2012-10-17' },
    });
  });

  test('no policy on Feature Store runtime, whose documentation does not describe endpoint policies', () => {
    const s = stack();
    new SageMakerVpcEndpoints(s, 'Endpoints', { vpc: isolatedVpc(s) });
    Template.fromStack(s).hasResourceProperties('AWS::EC2::VPCEndpoint', {
      ServiceName: 'com.amazonaws.us-east-1.sagemaker.featurestore-runtime',
      PolicyDocument: Match.absent(),
    });
  });

  test('the S3 gateway allows the account\'s buckets, the ECR layer bucket as ECR documents it, and reads of the buckets named', () => {
    const s = stack();
    new SageMakerVpcEndpoints(s, 'Endpoints', { vpc: isolatedVpc(s), externalReadBuckets: ['jumpstart-cache-prod-us-east-1'] });
    const s3 = Object.values(Template.fromStack(s).findResources('AWS::EC2::VPCEndpoint'))
      .find((r) => JSON.stringify(r.Properties.ServiceName).includes('.s3'))!;
    const [account, ecr, read] = s3.Properties.PolicyDocument.Statement;
    expect(account).toEqual(expect.objectContaining({ Sid: 'AccountBuckets', Condition: { StringEquals: { 'aws:PrincipalAccount': '123456789012', 'aws:ResourceAccount': '123456789012' } } }));
    // ECR serves layers through a presigned URL created by an ECR account: no principal condition may apply
    // (https://docs.aws.amazon.com/AmazonECR/latest/userguide/vpc-endpoints.html#ecr-setting-up-s3-gateway)
    expect(s.resolve(ecr)).toEqual({
      Sid: 'EcrImageLayers',
      Effect: 'Allow',
      Principal: { AWS: '*' },
      Action: 's3:GetObject',
      Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::prod-us-east-1-starport-layer-bucket/*']] },
    });
    expect(read).toEqual(expect.objectContaining({ Sid: 'ReadAwsOwnedBuckets', Action: 's3:GetObject', Condition: { StringEquals: { 'aws:PrincipalAccount': '123456789012' } } }));
    expect(JSON.stringify(read.Resource).match(/:s3:::[a-z0-9.-]+\/\*/g)).toEqual([':s3:::jumpstart-cache-prod-us-east-1/*']);
    expect(s3.Properties.PolicyDocument.Statement).toHaveLength(3);
  });

  test('without externalReadBuckets, the S3 gateway has the account and ECR layer statements only', () => {
    const s = stack();
    new SageMakerVpcEndpoints(s, 'Endpoints', { vpc: isolatedVpc(s) });
    const s3 = Object.values(Template.fromStack(s).findResources('AWS::EC2::VPCEndpoint'))
      .find((r) => JSON.stringify(r.Properties.ServiceName).includes('.s3'))!;
    expect(s3.Properties.PolicyDocument.Statement.map((st: any) => st.Sid)).toEqual(['AccountBuckets', 'EcrImageLayers']);
  });

  test('the endpoints\' security group takes HTTPS from the VPC only, and sends nothing', () => {
    const s = stack();
    new SageMakerVpcEndpoints(s, 'Endpoints', { vpc: isolatedVpc(s), services: [SageMakerVpcEndpointService.SAGEMAKER_RUNTIME] });
    const t = Template.fromStack(s);
    t.hasResourceProperties('AWS::EC2::SecurityGroup', {
      SecurityGroupIngress: [Match.objectLike({ FromPort: 443, ToPort: 443, IpProtocol: 'tcp', CidrIp: { 'Fn::GetAtt': [Match.anyValue(), 'CidrBlock'] } })],
      SecurityGroupEgress: [Match.objectLike({ CidrIp: '255.255.255.255/32' })],
    });
    t.resourcePropertiesCountIs('AWS::EC2::VPCEndpoint', { VpcEndpointType: 'Interface' }, 1);
  });

  test('fails for a service given twice, no service, or a malformed bucket name', () => {
    const s = stack();
    const vpc = isolatedVpc(s);
    expect(() => new SageMakerVpcEndpoints(s, 'Twice', {
      vpc, services: [SageMakerVpcEndpointService.STS, SageMakerVpcEndpointService.STS],
    })).toThrow(/services: got \["Sts","Sts"\], expected each service at most once/);
    expect(() => new SageMakerVpcEndpoints(s, 'None', { vpc, services: [] })).toThrow(/services: got \[\], expected at least one service/);
    expect(() => new SageMakerVpcEndpoints(s, 'Bucket', { vpc, externalReadBuckets: ['Not_A_Bucket'] }))
      .toThrow(/externalReadBuckets: got 'Not_A_Bucket', expected an S3 bucket name/);
  });
});
