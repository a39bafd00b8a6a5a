/** Small helpers the construct tests share: a stack with a literal env, an isolated VPC, and a synth error's message. */
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';

/** A stack in a new app, in account 123456789012 and us-east-1 (literal, so ARNs and AZs resolve). */
export function newStack(): Stack {
  return new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
}

/** A VPC with isolated subnets only: no NAT gateway, no internet gateway. */
export function isolatedVpc(stack: Stack, maxAzs = 2): ec2.Vpc {
  return new ec2.Vpc(stack, 'Vpc', { maxAzs, natGateways: 0, subnetConfiguration: [{ name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }] });
}

/** The message `fn` throws; fails the test when it throws nothing. */
export function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}
