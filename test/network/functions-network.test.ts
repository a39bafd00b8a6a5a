/**
 * The bundled functions (async result recorder, pipeline router, MCP server) in a VPC: the function's VpcConfig in the
 * isolated subnets, a security group with HTTPS out only, the network-interface actions on the function's own role
 * (acknowledged for cdk-nag), and nothing of it without a VPC.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AsyncEndpoint, AsyncWorkload } from '../../src/async';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../../src/core';
import { McpToolServer } from '../../src/mcp';
import { PipelineEventRouter } from '../../src/pipelines';
import { RealtimeEndpoint } from '../../src/realtime';
import { internetPaths } from '../support/internet-paths';
import { expectNagClean } from '../support/nag-checks';

function newStack(): Stack {
  const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
  return new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
}

function isolatedVpc(stack: Stack): ec2.Vpc {
  return new ec2.Vpc(stack, 'Vpc', {
    maxAzs: 2, natGateways: 0, subnetConfiguration: [{ name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }], flowLogs: { All: {} },
  });
}

function asyncEndpoint(stack: Stack, vpc?: ec2.IVpc): AsyncEndpoint {
  const artifacts = s3.Bucket.fromBucketName(stack, 'Artifacts', 'artifacts');
  return new AsyncEndpoint(stack, 'Docs', {
    vpc,
    model: ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04'),
      { modelData: ModelData.fromBucket(artifacts, 'bart/model.tar.gz') }),
    instanceType: InstanceType.ML_M5_XLARGE,
    invocation: { workload: AsyncWorkload.CPU_PROCESSING },
  });
}

function lambdaSecurityGroupOf(t: Template, fnIdPrefix: RegExp): any {
  const [, fn] = Object.entries(t.findResources('AWS::Lambda::Function')).find(([id]) => fnIdPrefix.test(id))!;
  const sgId = fn.Properties.VpcConfig.SecurityGroupIds[0]['Fn::GetAtt'][0];
  return t.toJSON().Resources[sgId];
}

test('async endpoint, result recorder, pipeline router and MCP server in the isolated subnets, HTTPS out only, nag-clean', () => {
  const stack = newStack();
  const vpc = isolatedVpc(stack);
  const docs = asyncEndpoint(stack, vpc);
  const chat = new RealtimeEndpoint(stack, 'Chat', {
    vpc,
    model: ModelSource.fromContainer(ContainerImage.sklearn('1.2-1'), { modelData: ModelData.fromBucket(s3.Bucket.fromBucketName(stack, 'M', 'models'), 'm.tar.gz') }),
    instanceType: InstanceType.ML_M5_LARGE,
  });
  new PipelineEventRouter(stack, 'Router', { vpc });
  new McpToolServer(stack, 'Mcp', { vpc, realtimeEndpoints: [{ endpoint: chat }], asyncEndpoints: [{ endpoint: docs }] });
  const t = Template.fromStack(stack);
  expect(internetPaths(t.toJSON())).toEqual([]);
  t.resourceCountIs('AWS::Lambda::Function', 3);
  for (const prefix of [/^DocsResultsRecorder/, /^RouterHandler/, /^Mcp/]) {
    expect(lambdaSecurityGroupOf(t, prefix).Properties.SecurityGroupEgress).toEqual([
      { CidrIp: '0.0.0.0/0', Description: 'HTTPS to the VPC endpoints of AWS services', FromPort: 443, IpProtocol: 'tcp', ToPort: 443 },
    ]);
  }
  t.hasResourceProperties('AWS::IAM::Policy', {
    Roles: [{ Ref: Match.stringLikeRegexp('RouterHandlerRole') }],
    PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: Match.arrayWith(['ec2:CreateNetworkInterface', 'ec2:AssignPrivateIpAddresses']), Resource: '*' })]) },
  });
  expect(docs.connections.securityGroups).toHaveLength(1);
  expectNagClean(stack.node.root as App);
});

test('the security groups given are the function\'s own, unchanged', () => {
  const stack = newStack();
  const vpc = isolatedVpc(stack);
  const sg = new ec2.SecurityGroup(stack, 'Mine', { vpc, allowAllOutbound: false });
  new PipelineEventRouter(stack, 'Router', { vpc, securityGroups: [sg] });
  const t = Template.fromStack(stack);
  t.hasResourceProperties('AWS::Lambda::Function', { VpcConfig: { SecurityGroupIds: [{ 'Fn::GetAtt': [Match.stringLikeRegexp('Mine'), 'GroupId'] }] } });
  t.resourceCountIs('AWS::EC2::SecurityGroup', 1);
});

test('without a VPC the functions have no VpcConfig and their roles no EC2 statement', () => {
  const stack = newStack();
  asyncEndpoint(stack);
  new PipelineEventRouter(stack, 'Router');
  const t = Template.fromStack(stack);
  for (const fn of Object.values(t.findResources('AWS::Lambda::Function'))) expect(fn.Properties.VpcConfig).toBeUndefined();
  expect(JSON.stringify(t.toJSON())).not.toContain('ec2:');
});

test('fails for vpcSubnets or securityGroups without a vpc', () => {
  const stack = newStack();
  expect(() => new PipelineEventRouter(stack, 'Router', { vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED } }))
    .toThrow(/vpcSubnets: got 'given', expected no vpcSubnets without vpc/);
});
