/**
 * The peer twin: the same N autoscaled endpoints written with `@aws-cdk/aws-sagemaker-alpha` (Model, EndpointConfig,
 * Endpoint, then `autoScaleInstanceCount(...).scaleOnInvocations(...)` on the variant), the nearest construct library.
 */
import * as sagemaker from '@aws-cdk/aws-sagemaker-alpha';
import { App, Duration, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ENV, REPO, STACK_NAME, TAG } from './common';

/** Synthesizes N endpoints and returns the stack's template. */
export function synthAlpha(n: number): unknown {
  const app = new App();
  const stack = new Stack(app, STACK_NAME, { env: ENV });
  const bucket = s3.Bucket.fromBucketName(stack, 'Artifacts', 'model-artifacts');
  for (let i = 0; i < n; i++) {
    const model = new sagemaker.Model(stack, `Model${i}`, {
      containers: [{
        image: sagemaker.ContainerImage.fromDlc(REPO, TAG),
        modelData: sagemaker.ModelData.fromBucket(bucket, `model-${i}/model.tar.gz`),
      }],
    });
    const config = new sagemaker.EndpointConfig(stack, `Config${i}`, {
      instanceProductionVariants: [{ variantName: 'AllTraffic', model, instanceType: sagemaker.InstanceType.G5_2XLARGE }],
    });
    const endpoint = new sagemaker.Endpoint(stack, `Endpoint${i}`, { endpointName: `chat-${i}`, endpointConfig: config });
    endpoint.findInstanceProductionVariant('AllTraffic')
      .autoScaleInstanceCount({ minCapacity: 1, maxCapacity: 8 })
      // target = maxRequestsPerSecond x 60 x safetyFactor: 70 invocations per instance per minute, as the other twins
      .scaleOnInvocations('Invocations', {
        maxRequestsPerSecond: 70 / 60,
        safetyFactor: 1,
        scaleOutCooldown: Duration.seconds(60),
        scaleInCooldown: Duration.seconds(300),
      });
  }
  return app.synth().getStackByName(STACK_NAME).template;
}
