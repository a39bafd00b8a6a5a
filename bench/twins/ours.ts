/**
 * Our twin: N autoscaled endpoints with RealtimeEndpoint, on the input of the twin it is measured against: by URI, the
 * uncompressed prefix the raw twin names; through a bucket imported by name, the `model.tar.gz` the alpha twin reads
 * (the alpha takes compressed artifacts only).
 */
import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ENV, REPO, STACK_NAME, TAG } from './common';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../../src/core';
import { RealtimeEndpoint } from '../../src/realtime';

/** Synthesizes N endpoints and returns the stack's template. */
export function synthOurs(n: number, artifacts: 'uri' | 'bucket' = 'uri'): unknown {
  const app = new App();
  const stack = new Stack(app, STACK_NAME, { env: ENV });
  const bucket = artifacts === 'bucket' ? s3.Bucket.fromBucketName(stack, 'Artifacts', 'model-artifacts') : undefined;
  for (let i = 0; i < n; i++) {
    new RealtimeEndpoint(stack, `Endpoint${i}`, {
      endpointName: `chat-${i}`,
      model: ModelSource.fromContainer(ContainerImage.fromDlc(REPO, TAG), {
        modelData: bucket
          ? ModelData.fromBucket(bucket, `model-${i}/model.tar.gz`)
          : ModelData.fromS3Uri(`s3://model-artifacts/model-${i}/`),
      }),
      instanceType: InstanceType.ML_G5_2XLARGE,
      autoScaling: {},
    });
  }
  return app.synth().getStackByName(STACK_NAME).template;
}
