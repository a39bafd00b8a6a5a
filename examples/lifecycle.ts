import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { operationsFor } from './operations';
import { ContainerImage, InstanceType } from '../src/core';
import { ApprovedModelDeployment, ModelPackageGroup } from '../src/lifecycle';
import { PipelineDefinition, TrainingPipeline } from '../src/pipelines';
import { RealtimeEndpoint } from '../src/realtime';
import { Rollout, RolloutCapacity } from '../src/rollouts';

export interface LifecycleExample {
  readonly group: ModelPackageGroup;
  readonly pipeline: TrainingPipeline;
  readonly deployment: ApprovedModelDeployment;
  readonly endpoint: RealtimeEndpoint;
}

/**
 * Train → register → approve → canary: a pipeline that trains XGBoost and registers each model as a version of the
 * `churn` group (pending manual approval); approving a version updates this stack's `ApprovedModelPackageArn`
 * parameter, and the endpoint's canary rollout (one instance, 10 minutes of baking, rolled back on its latency and 5xx
 * alarms) deploys it. See docs/lifecycle.md.
 */
export function addLifecycleExample(stack: Stack): LifecycleExample {
  const data = s3.Bucket.fromBucketName(stack, 'LifecycleData', 'example-training-data');
  const group = new ModelPackageGroup(stack, 'ChurnModels', {
    modelPackageGroupName: 'churn',
    description: 'Churn classifiers registered by the churn-lifecycle pipeline',
  });

  const role = new iam.Role(stack, 'LifecyclePipelineRole', {
    assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com'),
    description: 'Runs the churn lifecycle pipeline steps (training, model registration)',
  });
  const image = `683313688378.dkr.ecr.${stack.region}.amazonaws.com/sagemaker-xgboost:1.7-1`;
  const definition = PipelineDefinition.fromObject({
    Version: '2020-12-01',
    Parameters: [{ Name: 'InputDataUri', Type: 'String', DefaultValue: 's3://example-training-data/churn/train/' }],
    Steps: [
      {
        Name: 'TrainModel',
        Type: 'Training',
        Arguments: {
          AlgorithmSpecification: { TrainingImage: image, TrainingInputMode: 'File' },
          RoleArn: TrainingPipeline.TRAINING_JOB_ROLE_ARN,
          OutputDataConfig: { S3OutputPath: 's3://example-training-data/churn/models/' },
          StoppingCondition: { MaxRuntimeInSeconds: 3600 },
          ResourceConfig: { VolumeSizeInGB: 30, InstanceCount: 1, InstanceType: 'ml.m5.xlarge' },
          InputDataConfig: [{
            ChannelName: 'train',
            ContentType: 'text/csv',
            DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: { Get: 'Parameters.InputDataUri' }, S3DataDistributionType: 'FullyReplicated' } },
          }],
          HyperParameters: { objective: 'binary:logistic', num_round: '50' },
        },
      },
      {
        Name: 'RegisterModel',
        Type: 'RegisterModel',
        Arguments: {
          ModelPackageGroupName: TrainingPipeline.MODEL_PACKAGE_GROUP_NAME,
          ModelApprovalStatus: 'PendingManualApproval',
          InferenceSpecification: {
            Containers: [{ Image: image, ModelDataUrl: { Get: 'Steps.TrainModel.ModelArtifacts.S3ModelArtifacts' } }],
            SupportedContentTypes: ['text/csv'],
            SupportedResponseMIMETypes: ['text/csv'],
          },
        },
      },
    ],
  });
  const pipeline = new TrainingPipeline(stack, 'ChurnLifecyclePipeline', {
    pipelineName: 'churn-lifecycle',
    definition,
    role,
    modelPackageGroup: group,
    trainingJobRole: {
      inputs: [{ bucket: data, prefix: 'churn/' }],
      outputs: [{ bucket: data, prefix: 'churn/models/' }],
    },
    description: 'Trains the churn classifier and registers it for approval',
  });

  const ops = operationsFor(stack);
  const deployment = new ApprovedModelDeployment(stack, 'ChurnDeployment', {
    modelPackageGroup: group,
    // A literal (the parameter's default): this stack's account and region must be literals.
    initialModelPackageArn: `arn:aws:sagemaker:${stack.region}:${stack.account}:model-package/churn/1`,
    alarmActions: ops.alarmActions,
    logRetention: ops.logRetention,
  });
  const endpoint = new RealtimeEndpoint(stack, 'ChurnEndpoint', {
    endpointName: 'churn',
    model: deployment.modelSource({
      artifactsBucket: data,
      artifactsKeyPattern: 'churn/models/*',
      images: [ContainerImage.xgboost('1.7-1')],
    }),
    instanceType: InstanceType.of('ml.m5.xlarge'),
    initialInstanceCount: 2,
    alarms: {
      modelLatencyP99Threshold: Duration.seconds(1),
      invocation5XXRateThreshold: 1,
      period: Duration.minutes(1),
    },
    alarmActions: ops.alarmActions,
    rollout: Rollout.canary({ size: RolloutCapacity.instances(1), bakingPeriod: Duration.minutes(10), maximumExecutionTime: Duration.hours(1) }),
  });
  return { group, pipeline, deployment, endpoint };
}
