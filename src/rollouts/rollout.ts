import { Annotations, CfnResource, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { IConstruct } from 'constructs';
import { RolloutCapacity } from './capacity';
import { capacity, capacityAgainstFleet, EXECUTION_MAX_SECONDS, EXECUTION_MIN_SECONDS, MAX_ROLLBACK_ALARMS, seconds, StepKind, WAIT_MAX_SECONDS } from './private/limits';
import { AllAtOnceRolloutOptions, CanaryRolloutOptions, LinearRolloutOptions, RollingRolloutOptions, RolloutOptions } from './rollout-options';
import { IAM_ACTION } from '../private/iam-actions';
import { RolloutEndpointContext, RolloutInferenceComponentContext } from '../private/rollout-context';
import { PropValidator } from '../private/validation';

const DEFAULT_BAKING = Duration.minutes(10);

type Strategy = 'ALL_AT_ONCE' | 'CANARY' | 'LINEAR' | 'ROLLING';

interface Spec {
  readonly step?: RolloutCapacity;
  readonly stepKind?: StepKind;
  /** The baking period of each step (traffic routing / rolling `WaitIntervalInSeconds`). */
  readonly wait?: Duration;
  /** The blue/green policy's `TerminationWaitInSeconds`. */
  readonly terminationWait?: Duration;
  readonly rollbackBatch?: RolloutCapacity;
  readonly options: RolloutOptions;
}

/**
 * How SageMaker moves an endpoint (or an inference component) to a new model or configuration: SageMaker's deployment
 * guardrails (https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails.html). Blue/green (all at once,
 * canary, linear) brings up a full new fleet and moves traffic to it; rolling replaces the fleet batch by batch.
 * Alarms that fire during a baking period roll the update back.
 */
export class Rollout {
  /** Blue/green, all traffic at once, then a baking period before the old fleet is terminated. */
  public static allAtOnce(options: AllAtOnceRolloutOptions = {}): Rollout {
    const v = new PropValidator('Rollout.allAtOnce');
    const terminationWait = options.bakingPeriod ?? DEFAULT_BAKING;
    seconds(v, 'bakingPeriod', terminationWait, 0, WAIT_MAX_SECONDS);
    return Rollout.create(v, 'ALL_AT_ONCE', { terminationWait, options });
  }

  /** Blue/green: a canary (at most half the fleet) bakes, then the rest of the traffic moves. */
  public static canary(options: CanaryRolloutOptions): Rollout {
    return Rollout.blueGreenSteps('canary', 'size', options.size, options);
  }

  /** Blue/green: traffic moves in steps of 10-50% of the fleet, each baking before the next. */
  public static linear(options: LinearRolloutOptions): Rollout {
    return Rollout.blueGreenSteps('linear', 'stepSize', options.stepSize, options);
  }

  /** Rolling: batches of 5-50% of the fleet are replaced one after the other, each baking before the next. */
  public static rolling(options: RollingRolloutOptions): Rollout {
    const v = new PropValidator('Rollout.rolling');
    capacity(v, 'batchSize', options.batchSize, 'rolling');
    const wait = options.bakingPeriod ?? DEFAULT_BAKING;
    seconds(v, 'bakingPeriod', wait, 0, WAIT_MAX_SECONDS);
    if (options.rollbackBatchSize) {
      capacity(v, 'rollbackBatchSize', options.rollbackBatchSize, 'rollback');
      v.check(options.rollbackBatchSize.isPercent || options.rollbackBatchSize.unit === options.batchSize.unit, 'rollbackBatchSize',
        options.rollbackBatchSize.toString(), `a percentage or the unit of batchSize (${options.batchSize.unit})`);
    }
    return Rollout.create(v, 'ROLLING', { step: options.batchSize, stepKind: 'rolling', wait, rollbackBatch: options.rollbackBatchSize, options });
  }

  /** Canary and linear: traffic moves in steps of `step` (instances or a share of the fleet), each baking before the next. */
  private static blueGreenSteps(kind: 'canary' | 'linear', prop: string, step: RolloutCapacity,
    options: CanaryRolloutOptions | LinearRolloutOptions): Rollout {
    const v = new PropValidator(`Rollout.${kind}`);
    capacity(v, prop, step, kind);
    rejectCopies(v, prop, step);
    const wait = options.bakingPeriod ?? DEFAULT_BAKING;
    seconds(v, 'bakingPeriod', wait, 0, WAIT_MAX_SECONDS);
    seconds(v, 'finalBakingPeriod', options.finalBakingPeriod, 0, WAIT_MAX_SECONDS);
    return Rollout.create(v, kind === 'canary' ? 'CANARY' : 'LINEAR', { step, stepKind: kind, wait, terminationWait: options.finalBakingPeriod, options });
  }

  private static create(v: PropValidator, strategy: Strategy, spec: Spec): Rollout {
    const max = seconds(v, 'maximumExecutionTime', spec.options.maximumExecutionTime, EXECUTION_MIN_SECONDS, EXECUTION_MAX_SECONDS);
    const known = [spec.wait, spec.terminationWait].filter((d): d is Duration => d !== undefined);
    const waits = known.reduce((n, d) => n + d.toSeconds({ integral: false }), 0);
    if (max !== undefined && strategy !== 'ROLLING' && known.every((d) => !d.isUnresolved())) {
      // "the timeout value should be larger than the total waiting time specified in TerminationWaitInSeconds and
      // WaitIntervalInSeconds" (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_BlueGreenUpdatePolicy.html)
      v.check(max > waits, 'maximumExecutionTime', spec.options.maximumExecutionTime!.toHumanString(),
        `longer than the baking periods together (${waits} s)`);
    }
    if (spec.options.autoRollbackOn) {
      v.check(spec.options.autoRollbackOn.length <= MAX_ROLLBACK_ALARMS, 'autoRollbackOn', `${spec.options.autoRollbackOn.length} alarms`,
        `at most ${MAX_ROLLBACK_ALARMS} alarms (AutoRollbackConfig)`);
    }
    v.throwIfInvalid();
    return new Rollout(strategy, spec);
  }

  /** `ALL_AT_ONCE`, `CANARY`, `LINEAR` (blue/green traffic routing) or `ROLLING`. */
  public readonly strategy: string;
  private readonly spec: Spec;

  private constructor(strategy: Strategy, spec: Spec) {
    this.strategy = strategy;
    this.spec = spec;
  }

  /** The baking period of each step (for all at once, the one baking period), when known. */
  public get bakingPeriod(): Duration | undefined {
    return this.strategy === 'ALL_AT_ONCE' ? this.spec.terminationWait : this.spec.wait;
  }

  /**
   * The endpoint's `DeploymentConfig`. Checks the sizes against the variant's instance count, refuses a rolling update
   * of an endpoint with several variants, and warns when nothing will be watched or SageMaker will ignore the policy.
   * The endpoint constructs call it with their `rollout` prop.
   *
   * @internal
   */
  public _bindToEndpoint(context: RolloutEndpointContext): sagemaker.CfnEndpoint.DeploymentConfigProperty {
    const v = new PropValidator(`${context.subject} rollout (${this.strategy})`);
    const { step, stepKind } = this.spec;
    for (const [prop, c] of [[propOf(this.strategy), step], ['rollbackBatchSize', this.spec.rollbackBatch]] as const) {
      if (c) v.check(c.unit !== 'COPY_COUNT', prop, c.toString(), 'RolloutCapacity.instances(n) or RolloutCapacity.percent(p) (an endpoint counts instances)');
    }
    if (step && stepKind && context.instanceCount !== undefined) {
      capacityAgainstFleet(v, propOf(this.strategy), step, stepKind, context.instanceCount, 'instances');
    }
    if (this.spec.rollbackBatch && context.instanceCount !== undefined) {
      capacityAgainstFleet(v, 'rollbackBatchSize', this.spec.rollbackBatch, 'rollback', context.instanceCount, 'instances');
    }
    // "If you're doing a rolling deployment, there are additional feature-based exclusions: Serverless inference
    // endpoints, Multi-variant inference endpoints" (https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails-exclusions.html)
    v.check(this.strategy !== 'ROLLING' || context.variantCount <= 1, 'rollout', `Rollout.rolling with ${context.variantCount} variants`,
      'one production variant: SageMaker does not roll multi-variant endpoints (use Rollout.canary or Rollout.linear)');
    v.throwIfInvalid();

    const inf1 = (context.instanceTypes ?? []).filter((t) => t.startsWith('ml.inf1.'));
    if (inf1.length > 0) {
      Annotations.of(context.scope).addWarningV2('cdk-sagemaker-mcp:rolloutIgnored',
        `${context.subject}: ${inf1.join(', ')} is an Inf1 instance type, with which SageMaker ignores the ${this.strategy} rollout and updates `
        + 'all at once without a baking period (https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails-exclusions.html)');
    }
    const alarms = this.alarms(context.scope, context.subject, context.defaultAlarms, context.defaultAlarmsTimeToAlarm);
    rejectCycles(context.subject, alarms, context.endpoint);
    grantDescribeAlarms(context.scope, context.subject, context.executionRole, alarms);
    const autoRollbackConfiguration = alarms.length > 0 ? { alarms: alarms.map((a) => ({ alarmName: a.alarmName })) } : undefined;
    const maximumExecutionTimeoutInSeconds = this.maximumExecutionSeconds();
    if (this.strategy === 'ROLLING') {
      return {
        rollingUpdatePolicy: {
          maximumBatchSize: renderCapacity(step!),
          waitIntervalInSeconds: this.spec.wait!.toSeconds(),
          maximumExecutionTimeoutInSeconds,
          rollbackMaximumBatchSize: this.spec.rollbackBatch ? renderCapacity(this.spec.rollbackBatch) : undefined,
        },
        autoRollbackConfiguration,
      };
    }
    return {
      blueGreenUpdatePolicy: {
        trafficRoutingConfiguration: {
          type: this.strategy,
          canarySize: this.strategy === 'CANARY' ? renderCapacity(step!) : undefined,
          linearStepSize: this.strategy === 'LINEAR' ? renderCapacity(step!) : undefined,
          // "WaitIntervalInSeconds ... Required: Yes" (0-3600) for every Type, ALL_AT_ONCE included, though the
          // CloudFormation schema marks it optional (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_TrafficRoutingConfig.html)
          waitIntervalInSeconds: this.spec.wait?.toSeconds() ?? 0,
        },
        terminationWaitInSeconds: this.spec.terminationWait?.toSeconds(),
        maximumExecutionTimeoutInSeconds,
      },
      autoRollbackConfiguration,
    };
  }

  /**
   * The inference component's `DeploymentConfig`: a rolling update (the only policy inference components have), with
   * batches in copies or percent. `InferenceComponent` calls it with its `rollout` prop.
   *
   * @internal
   */
  public _bindToInferenceComponent(
    context: RolloutInferenceComponentContext,
  ): sagemaker.CfnInferenceComponent.InferenceComponentDeploymentConfigProperty {
    const v = new PropValidator(`${context.subject} rollout (${this.strategy})`);
    // InferenceComponentDeploymentConfig has RollingUpdatePolicy and AutoRollbackConfiguration only
    // (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_InferenceComponentDeploymentConfig.html).
    v.check(this.strategy === 'ROLLING', 'rollout', `Rollout.${camel(this.strategy)}`,
      'Rollout.rolling (inference components are updated by rolling batches of copies only)');
    v.throwIfInvalid();
    const { step } = this.spec;
    v.check(step!.unit !== 'INSTANCE_COUNT', 'batchSize', step!.toString(), 'RolloutCapacity.copies(n) or RolloutCapacity.percent(p) (an inference component counts copies)');
    if (this.spec.rollbackBatch) {
      v.check(this.spec.rollbackBatch.unit !== 'INSTANCE_COUNT', 'rollbackBatchSize', this.spec.rollbackBatch.toString(), 'RolloutCapacity.copies(n) or RolloutCapacity.percent(p)');
    }
    if (context.copyCount !== undefined) {
      capacityAgainstFleet(v, 'batchSize', step!, 'rolling', context.copyCount, 'copies');
      if (this.spec.rollbackBatch) capacityAgainstFleet(v, 'rollbackBatchSize', this.spec.rollbackBatch, 'rollback', context.copyCount, 'copies');
    }
    v.throwIfInvalid();
    const alarms = this.alarms(context.scope, context.subject, undefined, undefined);
    rejectCycles(context.subject, alarms, context.component);
    grantDescribeAlarms(context.scope, context.subject, context.executionRole, alarms);
    return {
      rollingUpdatePolicy: {
        maximumBatchSize: renderCapacity(step!),
        waitIntervalInSeconds: this.spec.wait!.toSeconds(),
        maximumExecutionTimeoutInSeconds: this.maximumExecutionSeconds(),
        rollbackMaximumBatchSize: this.spec.rollbackBatch ? renderCapacity(this.spec.rollbackBatch) : undefined,
      },
      autoRollbackConfiguration: alarms.length > 0 ? { alarms: alarms.map((a) => ({ alarmName: a.alarmName })) } : undefined,
    };
  }

  private maximumExecutionSeconds(): number | undefined {
    const d = this.spec.options.maximumExecutionTime;
    return d === undefined ? undefined : d.toSeconds();
  }

  /** The rollback alarms, with warnings when there are none or they cannot fire within a baking period. */
  private alarms(
    scope: IConstruct, subject: string, defaults: cloudwatch.IAlarm[] | undefined, timeToAlarm: Duration | undefined,
  ): cloudwatch.IAlarm[] {
    const own = this.spec.options.autoRollbackOn;
    const alarms = own ?? defaults ?? [];
    if (alarms.length === 0) {
      // "If you do not have any CloudWatch alarms set up to monitor your endpoint, then the auto-rollback functionality
      // does not work during your deployment" (https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails-configuration.html)
      Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:rolloutWithoutAlarms',
        `${subject}: the ${this.strategy} rollout has no rollback alarms (autoRollbackOn${own ? ' is empty' : ' is not set and the construct has no alarms'}), `
        + 'so its baking periods watch nothing and a bad model is never rolled back automatically. Pass autoRollbackOn, or give the endpoint alarms.');
      return [];
    }
    v10(subject, alarms.length);
    const baking = this.bakingPeriod;
    if (own === undefined && timeToAlarm && baking && !timeToAlarm.isUnresolved() && !baking.isUnresolved()
      && timeToAlarm.toSeconds({ integral: false }) > baking.toSeconds({ integral: false })) {
      Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:rolloutBakingShorterThanAlarms',
        `${subject}: the baking period (${baking.toHumanString()}) is shorter than the ${timeToAlarm.toHumanString()} its alarms need to fire `
        + '(period x evaluation periods), so they cannot roll the update back: lengthen bakingPeriod or shorten the alarms\' period.');
    }
    return alarms;
  }
}

/**
 * SageMaker reads the rollback alarms with the execution role during the update: "Ensure that your IAM execution role
 * has permission to perform the cloudwatch:DescribeAlarms action on the auto-rollback alarms you specify"
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails-configuration.html).
 */
function grantDescribeAlarms(scope: IConstruct, subject: string, role: iam.IRole | undefined, alarms: cloudwatch.IAlarm[]): void {
  if (alarms.length === 0) return;
  if (!role) {
    Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:rollbackAlarmsRoleUnknown',
      `${subject}: the execution role is not known here (an existing model), so it was not granted cloudwatch:DescribeAlarms on the `
      + 'rollback alarms, which SageMaker needs to watch them during the update: grant it to that role, or pass the role as `role`.');
    return;
  }
  iam.Grant.addToPrincipal({ grantee: role, actions: [IAM_ACTION.cloudwatch.DescribeAlarms], resourceArns: alarms.map((a) => a.alarmArn) });
}

function v10(subject: string, n: number): void {
  new PropValidator(`${subject} rollout`)
    .check(n <= MAX_ROLLBACK_ALARMS, 'autoRollbackOn', `${n} alarms`, `at most ${MAX_ROLLBACK_ALARMS} alarms (AutoRollbackConfig)`)
    .throwIfInvalid();
}

/**
 * The resource that rolls back on an alarm `Ref`s it; if the alarm's metrics name that resource through a `Ref` or
 * `GetAtt` (an EndpointName dimension from `attrEndpointName`), CloudFormation refuses the template: a dependency cycle.
 */
function rejectCycles(subject: string, alarms: cloudwatch.IAlarm[], resource: CfnResource | undefined): void {
  if (!resource) return;
  const stack = Stack.of(resource);
  const v = new PropValidator(`${subject} rollout`);
  for (const alarm of alarms) {
    const cfn = alarm.node.defaultChild;
    if (!(cfn instanceof cloudwatch.CfnAlarm) || Stack.of(cfn) !== stack) continue;
    const watched = JSON.stringify(stack.resolve([cfn.dimensions, cfn.metrics]));
    v.check(!watched.includes(`"${stack.resolve(resource.logicalId)}"`), 'autoRollbackOn', alarm.node.path,
      'alarms whose metrics name this resource literally, not through a Ref or GetAtt (the resource names its rollback alarms '
      + 'and such an alarm names the resource: a dependency cycle CloudFormation refuses). Build the metric with the construct\'s '
      + 'metric methods (a construct with a rollout names itself at synth) or a literal endpoint name');
  }
  v.throwIfInvalid();
}

function rejectCopies(v: PropValidator, prop: string, c: RolloutCapacity): void {
  v.check(c.unit !== 'COPY_COUNT', prop, c.toString(), 'RolloutCapacity.instances(n) or RolloutCapacity.percent(p) (blue/green rollouts are for endpoints; copies are for inference components)');
}

function renderCapacity(c: RolloutCapacity): { type: string; value: number } {
  return { type: c.unit, value: c.value };
}

function propOf(strategy: string): string {
  return strategy === 'CANARY' ? 'size' : strategy === 'LINEAR' ? 'stepSize' : 'batchSize';
}

function camel(strategy: string): string {
  return { ALL_AT_ONCE: 'allAtOnce', CANARY: 'canary', LINEAR: 'linear', ROLLING: 'rolling' }[strategy] ?? strategy;
}
