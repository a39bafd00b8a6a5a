import { Size, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ContainerImage, ModelData, ModelSource } from '../src/core';
import { ServerlessEndpoint } from '../src/serverless';

/**
 * A small tabular model for MCP tools that are called a few times an hour: scikit-learn on Serverless Inference, 2 GB
 * per execution, up to 10 at once, one execution kept warm and autoscaled to 4 on provisioned-concurrency use.
 */
export function addServerlessExample(stack: Stack): ServerlessEndpoint {
  const artifacts = s3.Bucket.fromBucketName(stack, 'ScoringArtifacts', `mcp-model-artifacts-${stack.account}`);
  return new ServerlessEndpoint(stack, 'LeadScoring', {
    model: ModelSource.fromContainer(ContainerImage.sklearn('1.2-1'), {
      modelData: ModelData.fromBucket(artifacts, 'lead-scoring/model.tar.gz'),
    }),
    memorySize: Size.gibibytes(2),
    maxConcurrency: 10,
    provisionedConcurrency: 1,
    autoScaling: { maxCapacity: 4 },
  });
}
