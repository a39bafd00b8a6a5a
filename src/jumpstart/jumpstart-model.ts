import { Annotations, Size, Stack, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import {
  CatalogModel,
  CatalogVersion,
  findModel,
  findVersion,
  imageGroupsOf,
  imageInRegion,
  modelIds,
  ResolvedImage,
  resolveImage,
  variantEnvironment,
} from './catalog';
import { NotDeployableReason } from './catalog-format';
import { closeMatches } from './close-matches';
import { defaultPrecision, deriveModelFamily, JumpStartPrecision, parameterBillions } from './model-traits';
import { acceleratorsNeeded, fits, leastCostlyFittingInstance, MemoryRequirement, memoryRequirement, minimumFittingInstance, usableMemoryGiB } from './sizing';
import { InstanceSpec } from '../core/instance-hardware';
import { InstanceType } from '../core/instance-type';
import { ModelFamily } from '../core/model-family.generated';
import { ModelSource } from '../core/model-source';
import { ModelSourceBindOptions, ModelSourceConfig } from '../core/model-source-config';
import { grantEcrPull } from '../private/ecr-pull';
import { IAM_ACTION } from '../private/iam-actions';
import { instanceSpecs } from '../private/instance-table';
import { PropValidator, show } from '../private/validation';

/** Options of `JumpStartModel.of`. */
export interface JumpStartModelOptions {
  /**
   * The model version to deploy: an exact version (`2.2.0`), `*`, or a major/minor wildcard (`2.*`, `2.1.*`).
   * Pin an exact version in production: a newer catalog would otherwise replace the model.
   *
   * @default - the newest version the catalog can deploy, with a synth warning to pin it
   */
  readonly version?: string;
  /**
   * Accept the model's license (EULA). Gated models (Llama, Gemma, ...) do not synthesize without it; read the EULA at
   * the URL the error gives.
   *
   * @default false
   */
  readonly acceptEula?: boolean;
  /**
   * Container environment variables, applied over the catalog's defaults and its per-instance values.
   *
   * @default - the catalog's environment for the version and instance type
   */
  readonly environment?: { [key: string]: string };
  /**
   * Weight precision, for the instance sizing check. `INT4` on a TGI container also sets `HF_MODEL_QUANTIZE` to
   * `bitsandbytes-nf4` unless the environment already names a quantization; other containers need the quantization
   * configured in `environment` (a synth warning says so).
   *
   * @default - from the model id and its environment (`gptq`, `awq`, `fp8`, `HF_MODEL_QUANTIZE`), else FP16
   */
  readonly precision?: JumpStartPrecision;
  /**
   * Run the container without network access. JumpStart's prepacked artifacts hold everything the container loads.
   *
   * @default false
   */
  readonly enableNetworkIsolation?: boolean;
}

/** What a JumpStart model needs from its instance, as far as its id and precision tell. */
export interface JumpStartResourceRequirements {
  /** The precision the figures assume. */
  readonly precision: JumpStartPrecision;
  /**
   * Parameters, in billions, read from the model id.
   *
   * @default - unknown (the id names no size)
   */
  readonly parameterBillions?: number;
  /**
   * Accelerator memory needed in total (host memory on a CPU-only instance), in GiB.
   *
   * @default - unknown: no sizing check is made
   */
  readonly minAcceleratorMemoryGiB?: number;
  /**
   * How the minimum accelerator memory was derived.
   *
   * @default - unknown
   */
  readonly basis?: string;
}

const UNPINNED_WARNING = 'cdk-sagemaker-mcp:jumpstartUnpinnedVersion';
const QUANTIZATION_WARNING = 'cdk-sagemaker-mcp:jumpstartQuantization';
const TGI_QUANTIZE = 'HF_MODEL_QUANTIZE';
const REASONS: Record<NotDeployableReason, string> = {
  marketplace: 'is a Marketplace model package (deploy it by its model package ARN, which JumpStartModel does not do)',
  noImage: 'has no container image data in the catalog (its spec uses a layout the catalog generator does not read)',
  noArtifact: 'has no model artifact in the catalog',
  needsScript: 'needs an inference script upload (not prepacked), which the catalog does not carry',
};

/**
 * A model from SageMaker JumpStart, resolved at synth from the catalog bundled with this library (no AWS calls):
 * the Deep Learning Container image for the stack's region and the instance type, the model artifact in the
 * JumpStart bucket (uncompressed prefix or `.tar.gz`), and the container environment.
 *
 * Binding checks that the instance type is one the model supports and is large enough for the model's size and
 * precision, that a gated model's EULA is accepted, and grants the model's role `s3:GetObject` (and `s3:ListBucket`
 * on the prefix) on exactly the artifact, and ECR pull (`ecr:BatchCheckLayerAvailability`, `ecr:BatchGetImage`,
 * `ecr:GetDownloadUrlForLayer` on the image's repository; `ecr:GetAuthorizationToken`) on the image.
 */
export class JumpStartModel extends ModelSource {
  /**
   * A JumpStart model by id, e.g. `meta-textgeneration-llama-3-8b-instruct`.
   *
   * Throws when the id or the version is not in the catalog (naming close ids or the versions that deploy).
   */
  public static of(modelId: string, options: JumpStartModelOptions = {}): JumpStartModel {
    return new JumpStartModel(modelId, options);
  }

  /** Every model id in the bundled catalog. */
  public static modelIds(): string[] {
    return modelIds();
  }

  /** The versions of a model the catalog can deploy, newest first (empty for an unknown id). */
  public static deployableVersions(modelId: string): string[] {
    return findModel(modelId)?.versions ?? [];
  }

  /** The JumpStart model id. */
  public readonly modelId: string;
  /** The resolved version. */
  public readonly version: string;
  /**
   * The least costly instance type this version supports that fits the model at its precision: fewest accelerators,
   * then G-family GPUs before P-family ones, then the smallest (https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/jumpstart.md, "Default instance type"). JumpStart's
   * own default (the catalog's default instance type) when the model's size is unknown or no supported type in the instance
   * table fits.
   */
  public readonly defaultInstanceType: InstanceType;
  /** JumpStart's default instance type for this version (AWS's tested configuration, often a multi-GPU one). */
  public readonly catalogDefaultInstanceType: InstanceType;
  /** The instance types this version supports. */
  public readonly supportedInstanceTypes: string[];
  /**
   * What the model id and its container say the model is: `llama3`, `llama2`, `mistral`, `falcon`, `tgi`, `lmi`,
   * `stable-diffusion`, `text-to-image` or `huggingface`. Wider than the model family, which is set only when the MCP
   * invoke tool builds the model's request body.
   */
  public readonly modelKind: string;
  /**
   * The payload family the MCP invoke tool builds for the model (`ModelFamily.LLAMA3`, ...).
   *
   * @returns no value when the model's kind is none of them (Llama 2, Stable Diffusion, LMI, ...: https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/realtime.md)
   */
  public readonly modelFamily?: ModelFamily;
  /** The precision used for sizing. */
  public readonly precision: JumpStartPrecision;
  /** What the model needs from its instance. */
  public readonly resourceRequirements: JumpStartResourceRequirements;
  /** Whether the license (EULA) must be accepted (accept the EULA in the model's options). */
  public readonly requiresEula: boolean;
  /** Whether the artifact is in JumpStart's gated (private) bucket. */
  public readonly gated: boolean;

  private readonly entry: CatalogVersion;
  private readonly unpinned: boolean;
  private readonly requirement?: MemoryRequirement;

  private constructor(modelId: string, private readonly options: JumpStartModelOptions) {
    super();
    const validator = new PropValidator('JumpStartModel.of');
    const model = findModel(modelId);
    if (!model) {
      const close = closeMatches(modelId, modelIds());
      validator.add(`modelId: got ${show(modelId)}, expected a JumpStart model id in the catalog`
        + (close.length ? `; did you mean ${close.map((c) => `'${c}'`).join(', ')}?` : ' (JumpStartModel.modelIds() lists them)'));
      validator.throwIfInvalid();
    }
    const entry = resolveVersion(model!, options.version, validator);
    validator.throwIfInvalid();

    this.entry = entry!;
    this.modelId = modelId;
    this.version = this.entry.version;
    this.unpinned = options.version === undefined || options.version.includes('*');
    this.catalogDefaultInstanceType = InstanceType.of(this.entry.defaultInstanceType);
    this.supportedInstanceTypes = [...this.entry.supportedInstanceTypes];
    this.requiresEula = this.entry.eulaKey !== undefined;
    this.gated = this.entry.gated;
    const repository = this.imageRepository();
    this.modelKind = deriveModelFamily(modelId, repository);
    this.modelFamily = ModelFamily.all().find((f) => f.name === this.modelKind);
    const catalogPrecision = defaultPrecision(modelId, this.entry.environment);
    this.precision = options.precision ?? catalogPrecision;
    const billions = parameterBillions(modelId);
    this.requirement = memoryRequirement(this.modelKind, billions, this.precision,
      { instanceType: this.entry.defaultInstanceType, precision: catalogPrecision });
    const leastCostly = this.requirement && leastCostlyFittingInstance(this.requirement, this.supportedInstanceTypes, this.entry.defaultInstanceType);
    this.defaultInstanceType = leastCostly ? InstanceType.of(leastCostly) : this.catalogDefaultInstanceType;
    this.resourceRequirements = {
      precision: this.precision,
      parameterBillions: billions,
      minAcceleratorMemoryGiB: this.requirement?.requiredGiB,
      basis: this.requirement?.basis,
    };
  }

  /**
   * Whether an instance type is large enough for the model at its precision (true when the size is unknown).
   */
  public fitsInstanceType(instanceType: InstanceType): boolean {
    const spec = instanceSpecs(instanceType.name);
    return !spec || !this.requirement || fits(spec, this.requirement);
  }

  /**
   * Accelerator devices of one instance the model needs (for an inference component on a shared instance).
   *
   * @returns no value when the instance type or the model's size is unknown, or the instance has no accelerators
   */
  public acceleratorsRequired(instanceType: InstanceType): number | undefined {
    const spec = instanceSpecs(instanceType.name);
    return spec && this.requirement ? acceleratorsNeeded(spec, this.requirement) : undefined;
  }

  /**
   * The smallest instance type the model fits on: among its supported types, else any in the instance table.
   *
   * @returns no value when the model's size is unknown
   */
  public minimumInstanceType(): string | undefined {
    return this.requirement ? minimumFittingInstance(this.requirement, this.supportedInstanceTypes)?.instanceType : undefined;
  }

  /** The EULA URL for a region, e.g. `https://jumpstart-cache-prod-us-east-1.s3.us-east-1.amazonaws.com/...`. */
  public eulaUrl(region: string): string | undefined {
    if (!this.entry.eulaKey) return undefined;
    const domain = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
    return `https://jumpstart-cache-prod-${region}.s3.${region}.${domain}/${this.entry.eulaKey}`;
  }

  public bind(scope: Construct, options: ModelSourceBindOptions): ModelSourceConfig {
    const stack = Stack.of(scope);
    const region = stack.region;
    const subject = `JumpStartModel '${this.modelId}@${this.version}'`;
    const validator = new PropValidator(subject);
    if (Token.isUnresolved(region)) {
      validator.add('region: got an unresolved token (an environment-agnostic stack), expected a concrete region: the image, '
        + 'bucket and instance types are resolved at synth; set one on the stack, e.g. new Stack(app, \'Id\', { env: { region: \'us-east-1\' } })');
      validator.throwIfInvalid();
    }
    const instanceType = options.instanceType ?? this.defaultInstanceType;
    const image = instanceType.isUnresolved
      ? this.imageForAnyInstance(region, validator)
      : this.imageForInstance(instanceType.name, region, validator);
    if (!instanceType.isUnresolved) this.checkInstance(instanceType.name, validator);
    if (this.requiresEula && this.options.acceptEula !== true) {
      validator.add(`acceptEula: got ${show(this.options.acceptEula)}, expected true: ${this.modelId} is licensed under an EULA `
        + `that must be accepted before it deploys; read it at ${this.eulaUrl(region)} and set acceptEula: true`);
    }
    validator.throwIfInvalid();

    if (this.unpinned) {
      Annotations.of(scope).addWarningV2(UNPINNED_WARNING, `${subject}: version ${this.options.version === undefined ? 'not given' : `'${this.options.version}'`} `
        + `resolved to ${this.version}, the newest the bundled catalog deploys; pin it (version: '${this.version}') so a library update does not replace the model`);
    }

    const environment: Record<string, string> = {
      ...this.entry.environment,
      ...(instanceType.isUnresolved ? {} : variantEnvironment(this.entry, instanceType.name)),
    };
    this.applyQuantization(scope, environment, image!.repository);
    Object.assign(environment, this.options.environment ?? {});

    const bucket = `${this.gated ? 'jumpstart-private-cache-prod' : 'jumpstart-cache-prod'}-${region}`;
    const key = this.entry.artifactKey;
    const compressed = !key.endsWith('/');
    this.grantArtifactRead(options.role, stack, bucket, key, compressed);
    grantEcrPull(scope, options.role, `arn:${stack.partition}:ecr:${region}:${image!.account}:repository/${image!.repository}`);

    return {
      imageUri: image!.uri,
      modelData: { s3Uri: `s3://${bucket}/${key}`, compressed, acceptEula: this.requiresEula ? true : undefined },
      environment,
      enableNetworkIsolation: this.options.enableNetworkIsolation,
      modelFamily: this.modelFamily,
      acceleratorsRequired: instanceType.isUnresolved ? undefined : this.acceleratorsRequired(instanceType),
      acceleratorMemoryRequired: this.requirement ? Size.gibibytes(this.requirement.requiredGiB) : undefined,
    };
  }

  private checkInstance(instanceType: string, validator: PropValidator): void {
    if (!this.supportedInstanceTypes.includes(instanceType)) {
      validator.add(`instanceType: got '${instanceType}', expected one of the instance types ${this.modelId}@${this.version} supports: `
        + this.supportedInstanceTypes.join(', '));
      return;
    }
    const spec = instanceSpecs(instanceType);
    if (!spec || !this.requirement || fits(spec, this.requirement)) return;
    const minimum = minimumFittingInstance(this.requirement, this.supportedInstanceTypes);
    const suggestion = !minimum ? 'no instance type in the table is large enough'
      : minimum.supported ? `the smallest supported instance type that fits is ${minimum.instanceType}`
        : `none of its supported types fits; the smallest that would is ${minimum.instanceType}`;
    validator.add(`instanceType: got '${instanceType}' (${describe(spec)}), expected at least ${this.requirement.requiredGiB} GiB `
      + `for ${this.requirement.basis}: ${suggestion}. An undersized instance fails on AWS with an InternalFailure that does not name the cause`);
  }

  private imageForInstance(instanceType: string, region: string, validator: PropValidator): ResolvedImage | undefined {
    const resolution = resolveImage(this.entry, instanceType, region);
    if ('image' in resolution) return resolution.image;
    if (resolution.error === 'noVariant') {
      validator.add(`instanceType: got '${instanceType}', expected an instance family with a container image for `
        + `${this.modelId}@${this.version}: ${this.supportedInstanceTypes.join(', ')}`);
    } else {
      validator.add(`region: got '${region}', expected a region where the image of ${this.modelId}@${this.version} for `
        + `'${instanceType}' is published: ${resolution.regions.join(', ')}`);
    }
    return undefined;
  }

  /** A token instance type: only possible when every instance family uses the same image. */
  private imageForAnyInstance(region: string, validator: PropValidator): ResolvedImage | undefined {
    const groups = imageGroupsOf(this.entry);
    if (groups.length !== 1) {
      validator.add(`instanceType: got an unresolved token, expected a concrete instance type: ${this.modelId}@${this.version} `
        + 'uses a different image per instance family');
      return undefined;
    }
    const resolution = imageInRegion(groups[0], region);
    if ('image' in resolution) return resolution.image;
    validator.add(`region: got '${region}', expected a region where the image of ${this.modelId}@${this.version} is published: `
      + (resolution.error === 'notInRegion' ? resolution.regions.join(', ') : 'none'));
    return undefined;
  }

  private applyQuantization(scope: Construct, environment: Record<string, string>, repository: string): void {
    if (this.options.precision !== JumpStartPrecision.INT4 || defaultPrecision(this.modelId, environment) === JumpStartPrecision.INT4) return;
    if (this.options.environment?.[TGI_QUANTIZE] || this.options.environment?.OPTION_QUANTIZE) return;
    if (repository.includes('tgi')) {
      environment[TGI_QUANTIZE] = 'bitsandbytes-nf4';
      return;
    }
    Annotations.of(scope).addWarningV2(QUANTIZATION_WARNING, `JumpStartModel '${this.modelId}': precision INT4 sizes the instance for `
      + `4-bit weights, but the ${repository} container is not told to quantize; set its quantization in environment (e.g. OPTION_QUANTIZE)`);
  }

  private grantArtifactRead(role: iam.IRole, stack: Stack, bucket: string, key: string, compressed: boolean): void {
    const bucketArn = `arn:${stack.partition}:s3:::${bucket}`;
    iam.Grant.addToPrincipal({ grantee: role, actions: [IAM_ACTION.s3.GetObject], resourceArns: [`${bucketArn}/${key}${compressed ? '' : '*'}`] });
    if (!compressed) {
      iam.Grant.addToPrincipal({
        grantee: role,
        actions: [IAM_ACTION.s3.ListBucket],
        resourceArns: [bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${key}*`] } },
      });
    }
  }

  private imageRepository(): string {
    const resolution = resolveImage(this.entry, this.entry.defaultInstanceType, 'us-east-1');
    if ('image' in resolution) return resolution.image.repository;
    const groups = imageGroupsOf(this.entry);
    const any = groups.length ? imageInRegion(groups[0], 'us-east-1') : undefined;
    return any && 'image' in any ? any.image.repository : '';
  }
}

function resolveVersion(model: CatalogModel, requested: string | undefined, validator: PropValidator): CatalogVersion | undefined {
  const deployable = model.versions;
  const listed = deployable.slice(0, 12).join(', ') + (deployable.length > 12 ? `, ... (${deployable.length} in all)` : '');
  if (requested === undefined || requested === '*') return findVersion(model.modelId);
  if (requested.endsWith('.*')) {
    const prefix = requested.slice(0, -1);
    const match = deployable.find((v) => v.startsWith(prefix));
    if (match) return findVersion(model.modelId, match);
    validator.add(`version: got '${requested}', expected a pattern matching a deployable version of ${model.modelId}: ${listed}`);
    return undefined;
  }
  if (deployable.includes(requested)) return findVersion(model.modelId, requested);
  const reason = (Object.entries(model.notDeployable) as Array<[NotDeployableReason, string[]]>).find(([, vs]) => vs.includes(requested))?.[0];
  validator.add(reason
    ? `version: got '${requested}', expected a deployable version: ${model.modelId}@${requested} ${REASONS[reason]}; versions that deploy: ${listed}`
    : `version: got '${requested}', expected a published version of ${model.modelId}; versions that deploy: ${listed}`);
  return undefined;
}

function describe(spec: InstanceSpec): string {
  return spec.accelerators > 0
    ? `${spec.accelerators} x ${spec.acceleratorModel} ${spec.acceleratorMemoryGiB} GiB = ${usableMemoryGiB(spec)} GiB`
    : `CPU only, ${usableMemoryGiB(spec)} GiB memory`;
}
