import { Annotations, Arn, ArnFormat, IResource, Names, Resource, Stack, Tags, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { PipelineDefinition, PipelineParameter } from './pipeline-definition';
import { TrainingJobRole, TrainingJobRoleProps } from './training-role';
import { IModelPackageGroup } from '../lifecycle/model-package-group';
import { IAM_ACTION } from '../private/iam-actions';
import { acknowledgeGrantWildcards } from '../private/nag';
import { PropValidator } from '../private/validation';

/** A SageMaker pipeline that MCP tools may start and watch. */
export interface ITrainingPipeline extends IResource {
  /** The pipeline name. @attribute */
  readonly pipelineName: string;
  /** The pipeline ARN (`arn:<partition>:sagemaker:<region>:<account>:pipeline/<name>`). @attribute */
  readonly pipelineArn: string;
  /**
   * The parameters callers (MCP tools) may set per execution.
   *
   * @default - unknown for an imported pipeline
   */
  readonly parameters?: PipelineParameter[];

  /** Grants `sagemaker:StartPipelineExecution` on this pipeline. */
  grantStartExecution(grantee: iam.IGrantable): iam.Grant;

  /**
   * Grants `sagemaker:DescribePipelineExecution` and `sagemaker:ListPipelineExecutionSteps` on this pipeline's
   * executions (`pipeline/<name>/execution/*`).
   */
  grantReadExecutions(grantee: iam.IGrantable): iam.Grant;

  /**
   * A SageMaker Pipelines metric of this pipeline: namespace `AWS/Sagemaker/ModelBuildingPipeline`, dimension
   * `PipelineName`.
   * @default - Sum over 5 minutes
   */
  metric(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric;

  /**
   * Failed executions (`ExecutionFailed`).
   * @default - Sum over 5 minutes
   */
  metricExecutionFailed(props?: cloudwatch.MetricOptions): cloudwatch.Metric;
}

abstract class TrainingPipelineBase extends Resource implements ITrainingPipeline {
  public abstract readonly pipelineName: string;
  public abstract readonly pipelineArn: string;

  public grantStartExecution(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({ grantee, actions: [IAM_ACTION.sagemaker.StartPipelineExecution], resourceArns: this.arnVariants() });
  }

  public grantReadExecutions(grantee: iam.IGrantable): iam.Grant {
    return acknowledgeGrantWildcards(this, iam.Grant.addToPrincipal({
      grantee,
      actions: [IAM_ACTION.sagemaker.DescribePipelineExecution, IAM_ACTION.sagemaker.ListPipelineExecutionSteps],
      resourceArns: this.arnVariants().map((arn) => `${arn}/execution/*`),
    }), 'Reads executions of this pipeline only (pipeline/<name>/execution/*): execution ids are generated per run (ITrainingPipeline.grantReadExecutions).');
  }

  public metric(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: 'AWS/Sagemaker/ModelBuildingPipeline',
      metricName,
      dimensionsMap: { PipelineName: this.pipelineName },
      statistic: 'Sum',
      ...props,
    }).attachTo(this);
  }

  public metricExecutionFailed(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric('ExecutionFailed', props);
  }

  /**
   * The ARN as named and, when the name has capitals, lowercased too: SageMaker lowercases some ARNs (endpoints) and
   * whether it does so for pipelines is not documented, so grants cover both spellings.
   */
  private arnVariants(): string[] {
    if (Token.isUnresolved(this.pipelineName) || !/:pipeline\/[^/]+$/.test(this.pipelineArn)) return [this.pipelineArn];
    const lower = this.pipelineArn.replace(/:pipeline\/(.*)$/, (_m, name: string) => `:pipeline/${name.toLowerCase()}`);
    return lower === this.pipelineArn ? [this.pipelineArn] : [this.pipelineArn, lower];
  }
}

/** Props for `TrainingPipeline`. */
export interface TrainingPipelineProps {
  /** The pipeline definition (the JSON the SageMaker Python SDK's `pipeline.definition()` writes). */
  readonly definition: PipelineDefinition;

  /**
   * The role SageMaker assumes to run the pipeline's steps. When the definition has a Training step, the pipeline grants
   * it `sagemaker:CreateTrainingJob`, `DescribeTrainingJob`, `StopTrainingJob` and `AddTags` on `training-job/*` of
   * this account and region (Pipelines names the jobs per run); with a training job role, `iam:PassRole` on that role;
   * with a model package group, registering in it. Give it what other steps need. It is not the role training jobs
   * run as: that is each Training step's `RoleArn` (see the training job role).
   */
  readonly role: iam.IRole;

  /**
   * Create the execution role of the pipeline's training jobs (`TrainingJobRole`: S3 read of the inputs and write of
   * the output path, logs, metrics, image pull, KMS) and let `role` pass it to SageMaker. Reference it in the definition
   * with `TrainingPipeline.TRAINING_JOB_ROLE_ARN` as a Training step's `RoleArn`: it is replaced by the role's ARN (the
   * definition is then deployed inline, so it must stay under 100 KiB).
   *
   * @default - none: each Training step's `RoleArn` names a role you manage (and `role` must be allowed to pass it)
   */
  readonly trainingJobRole?: TrainingJobRoleProps;

  /**
   * Pipeline name: `^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,255}`.
   * @default - a lowercase name generated from the construct path
   */
  readonly pipelineName?: string;

  /**
   * Display name shown in SageMaker Studio (same pattern as the name).
   * @default - none (Studio shows the name)
   */
  readonly displayName?: string;

  /**
   * Pipeline description; the definition version is appended (`[definition <version>]`). At most 3072 characters in all.
   * @default - "Deployed by cdk-sagemaker-mcp" and the definition version
   */
  readonly description?: string;

  /**
   * The parameters callers (MCP tools) may set per execution. Each must be declared in the definition's `Parameters`
   * with the same type.
   * @default - every parameter the definition declares
   */
  readonly parameters?: PipelineParameter[];

  /**
   * The model package group the definition's RegisterModel steps write to: the role may register versions in it
   * (the group's register grant), and `TrainingPipeline.MODEL_PACKAGE_GROUP_NAME` written as a step's `ModelPackageGroupName` is
   * replaced by its name. A RegisterModel step naming another group literally is an error.
   *
   * @default - none: RegisterModel steps name a group you manage (and `role` must be allowed to register in it)
   */
  readonly modelPackageGroup?: IModelPackageGroup;

  /**
   * Maximum number of steps that run in parallel in one execution (>= 1).
   * @default - SageMaker's default (no pipeline-level limit)
   */
  readonly maxParallelExecutionSteps?: number;
}

const PIPELINE_NAME = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,255}$/;
const PIPELINE_NAME_EXPECTED = '1-256 letters, digits or hyphens, starting and ending with a letter or digit';
const MAX_DESCRIPTION = 3072;
const PIPELINE_ARN = /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:pipeline\/[a-zA-Z0-9](-*[a-zA-Z0-9]){0,255}$/;
const PIPELINE_ARN_EXPECTED = 'arn:<partition>:sagemaker:<region>:<account>:pipeline/<name>';
const VERSION_TAG = 'cdk-sagemaker-mcp:definition-version';

/**
 * A SageMaker pipeline (`AWS::SageMaker::Pipeline`) whose definition is pinned by the stack: changing the definition
 * changes the definition version (a content hash, written into the description and the `cdk-sagemaker-mcp:definition-version`
 * tag) and updates the pipeline on deploy. Nothing upserts the definition at runtime.
 */
export class TrainingPipeline extends TrainingPipelineBase {
  /**
   * Write this string as a Training step's `RoleArn` (in a definition object, JSON string or file): the pipeline
   * replaces it with the ARN of the role it creates from the training job role options.
   */
  public static readonly TRAINING_JOB_ROLE_ARN = '{{cdk-sagemaker-mcp:training-job-role-arn}}';

  /**
   * Write this string as a RegisterModel step's `ModelPackageGroupName`: the pipeline replaces it with the name of its
   * model package group.
   */
  public static readonly MODEL_PACKAGE_GROUP_NAME = '{{cdk-sagemaker-mcp:model-package-group-name}}';

  /** Imports an existing pipeline by name (in this stack's account and region). */
  public static fromPipelineName(scope: Construct, id: string, pipelineName: string): ITrainingPipeline {
    const arn = Stack.of(scope).formatArn({ service: 'sagemaker', resource: 'pipeline', resourceName: pipelineName });
    return new ImportedTrainingPipeline(scope, id, pipelineName, arn);
  }

  /** Imports an existing pipeline by ARN (`arn:<partition>:sagemaker:<region>:<account>:pipeline/<name>`). */
  public static fromPipelineArn(scope: Construct, id: string, pipelineArn: string): ITrainingPipeline {
    // Checked before Arn.split, whose own error names neither the prop nor the expected form.
    const v = new PropValidator(`TrainingPipeline.fromPipelineArn '${id}'`);
    v.pattern('pipelineArn', pipelineArn, PIPELINE_ARN, PIPELINE_ARN_EXPECTED);
    v.throwIfInvalid();
    const name = Arn.split(pipelineArn, ArnFormat.SLASH_RESOURCE_NAME).resourceName!;
    return new ImportedTrainingPipeline(scope, id, name, pipelineArn);
  }

  public readonly pipelineName: string;
  public readonly pipelineArn: string;
  /** Content hash (16 hex characters) of the deployed definition; changes exactly when the definition changes. */
  public readonly definitionVersion: string;
  /**
   * The parameters callers may set (the declared ones, or all the definition's).
   *
   * @default - always set for a created pipeline (optional only because imported pipelines do not know theirs)
   */
  public readonly parameters?: PipelineParameter[];
  /** The role SageMaker runs the pipeline as. */
  public readonly role: iam.IRole;
  /** The AWS::SageMaker::Pipeline. */
  public readonly cfnPipeline: sagemaker.CfnPipeline;
  /**
   * The execution role of the training jobs, created from the training job role options; the pipeline's role may pass it
   * to SageMaker.
   *
   * @default - none unless a training job role is set
   */
  public readonly trainingJobRole?: TrainingJobRole;

  constructor(scope: Construct, id: string, props: TrainingPipelineProps) {
    super(scope, id);
    const name = props.pipelineName
      ?? Names.uniqueResourceName(this, { maxLength: 80, separator: '-', allowedSpecialCharacters: '-' }).toLowerCase();

    const v = new PropValidator(`TrainingPipeline '${id}'`);
    v.pattern('pipelineName', props.pipelineName, PIPELINE_NAME, PIPELINE_NAME_EXPECTED, 256);
    v.pattern('displayName', props.displayName, PIPELINE_NAME, PIPELINE_NAME_EXPECTED, 256);
    v.atLeast('maxParallelExecutionSteps', props.maxParallelExecutionSteps, 1);

    const declared = new Map(props.definition.parameters.map((p) => [p.name, p]));
    for (const p of props.parameters ?? []) {
      const inDefinition = declared.get(p.name);
      if (!inDefinition) {
        v.check(false, `parameters[${p.name}]`, p.name, `a parameter the definition declares (${[...declared.keys()].join(', ') || 'it declares none'})`);
      } else {
        v.check(inDefinition.type === p.type, `parameters[${p.name}].type`, p.type, `${inDefinition.type}, the type the definition declares`);
      }
    }
    // The quality gate: a JsonGet that cannot resolve fails the Condition step at run time, after training was paid for.
    for (const problem of props.definition._jsonGets().problems) v.add(`definition: ${problem}`);
    const usesPlaceholder = props.definition._contains(TrainingPipeline.TRAINING_JOB_ROLE_ARN);
    v.check(!usesPlaceholder || props.trainingJobRole !== undefined, 'trainingJobRole', undefined,
      `the training job role's permissions: the definition names TrainingPipeline.TRAINING_JOB_ROLE_ARN (${TrainingPipeline.TRAINING_JOB_ROLE_ARN})`);
    if (props.trainingJobRole) {
      this.trainingJobRole = new TrainingJobRole(this, 'TrainingJobRole', {
        description: `Runs the training jobs of SageMaker pipeline ${this.node.path}`,
        ...props.trainingJobRole,
      });
      this.trainingJobRole.grantPassRole(props.role);
      if (!usesPlaceholder) {
        Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:trainingJobRoleUnused',
          `trainingJobRole: created, but no step of the definition names it; write TrainingPipeline.TRAINING_JOB_ROLE_ARN (${TrainingPipeline.TRAINING_JOB_ROLE_ARN}) as the Training steps' RoleArn`);
      }
    }
    this.warnOnPipelineRoleAsJobRole(props);
    if (props.definition._stepRoleArns('Training').length > 0) this.grantTrainingSteps(props.role);
    const group = props.modelPackageGroup;
    const usesGroupPlaceholder = props.definition._contains(TrainingPipeline.MODEL_PACKAGE_GROUP_NAME);
    v.check(!usesGroupPlaceholder || group !== undefined, 'modelPackageGroup', undefined,
      `the group RegisterModel steps write to: the definition names TrainingPipeline.MODEL_PACKAGE_GROUP_NAME (${TrainingPipeline.MODEL_PACKAGE_GROUP_NAME})`);
    if (group && !Token.isUnresolved(group.modelPackageGroupName)) {
      for (const named of props.definition._stepArguments('RegisterModel', 'ModelPackageGroupName')) {
        const ok = named === TrainingPipeline.MODEL_PACKAGE_GROUP_NAME || typeof named !== 'string' || Token.isUnresolved(named) || named === group.modelPackageGroupName;
        v.check(ok, 'definition', `a RegisterModel step writing to group '${String(named)}'`,
          `the modelPackageGroup '${group.modelPackageGroupName}' (or TrainingPipeline.MODEL_PACKAGE_GROUP_NAME)`);
      }
      group.grantRegister(props.role);
    }
    const substitutions: Record<string, string> = {
      ...(this.trainingJobRole ? { [TrainingPipeline.TRAINING_JOB_ROLE_ARN]: this.trainingJobRole.roleArn } : {}),
      ...(group ? { [TrainingPipeline.MODEL_PACKAGE_GROUP_NAME]: group.modelPackageGroupName } : {}),
    };
    const { pipelineDefinition, version } = props.definition._bind(this, props.role, substitutions);
    const baseDescription = props.description ?? 'Deployed by cdk-sagemaker-mcp';
    const description = `${baseDescription} [definition ${version}]`;
    if (!Token.isUnresolved(baseDescription)) {
      v.check(description.length <= MAX_DESCRIPTION, 'description', `${baseDescription.length} characters`, `at most ${MAX_DESCRIPTION - ` [definition ${version}]`.length} characters (the definition version is appended; the API allows ${MAX_DESCRIPTION})`);
    }
    v.throwIfInvalid();

    this.role = props.role;
    this.definitionVersion = version;
    this.parameters = props.parameters ?? props.definition.parameters;
    this.cfnPipeline = new sagemaker.CfnPipeline(this, 'Resource', {
      pipelineName: name,
      pipelineDisplayName: props.displayName,
      pipelineDescription: description,
      pipelineDefinition,
      roleArn: props.role.roleArn,
      parallelismConfiguration: props.maxParallelExecutionSteps !== undefined
        ? { MaxParallelExecutionSteps: props.maxParallelExecutionSteps }
        : undefined,
    });
    Tags.of(this.cfnPipeline).add(VERSION_TAG, version);
    // Create/Update validate the role can be passed and assumed: make sure its policy exists first.
    this.cfnPipeline.node.addDependency(props.role);
    if (this.trainingJobRole) this.cfnPipeline.node.addDependency(this.trainingJobRole);

    // The literal name (not a Ref) so event patterns and grants need no dependency on the pipeline.
    this.pipelineName = name;
    this.pipelineArn = Stack.of(this).formatArn({ service: 'sagemaker', resource: 'pipeline', resourceName: name });
  }

  /**
   * What the pipeline's role needs to run a Training step: create, watch and stop the job, and tag it (Pipelines tags
   * each job it starts, and a create that tags needs `sagemaker:AddTags` on the new job too). Training jobs are named
   * per run by SageMaker Pipelines, so the grant is on `training-job/*` of this account and region.
   */
  private grantTrainingSteps(role: iam.IRole): void {
    const jobs = Stack.of(this).formatArn({ service: 'sagemaker', resource: 'training-job', resourceName: '*' });
    const grant = iam.Grant.addToPrincipal({
      grantee: role,
      actions: [
        IAM_ACTION.sagemaker.CreateTrainingJob, IAM_ACTION.sagemaker.DescribeTrainingJob,
        IAM_ACTION.sagemaker.StopTrainingJob, IAM_ACTION.sagemaker.AddTags,
      ],
      resourceArns: [jobs],
    });
    acknowledgeGrantWildcards(this, grant, 'SageMaker Pipelines names each training job it starts (pipelines-<execution id>-<step>-<suffix>): '
      + 'the names are not known at deploy time, so the policy covers training-job/* in this account and region only.');
  }

  /**
   * The pipeline's own role as a training job's RoleArn is the usual mistake: it starts jobs but cannot read their data,
   * write their model, log or pull their image, so every run fails at the training step.
   */
  private warnOnPipelineRoleAsJobRole(props: TrainingPipelineProps): void {
    const stack = Stack.of(this);
    const pipelineRole = JSON.stringify(stack.resolve(props.role.roleArn));
    const same = props.definition._stepRoleArns('Training').some((arn) => JSON.stringify(stack.resolve(arn)) === pipelineRole);
    if (same) {
      Annotations.of(this).addWarningV2('cdk-sagemaker-mcp:pipelineRoleAsTrainingRole',
        'a Training step\'s RoleArn is the pipeline\'s own role: training jobs need S3 read of their inputs, write of their output path, '
        + 'CloudWatch logs and metrics and ECR pull; set trainingJobRole and write TrainingPipeline.TRAINING_JOB_ROLE_ARN as the RoleArn');
    }
  }
}

class ImportedTrainingPipeline extends TrainingPipelineBase {
  constructor(scope: Construct, id: string, public readonly pipelineName: string, public readonly pipelineArn: string) {
    super(scope, id);
  }
}
