/**
 * The isolated-VPC integ app (test/vpc.integ.ts) has no path to the internet: its committed template, which the
 * Control Tower suite keeps equal to a fresh synth, is read here.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { internetPaths, isolatedSubnets } from '../support/internet-paths';

const template = JSON.parse(readFileSync(join(__dirname, '..', 'vpc.integ.snapshot', 'CdkSageMakerMcpVpcInteg.template.json'), 'utf8'));
const resources: Record<string, { Type: string; Properties?: any }> = template.Resources;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

test('no internet or NAT gateway, no default route, no public IP, every function and model in isolated subnets', () => {
  expect(internetPaths(template)).toEqual([]);
});

test('the check has something to check: two isolated subnets, functions and models with VpcConfig', () => {
  expect(isolatedSubnets(template).size).toBe(2);
  expect(ofType('AWS::Lambda::Function').map(([id]) => id).sort()).toEqual([
    expect.stringMatching(/^DocProcessorResultsRecorder/), expect.stringMatching(/^McpToolServer/), expect.stringMatching(/^TrainingResultsHandler/),
  ]);
  expect(ofType('AWS::SageMaker::Model')).toHaveLength(3);
  for (const [, m] of ofType('AWS::SageMaker::Model')) expect(m.Properties.EnableNetworkIsolation).toBe(true);
});

test('the VPC endpoints the stack calls are there, and no VPC endpoint policy allows another account\'s principals', () => {
  const endpoints = ofType('AWS::EC2::VPCEndpoint');
  expect(endpoints).toHaveLength(12);
  for (const [, e] of endpoints) {
    for (const s of e.Properties.PolicyDocument?.Statement ?? []) {
      expect(s.Condition.StringEquals['aws:PrincipalAccount']).toEqual({ Ref: 'AWS::AccountId' });
    }
  }
});
