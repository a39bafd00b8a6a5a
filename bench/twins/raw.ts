/**
 * The baseline twin: the same N autoscaled endpoints written by hand with L1s, rendering what RealtimeEndpoint renders
 * (test/bench/twins.test.ts holds the two templates equal but for logical ids).
 */
import { App, Stack } from 'aws-cdk-lib';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { ENV, REPO, STACK_NAME, TAG } from './common';

/** Synthesizes N endpoints and returns the stack's template. */
export function synthRaw(n: number): unknown {
  const app = new App();
  const stack = new Stack(app, STACK_NAME, { env: ENV });
  for (let i = 0; i < n; i++) {
    const role = new iam.CfnRole(stack, `Role${i}`, {
      assumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' }],
      },
      description: `Runs the models of SageMaker endpoint ${STACK_NAME}/Endpoint${i}`,
      // Inline, as RealtimeEndpoint renders its model role's permissions (one policy document, `ModelAccess`).
      policies: [{
        policyName: 'ModelAccess',
        policyDocument: {
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams'], Resource: `arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:/aws/sagemaker/*` },
            { Effect: 'Allow', Action: 'cloudwatch:PutMetricData', Resource: '*', Condition: { StringLike: { 'cloudwatch:namespace': ['/aws/sagemaker/*', 'AWS/SageMaker'] } } },
            { Effect: 'Allow', Action: ['ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer'], Resource: `arn:${stack.partition}:ecr:${stack.region}:763104351884:repository/${REPO}` },
            { Effect: 'Allow', Action: 'ecr:GetAuthorizationToken', Resource: '*' },
            { Effect: 'Allow', Action: ['s3:GetObject*', 's3:GetBucket*', 's3:List*'], Resource: [`arn:${stack.partition}:s3:::model-artifacts`, `arn:${stack.partition}:s3:::model-artifacts/model-${i}/*`] },
          ],
        },
      }],
    });
    const model = new sagemaker.CfnModel(stack, `Model${i}`, {
      executionRoleArn: role.attrArn,
      primaryContainer: {
        image: `763104351884.dkr.ecr.us-east-1.amazonaws.com/${REPO}:${TAG}`,
        modelDataSource: { s3DataSource: { s3Uri: `s3://model-artifacts/model-${i}/`, s3DataType: 'S3Prefix', compressionType: 'None' } },
      },
    });
    model.addResourceDependency(role);
    const config = new sagemaker.CfnEndpointConfig(stack, `Config${i}`, {
      productionVariants: [{ variantName: 'AllTraffic', modelName: model.attrModelName, instanceType: 'ml.g5.2xlarge', initialInstanceCount: 1, initialVariantWeight: 1 }],
    });
    // An autoscaled endpoint keeps the instance counts Application Auto Scaling set when it is updated.
    const endpoint = new sagemaker.CfnEndpoint(stack, `Endpoint${i}`, {
      endpointName: `chat-${i}`,
      endpointConfigName: config.attrEndpointConfigName,
      retainAllVariantProperties: true,
      excludeRetainedVariantProperties: [{ variantPropertyType: 'DesiredWeight' }],
    });
    endpoint.addResourceDependency(role);
    const target = new appscaling.CfnScalableTarget(stack, `Target${i}`, {
      serviceNamespace: 'sagemaker',
      resourceId: `endpoint/chat-${i}/variant/AllTraffic`,
      scalableDimension: 'sagemaker:variant:DesiredInstanceCount',
      minCapacity: 1,
      maxCapacity: 8,
    });
    target.addResourceDependency(endpoint);
    new appscaling.CfnScalingPolicy(stack, `Scaling${i}`, {
      policyName: 'AllTraffic-invocations-per-instance',
      policyType: 'TargetTrackingScaling',
      scalingTargetId: target.ref,
      targetTrackingScalingPolicyConfiguration: {
        targetValue: 70,
        scaleOutCooldown: 60,
        scaleInCooldown: 300,
        predefinedMetricSpecification: { predefinedMetricType: 'SageMakerVariantInvocationsPerInstance' },
      },
    });
  }
  return app.synth().getStackByName(STACK_NAME).template;
}
