/**
 * The acknowledgement ids the library records, pinned: always the exact cdk-nag finding id
 * (`AwsSolutions-IAM5[Resource::<flattened resource>]`), never the bare rule id, and recorded at every aws-cdk-lib in
 * the peer range. aws-cdk-lib before 2.269.0 refuses an id with more than one '::' in `Validations.acknowledge`
 * ("The '::' delimiter is reserved ...", e.g. `<AWS::Partition>` inside the brackets), so the library records the
 * `{ [id]: reason }` metadata that cdk-nag v3 reads itself, at every version (src/private/nag.ts). scripts/cdk-version/synth.sh
 * runs the real old releases; here the old rule is replayed on the installed aws-cdk-lib, to show it is never hit.
 */
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { acknowledgeFinding } from '../../src/private/nag';
import { pipeline, realtime, scene } from '../grants/fixtures';
import { nagReport, synthWithNag } from '../support/nag-checks';

const ACK = 'aws:cdk:acknowledged-rules';

/** Acknowledged ids on a construct, without the `Annotation::` prefix aws-cdk-lib 2.262.1+ adds. */
function idsOn(construct: { node: { metadata: Array<{ type: string; data: any }> } }): string[] {
  return construct.node.metadata.filter((m) => m.type === ACK).flatMap((m) => Object.keys(m.data)).map((k) => k.replace(/^annotation::/i, ''));
}

/**
 * aws-cdk-lib 2.257.0's `Validations.qualifyId`, replayed: "const parts=id.split('::'); if (parts.length>2 || ...)
 * throw InvalidValidationId". Ids with at most one '::' pass through to the installed implementation.
 */
function withFloorIdRule<T>(body: () => T): T {
  const original = Validations.prototype.acknowledge;
  const spy = jest.spyOn(Validations.prototype, 'acknowledge').mockImplementation(function (this: Validations, ...rules) {
    for (const rule of rules) {
      if (rule.id.split('::').length > 2) {
        throw new Error(`InvalidValidationId: Invalid validation rule ID '${rule.id}'. The '::' delimiter is reserved for separating the prefix from the rule name (e.g. 'prefix::RuleName').`);
      }
    }
    return original.apply(this, rules);
  });
  try {
    return body();
  } finally {
    spy.mockRestore();
  }
}

describe('acknowledgement id format', () => {
  test('a grant\'s wildcard is acknowledged by its exact finding id, pseudo parameters flattened as cdk-nag does', () => {
    // GIVEN
    const { app, stack, fn } = scene();
    const p = pipeline(stack);
    // WHEN
    p.grantReadExecutions(fn);
    app.synth();
    // THEN
    const policy = fn.role!.node.findChild('DefaultPolicy').node.defaultChild!;
    expect(idsOn(policy)).toEqual([
      `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:sagemaker:us-east-1:123456789012:pipeline/${Stack.of(p).resolve(p.pipelineName)}/execution/*]`,
    ]);
  });

  test('the library never acknowledges a bare IAM5 (which would hide every wildcard of the policy)', () => {
    // GIVEN
    const { app, stack, fn } = scene();
    // WHEN
    realtime(stack).grantInvoke(fn);
    pipeline(stack).grantReadExecutions(fn);
    app.synth();
    // THEN
    const all = app.node.findAll().flatMap((c) => idsOn(c));
    expect(all.filter((id) => id.startsWith('AwsSolutions-IAM5'))).not.toHaveLength(0);
    expect(all.filter((id) => /^AwsSolutions-IAM5$/.test(id))).toEqual([]);
  });

  test('at the floor\'s id rule, an id holding <AWS::Partition> is still recorded, and cdk-nag honours it', () => {
    withFloorIdRule(() => {
      // GIVEN a realtime endpoint (its role's logs statement) and a pipeline grant: both ids hold <AWS::Partition>
      const { app, stack, fn } = scene();
      realtime(stack);
      pipeline(stack).grantReadExecutions(fn);
      // WHEN / THEN: synth works and nothing is left unacknowledged
      expect(() => synthWithNag(app)).not.toThrow();
      const policy = fn.role!.node.findChild('DefaultPolicy').node.defaultChild!;
      expect(idsOn(policy)).toEqual([expect.stringMatching(/^AwsSolutions-IAM5\[Resource::arn:<AWS::Partition>:sagemaker:.*\/execution\/\*\]$/)]);
    });
  });

  test('at the floor\'s id rule, a user\'s unrelated wildcard is still reported (the fallback is as narrow as the id)', () => {
    withFloorIdRule(() => {
      const { app, stack, fn } = scene();
      pipeline(stack).grantReadExecutions(fn);
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [stack.formatArn({ service: 'sqs', resource: 'q-*' })] }));
      const report = nagReport(app);
      expect(report.findings.map((f) => f.ruleId)).toEqual(['AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:sqs:us-east-1:123456789012:q-*]']);
    });
  });

  test('an endpoint\'s findings are recorded on its role\'s policy as one entry with no stack trace, keyed as aws-cdk-lib keys them', () => {
    // GIVEN a realtime endpoint: its role's DefaultPolicy holds several acknowledged wildcards
    const { app, stack } = scene();
    const endpoint = realtime(stack);
    // WHEN
    expect(() => synthWithNag(app)).not.toThrow();
    // THEN
    const policy = endpoint.node.findChild('Role').node.findChild('Default').node.findChild('DefaultPolicy').node.defaultChild!;
    const entries = policy.node.metadata.filter((m) => m.type === ACK);
    expect(entries).toHaveLength(1);
    expect(entries[0].trace).toBeUndefined();
    expect(Object.keys(entries[0].data).length).toBeGreaterThan(1); // the logs log-group wildcard and `Resource::*`
    expect(Object.keys(entries[0].data).every((k) => k.startsWith('Annotation::AwsSolutions-IAM5['))).toBe(true);
  });

  test('acknowledgeFinding records nothing else: one entry for the one id', () => {
    const stack = new Stack(new App(), 'S');
    acknowledgeFinding(stack, 'AwsSolutions-EC23', 'r');
    expect(stack.node.metadata.filter((m) => m.type === ACK).map((m) => m.data)).toEqual([{ 'Annotation::AwsSolutions-EC23': 'r' }]);
  });
});
