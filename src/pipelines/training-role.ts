import { ArnFormat, Stack, Token } from 'aws-cdk-lib';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { IAM_ACTION } from '../private/iam-actions';
import { acknowledgePolicyWildcardFindings, WildcardReason } from '../private/nag';
import { PropValidator } from '../private/validation';

/** An S3 location (bucket and key prefix) a training job reads or writes. */
export interface TrainingDataLocation {
  /** The bucket. */
  readonly bucket: s3.IBucket;
  /**
   * The key prefix, exactly as in the job's S3 URIs after the bucket (no leading `/`), e.g. `churn/train/`. The grant
   * covers every key that starts with it.
   *
   * @default - the whole bucket
   */
  readonly prefix?: string;
}

/** What a training job's execution role may touch. */
export interface TrainingJobRoleProps {
  /**
   * Where the jobs write: `OutputDataConfig.S3OutputPath` (and checkpoints, if any). Granted `s3:PutObject` under each
   * prefix and `s3:ListBucket` on each bucket.
   */
  readonly outputs: TrainingDataLocation[];
  /**
   * What the jobs read: the S3 URIs of the input channels (`InputDataConfig[].DataSource.S3DataSource.S3Uri`). Granted
   * `s3:GetObject` under each prefix and `s3:ListBucket` on each bucket.
   *
   * @default - no input channels
   */
  readonly inputs?: TrainingDataLocation[];
  /**
   * The ECR repositories of the training images (`AlgorithmSpecification.TrainingImage`), in this account or another
   * (e.g. AWS's algorithm images: `Repository.fromRepositoryAttributes` with the regional account's ARN). Granted
   * `ecr:BatchGetImage`, `ecr:GetDownloadUrlForLayer`, `ecr:BatchCheckLayerAvailability` on each, and
   * `ecr:GetAuthorizationToken` (which IAM allows only on `*`).
   *
   * @default - no ECR permissions
   */
  readonly imageRepositories?: ecr.IRepository[];
  /**
   * KMS keys of encrypted inputs, outputs (`OutputDataConfig.KmsKeyId`) and ML storage volumes
   * (`ResourceConfig.VolumeKmsKeyId`): `kms:Decrypt`, `kms:GenerateDataKey`, `kms:Encrypt`, `kms:DescribeKey`, and
   * `kms:CreateGrant` only for AWS resources (`kms:GrantIsForAWSResource`, what an encrypted EBS volume needs).
   *
   * @default - no KMS permissions (SSE-S3 or unencrypted data, AWS-managed volume encryption)
   */
  readonly encryptionKeys?: kms.IKey[];
  /**
   * The role's description.
   *
   * @default 'Runs SageMaker training jobs'
   */
  readonly description?: string;
}

/** The namespace SageMaker training jobs publish their metrics to. */
const TRAINING_METRIC_NAMESPACE = '/aws/sagemaker/TrainingJobs';

const REASONS: ReadonlyArray<WildcardReason> = [
  { action: /^ecr:GetAuthorizationToken$/, reason: 'ecr:GetAuthorizationToken supports no resource-level permissions (https://docs.aws.amazon.com/AmazonECR/latest/userguide/security_iam_id-based-policy-examples.html); image pulls are scoped to the named repositories.' },
  { action: /^cloudwatch:PutMetricData$/, reason: 'cloudwatch:PutMetricData supports no resource-level permissions (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncloudwatch.html); a cloudwatch:namespace condition limits it to /aws/sagemaker/TrainingJobs.' },
  { action: /^logs:/, reason: 'SageMaker writes training logs to the /aws/sagemaker/TrainingJobs log group, one stream per job and instance named at run time (https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-roles.html).' },
  { action: /^s3:GetObject$/, reason: 'Reads keys under the input prefixes the deployer named (TrainingJobRoleProps.inputs); the object keys are the training data.' },
  { action: /^s3:PutObject$/, reason: 'Writes keys under the output prefixes the deployer named (TrainingJobRoleProps.outputs); SageMaker names the objects per job (<job name>/output/model.tar.gz).' },
];

/**
 * The execution role of SageMaker training jobs (CreateTrainingJob `RoleArn`, a pipeline Training step's `RoleArn`):
 * trusted by `sagemaker.amazonaws.com`, with what a job needs and nothing else — S3 read of its inputs and write of its
 * output path, its CloudWatch log group and metrics, pulling its image, and the KMS keys of its data and volumes
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-roles.html, "CreateTrainingJob API: Execution Role
 * Permissions"). Never `AmazonSageMakerFullAccess`.
 */
export class TrainingJobRole extends Construct implements iam.IGrantable {
  /** The role. */
  public readonly role: iam.Role;
  /** The role's ARN: the training step's `RoleArn`. */
  public readonly roleArn: string;
  public readonly grantPrincipal: iam.IPrincipal;

  constructor(scope: Construct, id: string, props: TrainingJobRoleProps) {
    super(scope, id);
    const v = new PropValidator(`TrainingJobRole '${id}'`);
    v.check(props.outputs.length > 0, 'outputs', `${props.outputs.length} locations`, 'at least one S3 location (the output path every training job writes)');
    const locations: Array<[string, TrainingDataLocation[]]> = [['inputs', props.inputs ?? []], ['outputs', props.outputs]];
    for (const [name, list] of locations) {
      list.forEach((l, i) => v.pattern(`${name}[${i}].prefix`, l.prefix, /^[^/].*$/, 'a key prefix without a leading "/" (or none for the whole bucket)', 1024));
    }
    v.throwIfInvalid();

    const stack = Stack.of(this);
    this.role = new iam.Role(this, 'Resource', {
      assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com'),
      description: props.description ?? 'Runs SageMaker training jobs',
    });
    this.roleArn = this.role.roleArn;
    this.grantPrincipal = this.role;

    const objects = (list: TrainingDataLocation[]) => list.map((l) => l.bucket.arnForObjects(`${l.prefix ?? ''}*`));
    if (props.inputs?.length) {
      this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [IAM_ACTION.s3.GetObject], resources: objects(props.inputs) }));
    }
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [IAM_ACTION.s3.PutObject], resources: objects(props.outputs) }));
    const buckets = unique([...(props.inputs ?? []), ...props.outputs].map((l) => l.bucket.bucketArn), stack);
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [IAM_ACTION.s3.ListBucket], resources: buckets }));

    this.role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: [IAM_ACTION.logs.CreateLogGroup, IAM_ACTION.logs.CreateLogStream, IAM_ACTION.logs.PutLogEvents, IAM_ACTION.logs.DescribeLogStreams],
      resources: [stack.formatArn({
        service: 'logs', resource: 'log-group', resourceName: '/aws/sagemaker/TrainingJobs*', arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      })],
    }));
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: [IAM_ACTION.cloudwatch.PutMetricData],
      resources: ['*'],
      conditions: { StringEquals: { 'cloudwatch:namespace': TRAINING_METRIC_NAMESPACE } },
    }));

    const repositories = props.imageRepositories ?? [];
    if (repositories.length > 0) {
      this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [IAM_ACTION.ecr.GetAuthorizationToken], resources: ['*'] }));
      this.role.addToPrincipalPolicy(new iam.PolicyStatement({
        actions: [IAM_ACTION.ecr.BatchGetImage, IAM_ACTION.ecr.GetDownloadUrlForLayer, IAM_ACTION.ecr.BatchCheckLayerAvailability],
        resources: unique(repositories.map((r) => r.repositoryArn), stack),
      }));
    }

    const keys = unique((props.encryptionKeys ?? []).map((k) => k.keyArn), stack);
    if (keys.length > 0) {
      this.role.addToPrincipalPolicy(new iam.PolicyStatement({
        actions: [IAM_ACTION.kms.Decrypt, IAM_ACTION.kms.GenerateDataKey, IAM_ACTION.kms.Encrypt, IAM_ACTION.kms.DescribeKey],
        resources: keys,
      }));
      this.role.addToPrincipalPolicy(new iam.PolicyStatement({
        actions: [IAM_ACTION.kms.CreateGrant],
        resources: keys,
        conditions: { Bool: { 'kms:GrantIsForAWSResource': 'true' } },
      }));
    }

    acknowledgePolicyWildcardFindings(this.role,
      () => this.role.node.tryFindChild('DefaultPolicy')?.node.tryFindChild('Resource') as iam.CfnPolicy | undefined,
      REASONS);
  }

  /**
   * Grants `iam:PassRole` on this role, only to SageMaker (`iam:PassedToService` `sagemaker.amazonaws.com`): what the
   * principal that starts training jobs (a pipeline's role) needs to name it as their `RoleArn`.
   */
  public grantPassRole(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: [IAM_ACTION.iam.PassRole],
      resourceArns: [this.roleArn],
      conditions: { StringEquals: { 'iam:PassedToService': 'sagemaker.amazonaws.com' } },
    });
  }
}

/** Distinct values, comparing tokens by their resolved form. */
function unique(values: string[], stack: Stack): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = Token.isUnresolved(value) ? JSON.stringify(stack.resolve(value)) : value;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
