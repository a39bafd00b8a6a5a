import { App, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ContainerImage, InstanceType } from '../src/core';
import { ApprovedModelDeployment, ModelPackageGroup, ModelPromotionSource, PromotionStep } from '../src/lifecycle';
import { RealtimeEndpoint } from '../src/realtime';
import { Rollout, RolloutCapacity } from '../src/rollouts';

export const PROMOTION_REGION = 'us-east-1';
export const REGISTRY_ACCOUNT = '111111111111';
export const STAGING_ACCOUNT = '222222222222';
export const PRODUCTION_ACCOUNT = '333333333333';
/** The registry's artifacts key: a literal in the deploying stacks (stacks of other accounts cannot reference it). */
export const ARTIFACTS_KEY_ARN = `arn:aws:kms:${PROMOTION_REGION}:${REGISTRY_ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;

export interface PromotionExample {
  readonly registry: Stack;
  readonly staging: Stack;
  readonly production: Stack;
  readonly source: ModelPromotionSource;
  readonly stagingDeployment: ApprovedModelDeployment;
  readonly productionDeployment: ApprovedModelDeployment;
}

/**
 * Registry → staging → a person's Production stage → production, in three accounts (docs/lifecycle.md, "Promotion
 * across accounts"): the registry's group, artifacts and images shared with both deploying accounts and its events
 * delivered to their buses; staging deploys each approved version; production deploys a version once a person sets its
 * ModelLifeCycle to Production/Approved, and only when staging deployed it. It takes the app, not a stack (three
 * accounts), so test/security/examples-security.test.ts, which builds each `add*Example` in one stack, does not run it;
 * test/lifecycle/model-promotion.test.ts runs cdk-nag and the IAM reference checks on its three stacks.
 */
export function promotionExampleApp(app: App): PromotionExample {
  const registry = new Stack(app, 'ModelRegistry', { env: { account: REGISTRY_ACCOUNT, region: PROMOTION_REGION } });
  const artifactsKey = new kms.Key(registry, 'ArtifactsKey', { enableKeyRotation: true, description: 'Encrypts the churn model artifacts' });
  const artifacts = new s3.Bucket(registry, 'Artifacts', {
    bucketName: `churn-artifacts-${REGISTRY_ACCOUNT}`,
    encryptionKey: artifactsKey,
    enforceSSL: true,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
  });
  Validations.of(artifacts).acknowledge({ id: 'AwsSolutions-S1', reason: 'An example: in an account, log to its access-log bucket (serverAccessLogsBucket).' });
  const images = new ecr.Repository(registry, 'Images', { repositoryName: 'churn-inference', imageScanOnPush: true });
  const group = new ModelPackageGroup(registry, 'Models', { modelPackageGroupName: 'churn' });
  const source = new ModelPromotionSource(registry, 'Promotion', {
    modelPackageGroup: group,
    targetAccounts: [STAGING_ACCOUNT, PRODUCTION_ACCOUNT],
    artifactsBucket: artifacts,
    artifactsKeyPattern: 'churn/*',
    artifactsKey,
    imageRepositories: [images],
  });
  // Whoever signs off production may set the Production stage, and no other.
  const approver = new iam.Role(registry, 'ProductionApprover', { assumedBy: new iam.AccountRootPrincipal(), description: 'Signs off churn versions for production' });
  group.grantApproveStage(approver, 'Production');

  const deploying = (id: string, account: string, step: PromotionStep) => {
    const stack = new Stack(app, id, { env: { account, region: PROMOTION_REGION } });
    const shared = ModelPackageGroup.fromModelPackageGroupArn(stack, 'Models',
      `arn:aws:sagemaker:${PROMOTION_REGION}:${REGISTRY_ACCOUNT}:model-package-group/churn`);
    const deployment = new ApprovedModelDeployment(stack, 'Deploy', {
      modelPackageGroup: shared,
      initialModelPackageArn: `arn:aws:sagemaker:${PROMOTION_REGION}:${REGISTRY_ACCOUNT}:model-package/churn/1`,
      promotionStep: step,
    });
    new RealtimeEndpoint(stack, 'Endpoint', {
      model: deployment.modelSource({
        artifactsBucket: s3.Bucket.fromBucketAttributes(stack, 'Artifacts', {
          bucketName: `churn-artifacts-${REGISTRY_ACCOUNT}`,
          account: REGISTRY_ACCOUNT,
          encryptionKey: kms.Key.fromKeyArn(stack, 'ArtifactsKey', ARTIFACTS_KEY_ARN),
        }),
        artifactsKeyPattern: 'churn/*',
        images: [ContainerImage.fromEcrRepository(ecr.Repository.fromRepositoryArn(stack, 'Images',
          `arn:aws:ecr:${PROMOTION_REGION}:${REGISTRY_ACCOUNT}:repository/churn-inference`), '1.0')],
      }),
      instanceType: InstanceType.of('ml.m5.xlarge'),
      initialInstanceCount: 2,
      alarms: { modelLatencyP99Threshold: Duration.seconds(1), invocation5XXRateThreshold: 1, period: Duration.minutes(1) },
      rollout: Rollout.canary({ size: RolloutCapacity.instances(1), bakingPeriod: Duration.minutes(10) }),
    });
    return { stack, deployment };
  };
  const staging = deploying('ChurnStaging', STAGING_ACCOUNT, PromotionStep.staging());
  const production = deploying('ChurnProduction', PRODUCTION_ACCOUNT, PromotionStep.production({ stage: 'Production', stageStatus: 'Approved' }));
  return {
    registry,
    staging: staging.stack,
    production: production.stack,
    source,
    stagingDeployment: staging.deployment,
    productionDeployment: production.deployment,
  };
}
