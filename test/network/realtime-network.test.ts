import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ContainerImage, InstanceType, JumpStartModel, ModelData, ModelSource } from '../../src';
import { RealtimeEndpoint } from '../../src/realtime';
import { identityStatements } from '../support/iam-reference';
import { internetPaths } from '../support/internet-paths';
import { expectNagClean } from '../support/nag-checks';
import { errorOf } from '../support/test-stacks';

function newStack(): Stack {
  const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
  return new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
}

function isolatedVpc(stack: Stack): ec2.Vpc {
  return new ec2.Vpc(stack, 'Vpc', {
    maxAzs: 2,
    natGateways: 0,
    subnetConfiguration: [{ name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }],
    flowLogs: { All: {} },
  });
}

function sklearn(stack: Stack): ModelSource {
  return ModelSource.fromContainer(ContainerImage.sklearn('1.2-1'), {
    modelData: ModelData.fromBucket(s3.Bucket.fromBucketName(stack, 'Artifacts', 'artifacts'), 'churn/model.tar.gz'),
  });
}

describe('RealtimeEndpoint in a VPC', () => {
  test('the model gets VpcConfig (isolated subnets, the created security group) and network isolation; the role may manage its ENIs', () => {
    const stack = newStack();
    const vpc = isolatedVpc(stack);
    const endpoint = new RealtimeEndpoint(stack, 'Churn', { model: sklearn(stack), instanceType: InstanceType.ML_M5_LARGE, vpc, enableNetworkIsolation: true });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::SageMaker::Model', {
      VpcConfig: { Subnets: Match.arrayWith([{ Ref: Match.stringLikeRegexp('VpcisolatedSubnet1') }]), SecurityGroupIds: [{ 'Fn::GetAtt': [Match.stringLikeRegexp('ChurnSecurityGroup'), 'GroupId'] }] },
      EnableNetworkIsolation: true,
    });
    expect(identityStatements(t.toJSON())).toEqual(expect.arrayContaining([expect.objectContaining({
      Action: expect.arrayContaining(['ec2:CreateNetworkInterface', 'ec2:DeleteNetworkInterface']), Resource: '*',
    })]));
    expect(endpoint.connections.securityGroups).toHaveLength(1);
    expect(internetPaths(t.toJSON())).toEqual([]);
    expectNagClean(stack.node.root as App);
  });

  test('the model role gets every EC2 action of the developer guide\'s host-in-VPC list, ec2:DescribeVpcEndpoints included', () => {
    // GIVEN: "Add Permissions for Endpoint Access for Containers Running in a VPC to Custom IAM Policies"
    // (https://docs.aws.amazon.com/sagemaker/latest/dg/host-vpc.html)
    const HOST_VPC_ACTIONS = [
      'ec2:CreateNetworkInterface', 'ec2:CreateNetworkInterfacePermission', 'ec2:DeleteNetworkInterface',
      'ec2:DeleteNetworkInterfacePermission', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeVpcs', 'ec2:DescribeDhcpOptions',
      'ec2:DescribeSubnets', 'ec2:DescribeSecurityGroups', 'ec2:DescribeVpcEndpoints',
    ];
    const stack = newStack();
    // WHEN
    new RealtimeEndpoint(stack, 'Churn', { model: sklearn(stack), instanceType: InstanceType.ML_M5_LARGE, vpc: isolatedVpc(stack) });
    // THEN
    const statements = identityStatements(Template.fromStack(stack).toJSON());
    const ec2Actions = statements.flatMap((st: any) => [st.Action].flat()).filter((a: string) => a.startsWith('ec2:'));
    expect([...ec2Actions].sort()).toEqual([...HOST_VPC_ACTIONS].sort());
  });

  test('a second variant\'s model, and a JumpStart model, get the same network', () => {
    const stack = newStack();
    const vpc = isolatedVpc(stack);
    const endpoint = new RealtimeEndpoint(stack, 'Chat', {
      model: JumpStartModel.of('huggingface-llm-mistral-7b-instruct'), instanceType: InstanceType.ML_G5_2XLARGE, vpc,
    });
    endpoint.addVariant('Canary', { model: sklearn(stack), instanceType: InstanceType.ML_M5_LARGE, initialVariantWeight: 0.1 });
    const models = Object.values(Template.fromStack(stack).findResources('AWS::SageMaker::Model'));
    expect(models).toHaveLength(2);
    for (const m of models) expect(m.Properties.VpcConfig.SecurityGroupIds).toHaveLength(1);
  });

  test('without a VPC nothing changes: no VpcConfig, no EC2 statement, no security group', () => {
    const stack = newStack();
    new RealtimeEndpoint(stack, 'Churn', { model: sklearn(stack), instanceType: InstanceType.ML_M5_LARGE });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::SageMaker::Model', { VpcConfig: Match.absent(), EnableNetworkIsolation: Match.absent() });
    t.resourceCountIs('AWS::EC2::SecurityGroup', 0);
    expect(JSON.stringify(t.toJSON())).not.toContain('ec2:CreateNetworkInterface');
  });

  test('fails for an existing model with network options', () => {
    const stack = newStack();
    expect(errorOf(() => new RealtimeEndpoint(stack, 'Old', { model: ModelSource.fromModelName('old-model'), instanceType: InstanceType.ML_M5_LARGE, vpc: isolatedVpc(stack) })))
      .toMatch(/vpc: got 'given', expected no network options with an existing model \(ModelSource.fromModelName 'old-model'\)/);
  });
});
