import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { InstanceType } from '../../src/core';
import { SharedGpuEndpoint } from '../../src/shared-gpu';
import { internetPaths, isolatedSubnets } from '../support/internet-paths';
import { nagReport } from '../support/nag-checks';
import { errorOf, isolatedVpc, newStack } from '../support/test-stacks';

describe('endpoint network options (SharedGpuEndpoint: VpcConfig on the endpoint config)', () => {
  test('puts the endpoint config in the isolated subnets behind a created security group (no inbound, HTTPS out)', () => {
    const stack = newStack();
    const vpc = isolatedVpc(stack);
    const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, vpc, enableNetworkIsolation: true });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
      VpcConfig: {
        Subnets: vpc.isolatedSubnets.map((s) => ({ Ref: stack.getLogicalId(s.node.defaultChild as ec2.CfnSubnet) })),
        SecurityGroupIds: [{ 'Fn::GetAtt': [Match.stringLikeRegexp('SharedSecurityGroup'), 'GroupId'] }],
      },
      EnableNetworkIsolation: true,
    });
    t.hasResourceProperties('AWS::EC2::SecurityGroup', {
      GroupDescription: Match.stringLikeRegexp('SageMaker model containers'),
      SecurityGroupIngress: Match.absent(),
      SecurityGroupEgress: [{ CidrIp: '0.0.0.0/0', IpProtocol: 'tcp', FromPort: 443, ToPort: 443, Description: Match.anyValue() }],
    });
    expect(endpoint.connections.securityGroups).toHaveLength(1);
    expect(internetPaths(t.toJSON())).toEqual([]);
    expect(isolatedSubnets(t.toJSON()).size).toBe(2);
  });

  test('the role the components run with may manage their network interfaces (host-vpc.html\'s EC2 actions)', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, vpc: isolatedVpc(stack) });
    // THEN: on the created role's DefaultPolicy, with the library's acknowledgement of the EC2 wildcard
    const t = Template.fromStack(stack);
    const [policy] = Object.entries(t.findResources('AWS::IAM::Policy')).filter(([id]) => id.startsWith('SharedRoleDefaultPolicy')).map(([, p]) => p as any);
    expect(policy.Properties.PolicyDocument.Statement).toEqual(expect.arrayContaining([expect.objectContaining({
      Action: expect.arrayContaining(['ec2:CreateNetworkInterface', 'ec2:DeleteNetworkInterface', 'ec2:DescribeVpcEndpoints']), Resource: '*',
    })]));
    expect(nagReport(stack.node.root as App).findings.filter((f) => f.constructPath.startsWith('Test/Shared/'))).toEqual([]);
  });

  test('without a VPC the role gets no EC2 network-interface actions', () => {
    const stack = newStack();
    new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE });
    expect(JSON.stringify(Template.fromStack(stack).toJSON())).not.toContain('ec2:CreateNetworkInterface');
  });

  test('takes the security groups given, and allows connections through them', () => {
    const stack = newStack();
    const vpc = isolatedVpc(stack);
    const sg = new ec2.SecurityGroup(stack, 'Mine', { vpc, allowAllOutbound: false });
    const db = new ec2.SecurityGroup(stack, 'Db', { vpc, allowAllOutbound: false });
    const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, vpc, securityGroups: [sg] });
    endpoint.connections.allowTo(db, ec2.Port.tcp(5432));
    const t = Template.fromStack(stack);
    t.resourceCountIs('AWS::EC2::SecurityGroup', 2);
    t.hasResourceProperties('AWS::EC2::SecurityGroupIngress', { FromPort: 5432, GroupId: { 'Fn::GetAtt': [Match.stringLikeRegexp('Db'), 'GroupId'] } });
  });

  test('without a VPC: no VpcConfig, and connections fail with the reason', () => {
    const stack = newStack();
    const endpoint = new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::EndpointConfig', { VpcConfig: Match.absent(), EnableNetworkIsolation: Match.absent() });
    expect(errorOf(() => endpoint.connections)).toMatch(/connections: the endpoint has no VPC; expected 'vpc' in its props/);
  });

  test.each([
    ['subnets in one Availability Zone', (stack: Stack) => ({ vpc: isolatedVpc(stack, 1) }), /vpcSubnets: got \["dummy1a"\], expected subnets in at least two Availability Zones/],
    ['vpcSubnets without vpc', () => ({ vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED } }), /vpcSubnets: got 'given', expected no vpcSubnets without vpc/],
    ['six security groups', (stack: Stack) => {
      const vpc = isolatedVpc(stack);
      return { vpc, securityGroups: [1, 2, 3, 4, 5, 6].map((i) => new ec2.SecurityGroup(stack, `Sg${i}`, { vpc })) };
    }, /securityGroups: got 6, expected an integer between 1 and 5 security groups/],
  ])('fails for %s', (_name, props, message) => {
    const stack = newStack();
    expect(errorOf(() => new SharedGpuEndpoint(stack, 'Shared', { instanceType: InstanceType.ML_G5_12XLARGE, ...props(stack) }))).toMatch(message);
  });
});

describe('internetPaths finds every way out', () => {
  test('a default VPC (public subnets, NAT) and a function outside any VPC', () => {
    const stack = newStack();
    new ec2.Vpc(stack, 'Open', { maxAzs: 2, natGateways: 1 });
    const paths = internetPaths(Template.fromStack(stack).toJSON()).join('\n');
    expect(paths).toMatch(/AWS::EC2::InternetGateway/);
    expect(paths).toMatch(/AWS::EC2::NatGateway/);
    expect(paths).toMatch(/route to 0\.0\.0\.0\/0/);
    expect(paths).toMatch(/subnet maps public IPs on launch/);
  });

  test('a function and a model without VpcConfig', () => {
    const paths = internetPaths({
      Resources: {
        Fn: { Type: 'AWS::Lambda::Function', Properties: {} },
        Model: { Type: 'AWS::SageMaker::Model', Properties: {} },
      },
    });
    expect(paths).toEqual(['Fn: Lambda function outside isolated subnets: (no VpcConfig)', 'Model: SageMaker model outside isolated subnets: (no VpcConfig)']);
  });
});
