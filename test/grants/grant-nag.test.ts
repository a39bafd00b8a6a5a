/**
 * The library's grants never fail a user's cdk-nag run: a plain lambda.Function granted through each grant method, in
 * an app running cdk-nag AwsSolutions and SageMakerMcpChecks as policy-validation plugins, has no unacknowledged
 * finding; the prefix wildcards a grant needs are acknowledged on the grantee's policy with the library's reason, by
 * their exact finding ids, so a wildcard the user grants themself on the same function is still reported.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { asyncEndpoint, GRANT_METHODS, pipeline, scene } from './fixtures';
import { SageMakerMcpChecks } from '../../src/checks';
import { nagReport, synthWithNag } from '../support/nag-checks';

function withBothPacks<T extends { app: import('aws-cdk-lib').App }>(s: T): T {
  // synthWithNag/nagReport register AwsSolutionsChecks; SageMakerMcpChecks runs beside it, as the user would add it.
  Validations.of(s.app).addPlugins(new SageMakerMcpChecks());
  return s;
}

const logicalId = (c: { node: { defaultChild?: any } }) => Stack.of(c as any).getLogicalId(c.node.defaultChild as any);

describe('each grant method leaves a user\'s function cdk-nag clean (AwsSolutions + SageMakerMcpChecks, plugin mode)', () => {
  test.each(Object.keys(GRANT_METHODS))('%s', (method) => {
    // GIVEN
    const { app, stack, fn } = withBothPacks(scene());
    // WHEN
    GRANT_METHODS[method](stack, fn);
    // THEN
    expect(() => synthWithNag(app)).not.toThrow();
  });

  test('AsyncEndpoint.bindToFunction (the documented async path): its inputs/*, outputs/*, failures/* grants are acknowledged with a reason', () => {
    // GIVEN
    const { app, stack, fn } = withBothPacks(scene());
    const endpoint = asyncEndpoint(stack);
    // WHEN
    endpoint.bindToFunction(fn);
    const report = nagReport(app);
    // THEN
    expect(report.findings).toEqual([]);
    const bucket = logicalId(endpoint.bucket as any);
    const onPolicy = report.acknowledgements.filter((a) => a.constructPath === fn.role!.node.findChild('DefaultPolicy').node.defaultChild!.node.path);
    expect(onPolicy.map((a) => a.ruleId).sort()).toEqual([
      `AwsSolutions-IAM5[Resource::<${bucket}.Arn>/failures/*]`,
      `AwsSolutions-IAM5[Resource::<${bucket}.Arn>/inputs/*]`,
      `AwsSolutions-IAM5[Resource::<${bucket}.Arn>/outputs/*]`,
    ]);
    for (const a of onPolicy) expect(a.reason).toMatch(/prefix/);
  });

  test('negative control: a wildcard the user grants on the same function, even with the same action on the same bucket, is still reported', () => {
    // GIVEN
    const { app, stack, fn } = withBothPacks(scene());
    const endpoint = asyncEndpoint(stack);
    endpoint.bindToFunction(fn);
    // WHEN the user adds their own wildcard
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [endpoint.bucket!.arnForObjects('user-data/*')] }));
    const report = nagReport(app);
    // THEN only the user's wildcard is reported
    const bucket = logicalId(endpoint.bucket as any);
    expect(report.findings.map((f) => f.ruleId)).toEqual([`AwsSolutions-IAM5[Resource::<${bucket}.Arn>/user-data/*]`]);
  });

  test('negative control: pipeline/<name>/execution/* is acknowledged for the pipeline the grant is for, not for another pipeline\'s executions', () => {
    // GIVEN
    const { app, stack, fn } = withBothPacks(scene());
    pipeline(stack).grantReadExecutions(fn);
    // WHEN
    fn.addToRolePolicy(new iam.PolicyStatement({
      actions: ['sagemaker:DescribePipelineExecution'],
      resources: [stack.formatArn({ service: 'sagemaker', resource: 'pipeline', resourceName: 'someone-else/execution/*' })],
    }));
    const report = nagReport(app);
    // THEN
    expect(report.findings.map((f) => f.ruleId)).toEqual([
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:sagemaker:us-east-1:123456789012:pipeline/someone-else/execution/*]',
    ]);
  });
});
