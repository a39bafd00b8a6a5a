/** Our twin: N autoscaled endpoints with RealtimeEndpoint. */
import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ENV, REPO, TAG } from './common';
import { ContainerImage, InstanceType, ModelData, ModelSource } from '../../src/core';
import { RealtimeEndpoint } from '../../src/realtime';

export function synthOurs(n: number): void {
  const app = new App();
  const stack = new Stack(app, 'Ours', { env: ENV });
  const bucket = s3.Bucket.fromBucketName(stack, 'Artifacts', 'model-artifacts');
  for (let i = 0; i < n; i++) {
    new RealtimeEndpoint(stack, `Endpoint${i}`, {
      endpointName: `chat-${i}`,
      model: ModelSource.fromContainer(ContainerImage.fromDlc(REPO, TAG), { modelData: ModelData.fromBucket(bucket, `model-${i}/`) }),
      instanceType: InstanceType.ML_G5_2XLARGE,
      autoScaling: {},
    });
  }
  app.synth();
}
