/**
 * Raw CloudFormation resources (PascalCase, as synthesized) for the checks tests: a compliant baseline per
 * scenario that each test breaks in exactly one way.
 */
import { Resources } from './util';

export const ROLE_ARN = 'arn:aws:iam::123456789012:role/sagemaker-execution';
export const KEY_ARN = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
export const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:results';
export const LMI_IMAGE = '763104351884.dkr.ecr.us-east-1.amazonaws.com/djl-inference:0.29.0-lmi11.0.0-cu124';
export const SKLEARN_IMAGE = '683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-scikit-learn:1.2-1-cpu-py3';

const getAtt = (id: string, attr: string) => ({ 'Fn::GetAtt': [id, attr] });
type Props = Record<string, any>;

export function model(props: Props = {}): Resources[string] {
  return { Type: 'AWS::SageMaker::Model', Properties: { ExecutionRoleArn: ROLE_ARN, PrimaryContainer: { Image: SKLEARN_IMAGE }, ...props } };
}

export function endpointConfig(variant: Props = {}, props: Props = {}): Resources[string] {
  return {
    Type: 'AWS::SageMaker::EndpointConfig',
    Properties: {
      KmsKeyId: KEY_ARN,
      ProductionVariants: [{ VariantName: 'AllTraffic', ModelName: getAtt('Model', 'ModelName'), InstanceType: 'ml.m5.large', InitialInstanceCount: 1, ...variant }],
      ...props,
    },
  };
}

export const ASYNC_CONFIG = {
  AsyncInferenceConfig: {
    OutputConfig: { S3OutputPath: 's3://results/out', S3FailurePath: 's3://results/failed', NotificationConfig: { SuccessTopic: TOPIC_ARN, ErrorTopic: TOPIC_ARN } },
    ClientConfig: { MaxConcurrentInvocationsPerInstance: 1 },
  },
};

export function endpoint(props: Props = {}): Resources[string] {
  return { Type: 'AWS::SageMaker::Endpoint', Properties: { EndpointName: 'chat', EndpointConfigName: getAtt('Config', 'EndpointConfigName'), ...props } };
}

export function variantTarget(minCapacity: unknown, props: Props = {}): Resources[string] {
  return {
    Type: 'AWS::ApplicationAutoScaling::ScalableTarget',
    Properties: {
      ServiceNamespace: 'sagemaker',
      ScalableDimension: 'sagemaker:variant:DesiredInstanceCount',
      ResourceId: { 'Fn::Join': ['', ['endpoint/', getAtt('Endpoint', 'EndpointName'), '/variant/AllTraffic']] },
      MinCapacity: minCapacity,
      MaxCapacity: 4,
      ...props,
    },
  };
}

export function targetTracking(config: Props = {}, target = 'Target'): Resources[string] {
  return {
    Type: 'AWS::ApplicationAutoScaling::ScalingPolicy',
    Properties: {
      PolicyName: 'invocations',
      PolicyType: 'TargetTrackingScaling',
      ScalingTargetId: { Ref: target },
      TargetTrackingScalingPolicyConfiguration: {
        TargetValue: 5,
        PredefinedMetricSpecification: { PredefinedMetricType: 'SageMakerVariantInvocationsPerInstance' },
        ScaleOutCooldown: 60,
        ScaleInCooldown: 300,
        ...config,
      },
    },
  };
}

export function backlogTracking(): Resources[string] {
  return targetTracking({
    PredefinedMetricSpecification: undefined,
    CustomizedMetricSpecification: { MetricName: 'ApproximateBacklogSizePerInstance', Namespace: 'AWS/SageMaker', Statistic: 'Average', Dimensions: [{ Name: 'EndpointName', Value: 'chat' }] },
  });
}

export function stepScaling(): Resources[string] {
  return {
    Type: 'AWS::ApplicationAutoScaling::ScalingPolicy',
    Properties: {
      PolicyName: 'HasBacklogWithoutCapacity-ScalingPolicy',
      PolicyType: 'StepScaling',
      ScalingTargetId: { Ref: 'Target' },
      StepScalingPolicyConfiguration: { AdjustmentType: 'ChangeInCapacity', MetricAggregationType: 'Average', Cooldown: 300, StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 1 }] },
    },
  };
}

export function backlogAlarm(props: Props = {}): Resources[string] {
  return {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      Namespace: 'AWS/SageMaker',
      MetricName: 'HasBacklogWithoutCapacity',
      Dimensions: [{ Name: 'EndpointName', Value: getAtt('Endpoint', 'EndpointName') }],
      Statistic: 'Average',
      Period: 60,
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'missing',
      AlarmActions: [{ Ref: 'StepPolicy' }],
      ...props,
    },
  };
}

/** A realtime endpoint scaling on invocations per instance (compliant). */
export function realtimeScaling(overrides: Resources = {}): Resources {
  return { Model: model(), Config: endpointConfig(), Endpoint: endpoint(), Target: variantTarget(1), Policy: targetTracking(), ...overrides };
}

/**
 * An async endpoint that scales to zero and back, as https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-autoscale.html
 * describes it (compliant).
 */
export function asyncScaleToZero(overrides: Resources = {}): Resources {
  return {
    Model: model(),
    Config: endpointConfig({}, ASYNC_CONFIG),
    Endpoint: endpoint(),
    Target: variantTarget(0),
    Policy: backlogTracking(),
    StepPolicy: stepScaling(),
    BacklogAlarm: backlogAlarm(),
    ...overrides,
  };
}

export function featureGroup(props: Props = {}): Resources[string] {
  return {
    Type: 'AWS::SageMaker::FeatureGroup',
    Properties: {
      FeatureGroupName: 'customers',
      RecordIdentifierFeatureName: 'customer_id',
      EventTimeFeatureName: 'event_time',
      FeatureDefinitions: [{ FeatureName: 'customer_id', FeatureType: 'String' }, { FeatureName: 'event_time', FeatureType: 'String' }],
      OnlineStoreConfig: { EnableOnlineStore: true, SecurityConfig: { KmsKeyId: KEY_ARN } },
      OfflineStoreConfig: { S3StorageConfig: { S3Uri: 's3://features/offline', KmsKeyId: KEY_ARN }, TableFormat: 'Iceberg' },
      RoleArn: ROLE_ARN,
      ...props,
    },
  };
}

export const PIPELINE_PATTERN = { 'source': ['aws.sagemaker'], 'detail-type': ['SageMaker Model Building Pipeline Execution Status Change'] };
export const QUEUE_ARN = 'arn:aws:sqs:us-east-1:123456789012:dlq';
export const FUNCTION_ARN = 'arn:aws:lambda:us-east-1:123456789012:function:router';

export function pipelineRule(target: Props = {}, pattern: Props = PIPELINE_PATTERN): Resources[string] {
  return {
    Type: 'AWS::Events::Rule',
    Properties: { EventPattern: pattern, Targets: [{ Id: 'Router', Arn: FUNCTION_ARN, DeadLetterConfig: { Arn: QUEUE_ARN }, ...target }] },
  };
}

export function sageMakerRole(managedPolicyArns: unknown[]): Resources[string] {
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'sts:AssumeRole', Principal: { Service: 'sagemaker.amazonaws.com' } }] },
      ManagedPolicyArns: managedPolicyArns,
    },
  };
}

export function inferenceComponent(props: Props = {}): Resources[string] {
  return {
    Type: 'AWS::SageMaker::InferenceComponent',
    Properties: {
      EndpointName: getAtt('Endpoint', 'EndpointName'),
      VariantName: 'AllTraffic',
      Specification: { ModelName: getAtt('Model', 'ModelName'), ComputeResourceRequirements: { MinMemoryRequiredInMb: 1024, NumberOfAcceleratorDevicesRequired: 1 } },
      RuntimeConfig: { CopyCount: 1 },
      ...props,
    },
  };
}

export const ROLLBACK_ALARMS = { AutoRollbackConfiguration: { Alarms: [{ AlarmName: { Ref: 'LatencyAlarm' } }] } };
export const CANARY_POLICY = {
  BlueGreenUpdatePolicy: {
    TrafficRoutingConfiguration: { Type: 'CANARY', CanarySize: { Type: 'CAPACITY_PERCENT', Value: 25 }, WaitIntervalInSeconds: 600 },
    TerminationWaitInSeconds: 300,
  },
};

/** A production realtime endpoint (2 instances) with a canary rollout that rolls back on a latency alarm (compliant for SMCP-RO1/RO2). */
export function productionRollout(overrides: Resources = {}): Resources {
  return {
    Model: model(),
    Config: endpointConfig({ InitialInstanceCount: 2 }),
    Endpoint: endpoint({ DeploymentConfig: { ...CANARY_POLICY, ...ROLLBACK_ALARMS } }),
    ...overrides,
  };
}
