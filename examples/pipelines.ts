import { Stack } from 'aws-cdk-lib';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { operationsFor } from './operations';
import { FunctionNetworkOptions } from '../src/core';
import { PipelineDefinition, PipelineEventRouter, PipelineParameterType, TrainingPipeline } from '../src/pipelines';

export interface PipelinesExample {
  readonly pipeline: TrainingPipeline;
  readonly router: PipelineEventRouter;
}

/**
 * A one-step training pipeline (XGBoost on a CSV prefix, parameters InputDataUri and MaxRounds) and the router that
 * records its results for MCP tools (in `routerNetwork`'s VPC when given one). The pipeline grants its role what the
 * Training step needs (create, watch, stop and tag training jobs); the jobs run as the training job role the pipeline
 * creates (read under churn/, write under churn/models/, logs, metrics, pull of the XGBoost image).
 */
export function addPipelinesExample(stack: Stack, routerNetwork: FunctionNetworkOptions = {}): PipelinesExample {
  const role = new iam.Role(stack, 'TrainingPipelineRole', {
    assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com'),
    description: 'Runs the churn training pipeline steps (starts and watches training jobs)',
  });

  const data = s3.Bucket.fromBucketName(stack, 'TrainingData', 'example-training-data');
  // AWS's XGBoost algorithm image (the us-east-1 registry; see the SageMaker docs' "Docker Registry Paths" per region).
  const xgboost = ecr.Repository.fromRepositoryAttributes(stack, 'XgboostImage', {
    repositoryName: 'sagemaker-xgboost',
    repositoryArn: stack.formatArn({ service: 'ecr', account: '683313688378', resource: 'repository', resourceName: 'sagemaker-xgboost' }),
  });

  const definition = PipelineDefinition.fromObject({
    Version: '2020-12-01',
    Parameters: [
      { Name: 'InputDataUri', Type: 'String', DefaultValue: 's3://example-training-data/churn/train/' },
      { Name: 'MaxRounds', Type: 'Integer', DefaultValue: 10 },
    ],
    Steps: [{
      Name: 'TrainModel',
      Type: 'Training',
      Arguments: {
        AlgorithmSpecification: {
          TrainingImage: `683313688378.dkr.ecr.${stack.region}.amazonaws.com/sagemaker-xgboost:1.7-1`,
          TrainingInputMode: 'File',
        },
        // The training jobs' own role (created by the pipeline below), not the pipeline's role.
        RoleArn: TrainingPipeline.TRAINING_JOB_ROLE_ARN,
        OutputDataConfig: { S3OutputPath: 's3://example-training-data/churn/models/' },
        StoppingCondition: { MaxRuntimeInSeconds: 3600 },
        ResourceConfig: { VolumeSizeInGB: 30, InstanceCount: 1, InstanceType: 'ml.m5.xlarge' },
        InputDataConfig: [{
          ChannelName: 'train',
          ContentType: 'text/csv',
          DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: { Get: 'Parameters.InputDataUri' }, S3DataDistributionType: 'FullyReplicated' } },
        }],
        HyperParameters: { objective: 'binary:logistic', num_round: { 'Std:Join': { On: '', Values: [{ Get: 'Parameters.MaxRounds' }] } } },
      },
    }],
  });

  const pipeline = new TrainingPipeline(stack, 'ChurnTrainingPipeline', {
    pipelineName: 'churn-training',
    definition,
    role,
    trainingJobRole: {
      inputs: [{ bucket: data, prefix: 'churn/' }],
      outputs: [{ bucket: data, prefix: 'churn/models/' }],
      imageRepositories: [xgboost],
    },
    parameters: [
      { name: 'InputDataUri', type: PipelineParameterType.STRING },
      { name: 'MaxRounds', type: PipelineParameterType.INTEGER },
    ],
    description: 'Trains the churn classifier on demand (MCP tool start_training)',
  });

  const router = new PipelineEventRouter(stack, 'TrainingResults', {
    pipelines: [pipeline],
    recordStepFailures: true,
    alarmActions: operationsFor(stack).alarmActions,
    logRetention: operationsFor(stack).logRetention,
    ...routerNetwork,
  });
  return { pipeline, router };
}

