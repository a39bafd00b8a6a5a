import { App, Duration, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { RolloutEndpointContext } from '../../src/private/rollout-context';
import { Rollout, RolloutCapacity } from '../../src/rollouts';
import { errorOf } from '../support/test-stacks';

function newStack(): Stack {
  const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
  return new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
}

function alarm(scope: Construct, id: string, period = Duration.minutes(1), evaluationPeriods = 3): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    metric: new cloudwatch.Metric({ namespace: 'AWS/SageMaker', metricName: 'ModelLatency', period }),
    threshold: 1,
    evaluationPeriods,
  });
}

/** The endpoint's execution role, one per stack (SageMaker reads the rollback alarms with it). */
function executionRole(stack: Stack): iam.IRole {
  return (stack.node.tryFindChild('ExecutionRole') as iam.IRole | undefined)
    ?? new iam.Role(stack, 'ExecutionRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
}

function endpointContext(stack: Stack, extra: Partial<RolloutEndpointContext> = {}): RolloutEndpointContext {
  return { scope: stack, subject: "RealtimeEndpoint 'Chat'", variantCount: 1, instanceCount: 4, executionRole: executionRole(stack), ...extra };
}

function warnings(stack: Stack): string[] {
  return Annotations.fromStack(stack).findWarning('*', Match.anyValue()).map((w) => String(w.entry.data));
}

describe('Rollout renders the endpoint DeploymentConfig', () => {
  test('canary: blue/green CANARY with the canary size, its baking period, the final baking period and the rollback alarms', () => {
    // GIVEN
    const stack = newStack();
    const latency = alarm(stack, 'Latency');
    // WHEN
    const rollout = Rollout.canary({
      size: RolloutCapacity.percent(25),
      bakingPeriod: Duration.minutes(5),
      finalBakingPeriod: Duration.minutes(2),
      maximumExecutionTime: Duration.hours(1),
      autoRollbackOn: [latency],
    });
    const config = stack.resolve(rollout._bindToEndpoint(endpointContext(stack)));
    // THEN
    expect(config).toEqual({
      blueGreenUpdatePolicy: {
        trafficRoutingConfiguration: { type: 'CANARY', canarySize: { type: 'CAPACITY_PERCENT', value: 25 }, waitIntervalInSeconds: 300 },
        terminationWaitInSeconds: 120,
        maximumExecutionTimeoutInSeconds: 3600,
      },
      autoRollbackConfiguration: { alarms: [{ alarmName: { Ref: stack.getLogicalId(latency.node.defaultChild as any) } }] },
    });
    expect(rollout.strategy).toBe('CANARY');
  });

  test('allAtOnce: the baking period is the termination wait; the wait interval, which the API requires for every type, is 0', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const config = stack.resolve(Rollout.allAtOnce({ autoRollbackOn: [alarm(stack, 'A')] })._bindToEndpoint(endpointContext(stack)));
    // THEN: "WaitIntervalInSeconds ... Required: Yes" (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_TrafficRoutingConfig.html)
    expect(config.blueGreenUpdatePolicy).toEqual({ trafficRoutingConfiguration: { type: 'ALL_AT_ONCE', waitIntervalInSeconds: 0 }, terminationWaitInSeconds: 600 });
  });

  test('the execution role is granted cloudwatch:DescribeAlarms on the rollback alarms only', () => {
    // GIVEN
    const stack = newStack();
    const [a, b] = [alarm(stack, 'A'), alarm(stack, 'B')];
    // WHEN
    Rollout.canary({ size: RolloutCapacity.instances(1), autoRollbackOn: [a, b] })._bindToEndpoint(endpointContext(stack));
    // THEN: https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails-configuration.html
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('^ExecutionRole') }],
      PolicyDocument: { Statement: [{ Action: 'cloudwatch:DescribeAlarms', Effect: 'Allow', Resource: [stack.resolve(a.alarmArn), stack.resolve(b.alarmArn)] }] },
    });
  });

  test('without a known execution role, nothing is granted and synth warns which permission the role needs', () => {
    const stack = newStack();
    Rollout.allAtOnce({ autoRollbackOn: [alarm(stack, 'A')] })._bindToEndpoint(endpointContext(stack, { executionRole: undefined }));
    expect(warnings(stack)).toEqual([expect.stringContaining('not granted cloudwatch:DescribeAlarms on the rollback alarms')]);
    expect(Template.fromStack(stack).findResources('AWS::IAM::Policy')).toEqual({});
  });

  test('linear: LINEAR with the step size in instances and the default 10-minute baking period', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const config = stack.resolve(Rollout.linear({ stepSize: RolloutCapacity.instances(1), autoRollbackOn: [alarm(stack, 'A')] })
      ._bindToEndpoint(endpointContext(stack, { instanceCount: 4 })));
    // THEN
    expect(config.blueGreenUpdatePolicy.trafficRoutingConfiguration).toEqual({
      type: 'LINEAR', linearStepSize: { type: 'INSTANCE_COUNT', value: 1 }, waitIntervalInSeconds: 600,
    });
  });

  test('rolling: RollingUpdatePolicy with batch, rollback batch and baking period', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const config = stack.resolve(Rollout.rolling({
      batchSize: RolloutCapacity.percent(25),
      rollbackBatchSize: RolloutCapacity.percent(100),
      bakingPeriod: Duration.minutes(3),
      autoRollbackOn: [alarm(stack, 'A')],
    })._bindToEndpoint(endpointContext(stack)));
    // THEN
    expect(config.rollingUpdatePolicy).toEqual({
      maximumBatchSize: { type: 'CAPACITY_PERCENT', value: 25 },
      waitIntervalInSeconds: 180,
      rollbackMaximumBatchSize: { type: 'CAPACITY_PERCENT', value: 100 },
    });
    expect(config.blueGreenUpdatePolicy).toBeUndefined();
  });

  test('without autoRollbackOn, the endpoint\'s own alarms are used', () => {
    // GIVEN
    const stack = newStack();
    const own = [alarm(stack, 'Own1'), alarm(stack, 'Own2')];
    // WHEN
    const config = stack.resolve(Rollout.canary({ size: RolloutCapacity.instances(1) })
      ._bindToEndpoint(endpointContext(stack, { defaultAlarms: own })));
    // THEN
    expect(config.autoRollbackConfiguration.alarms).toHaveLength(2);
    expect(warnings(stack)).toEqual([]);
  });

  test('an empty autoRollbackOn renders no AutoRollbackConfiguration and warns that nothing is watched', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const config = stack.resolve(Rollout.canary({ size: RolloutCapacity.instances(1), autoRollbackOn: [] })
      ._bindToEndpoint(endpointContext(stack, { defaultAlarms: [alarm(stack, 'Own')] })));
    // THEN
    expect(config.autoRollbackConfiguration).toBeUndefined();
    expect(warnings(stack).join('\n')).toMatch(/no rollback alarms \(autoRollbackOn is empty\).*watch nothing/);
  });

  test('warns when the default alarms need longer to fire than the baking period', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    Rollout.canary({ size: RolloutCapacity.instances(1), bakingPeriod: Duration.minutes(5) })
      ._bindToEndpoint(endpointContext(stack, { defaultAlarms: [alarm(stack, 'Own')], defaultAlarmsTimeToAlarm: Duration.minutes(15) }));
    // THEN
    expect(warnings(stack).join('\n')).toMatch(/baking period \(5 minutes\) is shorter than the 15 minutes its alarms need/);
  });

  test('warns that SageMaker ignores the rollout on Inf1 instances', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    Rollout.allAtOnce({ autoRollbackOn: [alarm(stack, 'A')] })._bindToEndpoint(endpointContext(stack, { instanceTypes: ['ml.inf1.xlarge'] }));
    // THEN
    expect(warnings(stack).join('\n')).toMatch(/ml\.inf1\.xlarge is an Inf1 instance type.*all at once without a baking period/);
  });
});

test('fails for a rollback alarm whose metric names the endpoint through a GetAtt (a dependency cycle)', () => {
  // GIVEN an endpoint resource, an alarm on its GetAtt name and one on its literal name
  const stack = newStack();
  const cfn = new sagemaker.CfnEndpoint(stack, 'Endpoint', { endpointName: 'chat', endpointConfigName: 'config' });
  const byAttr = new cloudwatch.Metric({ namespace: 'AWS/SageMaker', metricName: 'ModelLatency', dimensionsMap: { EndpointName: cfn.attrEndpointName } });
  const byName = new cloudwatch.Metric({ namespace: 'AWS/SageMaker', metricName: 'ModelLatency', dimensionsMap: { EndpointName: 'chat' } });
  const cyclic = new cloudwatch.Alarm(stack, 'Cyclic', { metric: byAttr, threshold: 1, evaluationPeriods: 1 });
  const fine = new cloudwatch.Alarm(stack, 'Fine', { metric: byName, threshold: 1, evaluationPeriods: 1 });
  // WHEN / THEN
  expect(errorOf(() => Rollout.allAtOnce({ autoRollbackOn: [cyclic, fine] })._bindToEndpoint(endpointContext(stack, { endpoint: cfn }))))
    .toMatch(/1 problem:\n  - autoRollbackOn: got 'Test\/Cyclic', expected alarms whose metrics name this resource literally, not through a Ref or GetAtt/);
  const fineConfig = Rollout.allAtOnce({ autoRollbackOn: [fine] })._bindToEndpoint(endpointContext(stack, { endpoint: cfn }));
  expect(stack.resolve(fineConfig.autoRollbackConfiguration))
    .toEqual({ alarms: [{ alarmName: { Ref: stack.getLogicalId(fine.node.defaultChild as cloudwatch.CfnAlarm) } }] });
});

describe('Rollout renders the inference component DeploymentConfig', () => {
  test('rolling in copies, with rollback alarms', () => {
    // GIVEN
    const stack = newStack();
    // WHEN
    const config = stack.resolve(Rollout.rolling({
      batchSize: RolloutCapacity.copies(1), maximumExecutionTime: Duration.minutes(30), autoRollbackOn: [alarm(stack, 'A')],
    })._bindToInferenceComponent({ scope: stack, subject: "InferenceComponent 'Chat'", copyCount: 4 }));
    // THEN
    expect(config.rollingUpdatePolicy).toEqual({
      maximumBatchSize: { type: 'COPY_COUNT', value: 1 }, waitIntervalInSeconds: 600, maximumExecutionTimeoutInSeconds: 1800,
    });
    expect(config.autoRollbackConfiguration.alarms).toHaveLength(1);
  });

  test('fails for a blue/green rollout: inference components only roll', () => {
    const stack = newStack();
    expect(errorOf(() => Rollout.canary({ size: RolloutCapacity.percent(10) })
      ._bindToInferenceComponent({ scope: stack, subject: "InferenceComponent 'Chat'" })))
      .toMatch(/rollout: got 'Rollout.canary', expected Rollout.rolling \(inference components are updated by rolling batches of copies only\)/);
  });

  test('fails for a batch in instances, and for copies against the copy count', () => {
    const stack = newStack();
    const ctx = { scope: stack, subject: "InferenceComponent 'Chat'", copyCount: 2 };
    expect(errorOf(() => Rollout.rolling({ batchSize: RolloutCapacity.instances(1) })._bindToInferenceComponent(ctx)))
      .toMatch(/batchSize: got '1 instances', expected RolloutCapacity.copies\(n\) or RolloutCapacity.percent\(p\)/);
    expect(errorOf(() => Rollout.rolling({ batchSize: RolloutCapacity.copies(2) })._bindToInferenceComponent(ctx)))
      .toMatch(/batchSize: got '2 copies', expected a rolling batch is 5-50% of the fleet: with 2 copies, between 1 and 1 copies/);
  });
});

describe('Rollout validation (each names the prop, the value and what is expected)', () => {
  test.each([
    ['canary size above 50%', () => Rollout.canary({ size: RolloutCapacity.percent(51) }), /size: got '51%', expected a percentage between 1 and 50/],
    ['canary size of 0', () => Rollout.canary({ size: RolloutCapacity.instances(0) }), /size: got 0, expected an integer >= 1/],
    ['fractional canary size', () => Rollout.canary({ size: RolloutCapacity.instances(1.5) }), /size: got 1.5, expected an integer >= 1/],
    ['canary in copies', () => Rollout.canary({ size: RolloutCapacity.copies(1) }), /size: got '1 copies', expected RolloutCapacity.instances/],
    ['linear step below 10%', () => Rollout.linear({ stepSize: RolloutCapacity.percent(9) }), /stepSize: got '9%', expected a percentage between 10 and 50/],
    ['linear step above 50%', () => Rollout.linear({ stepSize: RolloutCapacity.percent(60) }), /stepSize: got '60%', expected a percentage between 10 and 50/],
    ['rolling batch below 5%', () => Rollout.rolling({ batchSize: RolloutCapacity.percent(4) }), /batchSize: got '4%', expected a percentage between 5 and 50/],
    ['rollback batch above 100%', () => Rollout.rolling({ batchSize: RolloutCapacity.percent(10), rollbackBatchSize: RolloutCapacity.percent(101) }),
      /rollbackBatchSize: got '101%', expected a percentage between 1 and 100/],
    ['rollback batch in another unit', () => Rollout.rolling({ batchSize: RolloutCapacity.copies(1), rollbackBatchSize: RolloutCapacity.instances(1) }),
      /rollbackBatchSize: got '1 instances', expected a percentage or the unit of batchSize \(COPY_COUNT\)/],
    ['baking period above 1 h', () => Rollout.canary({ size: RolloutCapacity.percent(10), bakingPeriod: Duration.seconds(3601) }),
      /bakingPeriod: got '1 hour 1 second', expected a whole number of seconds between 0 and 3600 \(0 s to 1 h\)/],
    ['fractional baking period', () => Rollout.allAtOnce({ bakingPeriod: Duration.millis(1500) }), /bakingPeriod: got '1 second 500 millis', expected a whole number of seconds/],
    ['final baking period above 1 h', () => Rollout.linear({ stepSize: RolloutCapacity.percent(10), finalBakingPeriod: Duration.hours(2) }),
      /finalBakingPeriod: got '2 hours', expected a whole number of seconds between 0 and 3600/],
    ['execution time below 600 s', () => Rollout.rolling({ batchSize: RolloutCapacity.percent(10), maximumExecutionTime: Duration.minutes(9) }),
      /maximumExecutionTime: got '9 minutes', expected a whole number of seconds between 600 and 28800 \(10 min to 8 h\)/],
    ['execution time above 8 h', () => Rollout.allAtOnce({ maximumExecutionTime: Duration.hours(9) }), /maximumExecutionTime: got '9 hours', expected .*between 600 and 28800/],
    ['execution time not longer than the baking periods', () => Rollout.canary({
      size: RolloutCapacity.percent(10),
      bakingPeriod: Duration.minutes(30),
      finalBakingPeriod: Duration.minutes(30),
      maximumExecutionTime: Duration.hours(1),
    }), /maximumExecutionTime: got '1 hour', expected longer than the baking periods together \(3600 s\)/],
  ])('fails for a %s', (_name, make, message) => {
    expect(errorOf(make)).toMatch(message);
  });

  test('fails for more than 10 rollback alarms', () => {
    const stack = newStack();
    const alarms = Array.from({ length: 11 }, (_, i) => alarm(stack, `A${i}`));
    expect(errorOf(() => Rollout.allAtOnce({ autoRollbackOn: alarms }))).toMatch(/autoRollbackOn: got '11 alarms', expected at most 10 alarms/);
  });

  test('fails for more than 10 default alarms', () => {
    const stack = newStack();
    const alarms = Array.from({ length: 11 }, (_, i) => alarm(stack, `A${i}`));
    expect(errorOf(() => Rollout.allAtOnce()._bindToEndpoint(endpointContext(stack, { defaultAlarms: alarms }))))
      .toMatch(/autoRollbackOn: got '11 alarms', expected at most 10 alarms/);
  });

  test('lists every problem at once', () => {
    const message = errorOf(() => Rollout.canary({ size: RolloutCapacity.percent(80), bakingPeriod: Duration.hours(3) }));
    expect(message).toMatch(/Invalid Rollout.canary: 2 problems/);
  });

  test.each([
    ['a canary of more than half the instances', Rollout.canary({ size: RolloutCapacity.instances(3) }), 4,
      /size: got '3 instances', expected a canary is at most 50% of the variant's instances: with 4 instances, between 1 and 2 instances/],
    ['a canary on one instance', Rollout.canary({ size: RolloutCapacity.instances(1) }), 1,
      /size: got '1 instances', expected .*with 1 instances, no count fits \(use at least 2 instances\)/],
    ['a linear step under 10% of the instances', Rollout.linear({ stepSize: RolloutCapacity.instances(1) }), 20,
      /stepSize: got '1 instances', expected a linear step is 10-50% .*with 20 instances, between 2 and 10 instances/],
    ['a rolling batch of every instance', Rollout.rolling({ batchSize: RolloutCapacity.instances(2) }), 2,
      /batchSize: got '2 instances', expected a rolling batch is 5-50% of the fleet: with 2 instances, between 1 and 1 instances/],
  ])('fails at bind for %s', (_name, rollout, instanceCount, message) => {
    const stack = newStack();
    expect(errorOf(() => rollout._bindToEndpoint(endpointContext(stack, { instanceCount, defaultAlarms: [alarm(stack, 'A')] })))).toMatch(message);
  });

  test('fails at bind for a rolling update of a multi-variant endpoint', () => {
    const stack = newStack();
    expect(errorOf(() => Rollout.rolling({ batchSize: RolloutCapacity.percent(10) })._bindToEndpoint(endpointContext(stack, { variantCount: 2 }))))
      .toMatch(/rollout: got 'Rollout.rolling with 2 variants', expected one production variant: SageMaker does not roll multi-variant endpoints/);
  });

  test('fails at bind for a rolling batch in copies on an endpoint', () => {
    const stack = newStack();
    expect(errorOf(() => Rollout.rolling({ batchSize: RolloutCapacity.copies(1) })._bindToEndpoint(endpointContext(stack))))
      .toMatch(/batchSize: got '1 copies', expected RolloutCapacity.instances\(n\) or RolloutCapacity.percent\(p\) \(an endpoint counts instances\)/);
  });
});
