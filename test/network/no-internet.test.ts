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
  // the ten of SageMakerVpcEndpointService.all(), SNS (for the async endpoint's notifications), S3 and DynamoDB
  expect(endpoints).toHaveLength(13);
  expect(endpoints.some(([, e]) => e.Properties.ServiceName === 'com.amazonaws.us-east-1.sns')).toBe(true);
  for (const [, e] of endpoints) {
    for (const s of e.Properties.PolicyDocument?.Statement ?? []) {
      // The one exception, as ECR documents it: image layers come through presigned URLs created by an ECR account
      // (https://docs.aws.amazon.com/AmazonECR/latest/userguide/vpc-endpoints.html#ecr-setting-up-s3-gateway).
      if (s.Sid === 'EcrImageLayers') {
        expect([s.Action, JSON.stringify(s.Resource), s.Condition]).toEqual(['s3:GetObject', expect.stringContaining('-starport-layer-bucket/*'), undefined]);
        continue;
      }
      expect(s.Condition.StringEquals['aws:PrincipalAccount']).toEqual({ Ref: 'AWS::AccountId' });
    }
  }
});
