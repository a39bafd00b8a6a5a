/**
 * The baseline twin: the same N autoscaled endpoints written by hand with L1s, rendering what RealtimeEndpoint renders
 * (test/bench/twins.test.ts holds the two templates equal but for logical ids).
 *
 * With `role: 'l2'` the model role alone is an L2 `iam.Role` (the same DefaultPolicy): what that one L2 costs, since
 * RealtimeEndpoint and `@aws-cdk/aws-sagemaker-alpha` both create an `iam.Role`, the part of their cost that is
 * aws-cdk-lib's and not theirs.
 */
import { App, CfnResource, Stack } from 'aws-cdk-lib';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { ENV, REPO, STACK_NAME, TAG } from './common';

/** Synthesizes N endpoints and returns the stack's template. */
export function synthRaw(n: number, role: 'l1' | 'l2' = 'l1'): unknown {
  const app = new App();
  const stack = new Stack(app, STACK_NAME, { env: ENV });
  for (let i = 0; i < n; i++) {
    const modelRole = (role === 'l1' ? cfnModelRole : l2ModelRole)(stack, i);
    const model = new sagemaker.CfnModel(stack, `Model${i}`, {
      executionRoleArn: modelRole.arn,
      primaryContainer: {
        image: `763104351884.dkr.ecr.us-east-1.amazonaws.com/${REPO}:${TAG}`,
        modelDataSource: { s3DataSource: { s3Uri: `s3://model-artifacts/model-${i}/`, s3DataType: 'S3Prefix', compressionType: 'None' } },
      },
    });
    for (const r of modelRole.resources) model.addResourceDependency(r);
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
    for (const r of modelRole.resources) endpoint.addResourceDependency(r);
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

/** The model role's permissions (its DefaultPolicy's document, as RealtimeEndpoint renders it). */
function modelAccess(stack: Stack, i: number) {
  return {
    Version: '2012-10-17',
    Statement: [
      { Effect: 'Allow', Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams'], Resource: `arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:/aws/sagemaker/*` },
      { Effect: 'Allow', Action: 'cloudwatch:PutMetricData', Resource: '*', Condition: { StringLike: { 'cloudwatch:namespace': ['/aws/sagemaker/*', 'AWS/SageMaker'] } } },
      { Effect: 'Allow', Action: ['ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer'], Resource: `arn:${stack.partition}:ecr:${stack.region}:763104351884:repository/${REPO}` },
      { Effect: 'Allow', Action: 'ecr:GetAuthorizationToken', Resource: '*' },
      { Effect: 'Allow', Action: ['s3:GetObject*', 's3:GetBucket*', 's3:List*'], Resource: [`arn:${stack.partition}:s3:::model-artifacts`, `arn:${stack.partition}:s3:::model-artifacts/model-${i}/*`] },
    ],
  };
}

const roleDescription = (i: number) => `Runs the models of SageMaker endpoint ${STACK_NAME}/Endpoint${i}`;

interface ModelRole { readonly arn: string; readonly resources: CfnResource[] }

function cfnModelRole(stack: Stack, i: number): ModelRole {
  const role = new iam.CfnRole(stack, `Role${i}`, {
    assumeRolePolicyDocument: {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    },
    description: roleDescription(i),
  });
  const policy = new iam.CfnPolicy(stack, `RolePolicy${i}`, { policyName: 'unset', policyDocument: modelAccess(stack, i), roles: [role.ref] });
  // aws-cdk-lib names a DefaultPolicy after its own logical id.
  policy.policyName = policy.logicalId;
  return { arn: role.attrArn, resources: [role, policy] };
}

function l2ModelRole(stack: Stack, i: number): ModelRole {
  const role = new iam.Role(stack, `Role${i}`, {
    assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com'),
    description: roleDescription(i),
  });
  for (const statement of modelAccess(stack, i).Statement) role.addToPrincipalPolicy(iam.PolicyStatement.fromJson(statement));
  const policy = role.node.findChild('DefaultPolicy').node.defaultChild as iam.CfnPolicy;
  return { arn: role.roleArn, resources: [role.node.defaultChild as iam.CfnRole, policy] };
}
