/**
 * The trust-boundary choice: the result recorder checks the SNS envelope's TopicArn, not its
 * signature, so the results queue's policy must make the two result topics the only senders. The SNS subscriptions
 * allow SNS to send from each topic (https://docs.aws.amazon.com/sns/latest/dg/subscribe-sqs-queue-to-sns-topic.html);
 * an explicit Deny on every other sqs:SendMessage also beats an identity policy in the account that grants it
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html: an explicit deny wins).
 * The synthesized queue policy is evaluated here for the requests that matter, with IAM's rule that a negated operator
 * is true for a key absent from the request
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html).
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, InstanceType, ModelSource } from '../../src/core';

const MODEL = ModelSource.fromContainer(ContainerImage.fromDlc('huggingface-pytorch-inference', '2.1.0-transformers4.37.0-cpu-py310-ubuntu22.04'));

interface Request {
  readonly sourceArn?: unknown;
  readonly secureTransport: boolean;
}

/** True when a Deny statement of `statements` matches sqs:SendMessage under `req` (the operators the policy uses). */
function explicitlyDenied(statements: any[], req: Request): boolean {
  return statements.some((s) => {
    if (s.Effect !== 'Deny') return false;
    const actions = [s.Action].flat();
    if (!actions.some((a: string) => a === 'sqs:*' || a === 'sqs:SendMessage')) return false;
    return Object.entries(s.Condition ?? {}).every(([op, keys]) => Object.entries(keys as Record<string, unknown>).every(([key, want]) => {
      const values = [want].flat();
      if (op === 'Bool' && key === 'aws:SecureTransport') return values.includes(String(req.secureTransport));
      if (op === 'ArnNotEquals' && key === 'aws:SourceArn') {
        return req.sourceArn === undefined || !values.some((v) => JSON.stringify(v) === JSON.stringify(req.sourceArn));
      }
      throw new Error(`operator ${op} on ${key} not modelled by this test`);
    }));
  });
}

test('only the two result topics can send to the results queue: a direct SendMessage is explicitly denied', () => {
  // GIVEN an async endpoint that records results
  const stack = new Stack(new App(), 'Trust', { env: { account: '123456789012', region: 'us-east-1' } });
  const endpoint = new AsyncEndpoint(stack, 'Async', { model: MODEL, instanceType: InstanceType.ML_M5_XLARGE });
  const template = Template.fromStack(stack);
  const queueRef = stack.resolve(endpoint.resultQueue!.queueUrl);
  const policy = Object.values(template.findResources('AWS::SQS::QueuePolicy'))
    .find((p: any) => JSON.stringify(p.Properties.Queues) === JSON.stringify([queueRef])) as any;
  expect(policy).toBeDefined();
  const statements: any[] = policy.Properties.PolicyDocument.Statement;
  const success = stack.resolve(endpoint.successTopic.topicArn);
  const error = stack.resolve(endpoint.errorTopic.topicArn);
  // THEN SNS delivering from either topic is not denied (and is allowed by the subscription's statement)...
  for (const topic of [success, error]) {
    expect(explicitlyDenied(statements, { sourceArn: topic, secureTransport: true })).toBe(false);
    expect(statements.some((s) => s.Effect === 'Allow' && s.Principal?.Service === 'sns.amazonaws.com'
      && JSON.stringify(s.Condition?.ArnEquals?.['aws:SourceArn']) === JSON.stringify(topic))).toBe(true);
  }
  // ...while a principal sending directly (no aws:SourceArn), or from another topic, is denied whatever its identity policy says
  expect(explicitlyDenied(statements, { secureTransport: true })).toBe(true);
  expect(explicitlyDenied(statements, { sourceArn: 'arn:aws:sns:us-east-1:123456789012:someone-elses-topic', secureTransport: true })).toBe(true);
});
