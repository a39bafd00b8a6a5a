/**
 * Template checks for every construct test.
 *
 * API
 * - `templateProblems(template, opts?) => string[]`: every problem in a synthesized CloudFormation template, each line
 *   `<logicalId> (<type>) <property path>: got <value>, expected <expectation> [<source>]`. Three sources:
 *     1. [schema] the CloudFormation resource database of `@aws-cdk/aws-service-spec` (type exists, property names,
 *        required properties, primitive types, enums the DB knows, nested property types by name),
 *     2. the enums/ranges/patterns of the public references (table `FACT_RULES` below + cross-field rules), each labelled
 *        with the page it comes from: [api <Name>] is https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_<Name>.html,
 *        [autoscaling <Name>] is https://docs.aws.amazon.com/autoscaling/application/APIReference/API_<Name>.html, and
 *        [cfn <Type>] is the resource's page of the CloudFormation template reference (where CloudFormation differs from the API),
 *     3. [cdk-validate <id>] aws-cdk-lib's built-in CloudFormation validation engine (the one that
 *        `@aws-cdk/core:validateAgainstDefaultRules: true` turns into synth errors), run directly on the template,
 *     4. [iam-ref <data version>] every IAM statement (identity and resource policies) against AWS's Service
 *        Authorization Reference: actions, condition keys, resource ARN formats (./iam-reference.ts).
 *   Intrinsics (`Ref`, `Fn::*`) are skipped. `opts.ignore` drops problems whose line matches a string/RegExp.
 * - `expectValidTemplate(stackOrTemplate, opts?)`: throws one Error listing every problem.
 * - cdk-nag checks of a whole app are in ./nag-checks.ts (kept apart: cdk-nag loads about 60 aws-cdk-lib service
 *   modules, which every test file would otherwise load again).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import type { PropertyType, SpecDatabase, TypeDefinition } from '@aws-cdk/service-spec-types';
import { App, CloudFormationValidatePlugin, IPolicyValidationContext, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { iamReferenceProblems } from './iam-reference';
import type { TemplateCheckEngines } from './jest-environment';

export interface TemplateCheckOptions {
  /** Problems whose line contains this string / matches this RegExp are dropped. Say why next to each use. */
  readonly ignore?: Array<string | RegExp>;
  /** Run aws-cdk-lib's built-in CloudFormation validation engine too (default true). */
  readonly cdkValidate?: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------------------------

type Json = any;
interface Finding { readonly path: string; readonly value: unknown; readonly expected: string }
interface ResourceContext {
  readonly logicalId: string;
  readonly type: string;
  readonly props: Json;
  readonly resources: Record<string, Json>;
}

/** A CloudFormation intrinsic or a CDK token: its value is unknown until deploy, so checks skip it. */
function isIntrinsic(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('${Token[');
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0].startsWith('Fn::') || keys[0] === 'Condition');
}

function show(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (value === undefined) return 'nothing';
  const s = JSON.stringify(value);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

function isObject(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !isIntrinsic(v);
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/**
 * Every (concrete path, value) at `path` in `props`. Segments are `.`-separated; `Name[]` iterates an array.
 * Missing values and intrinsics on the way stop the walk (nothing to check); the final value may be an intrinsic,
 * which the checks skip.
 */
function valuesAt(props: Json, path: string): Array<[string, unknown]> {
  let current: Array<[string, unknown]> = [['', props]];
  for (const seg of path.split('.')) {
    const many = seg.endsWith('[]');
    const key = many ? seg.slice(0, -2) : seg;
    const next: Array<[string, unknown]> = [];
    for (const [p, v] of current) {
      if (!isObject(v)) continue;
      const child = v[key];
      if (child === undefined) continue;
      const cp = p ? `${p}.${key}` : key;
      if (!many) next.push([cp, child]);
      else if (Array.isArray(child)) child.forEach((el, i) => next.push([`${cp}.${i}`, el]));
    }
    current = next;
  }
  return current;
}

// ---------------------------------------------------------------------------------------------------------------
// 1. CloudFormation resource schema (aws-service-spec)
// ---------------------------------------------------------------------------------------------------------------

/** The engines the jest environment keeps warm per worker (test/support/jest-environment.ts), if it is the runner. */
const shared = (globalThis as { __templateCheckEngines?: TemplateCheckEngines }).__templateCheckEngines;

let specDb: SpecDatabase | undefined;
function db(): SpecDatabase {
  specDb ??= shared?.specDatabase() ?? loadAwsServiceSpecSync();
  return specDb;
}

const SKIPPED_TYPES = /^(Custom::|AWS::CloudFormation::CustomResource$|AWS::CDK::Metadata$)/;

function schemaFindings(type: string, props: Json): Finding[] | 'unknown-type' {
  if (SKIPPED_TYPES.test(type)) return [];
  const found = db().lookup('resource', 'cloudFormationType', 'equals', type);
  if (found.length === 0) return 'unknown-type';
  const out: Finding[] = [];
  checkProperties(found[0].properties, props ?? {}, '', out);
  return out;
}

function checkProperties(schema: Record<string, { type: PropertyType; required?: boolean }>, value: Json, path: string, out: Finding[]): void {
  const at = (k: string) => (path ? `${path}.${k}` : k);
  const known = Object.keys(schema);
  for (const [k, v] of Object.entries(value)) {
    const prop = schema[k];
    if (!prop) {
      const similar = known.find((n) => n.toLowerCase() === k.toLowerCase());
      out.push({ path: at(k), value: v, expected: similar ? `no property '${k}' (did you mean '${similar}'? CloudFormation keys are PascalCase)` : `one of the known properties ${known.join(', ')}` });
      continue;
    }
    checkType(prop.type, v, at(k), out);
  }
  for (const [k, prop] of Object.entries(schema)) {
    if (prop.required && value[k] === undefined) out.push({ path: at(k), value: undefined, expected: 'a value (required property)' });
  }
}

function checkType(type: PropertyType, value: unknown, path: string, out: Finding[]): void {
  if (isIntrinsic(value)) return;
  switch (type.type) {
    case 'json':
    case 'null':
      return;
    case 'string':
      if (!['string', 'number', 'boolean'].includes(typeof value)) {
        out.push({ path, value, expected: 'a string' });
      } else if (type.allowedValues && !type.allowedValues.includes(String(value))) {
        out.push({ path, value, expected: `one of ${type.allowedValues.join(', ')}` });
      }
      return;
    case 'date-time':
      if (typeof value !== 'string') out.push({ path, value, expected: 'a date-time string' });
      return;
    case 'number':
    case 'integer': {
      const n = asNumber(value);
      if (n === undefined) out.push({ path, value, expected: type.type === 'integer' ? 'an integer' : 'a number' });
      else if (type.type === 'integer' && !Number.isInteger(n)) out.push({ path, value, expected: 'an integer' });
      else if (type.type === 'integer' && type.allowedValues && !type.allowedValues.includes(n)) out.push({ path, value, expected: `one of ${type.allowedValues.join(', ')}` });
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean' && value !== 'true' && value !== 'false') out.push({ path, value, expected: 'a boolean' });
      return;
    case 'tag':
      if (!isObject(value) || value.Key === undefined) out.push({ path, value, expected: 'a tag {Key, Value}' });
      return;
    case 'array':
      if (!Array.isArray(value)) out.push({ path, value, expected: 'a list' });
      else value.forEach((el, i) => checkType(type.element, el, `${path}.${i}`, out));
      return;
    case 'map':
      if (!isObject(value)) out.push({ path, value, expected: 'a map' });
      else for (const [k, v] of Object.entries(value)) checkType(type.element, v, `${path}.${k}`, out);
      return;
    case 'union': {
      const attempts = type.types.map((t) => {
        const o: Finding[] = [];
        checkType(t, value, path, o);
        return o;
      });
      if (attempts.some((a) => a.length === 0)) return;
      out.push(...attempts.reduce((best, a) => (a.length < best.length ? a : best)));
      return;
    }
    case 'ref': {
      const def = db().get('typeDefinition', type.reference.$ref) as TypeDefinition;
      if (!isObject(value)) out.push({ path, value, expected: `an object of type ${def.name}` });
      else checkProperties(def.properties, value, path, out);
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Value rules from the SageMaker API reference and the cfn-lint schemas
// ---------------------------------------------------------------------------------------------------------------

interface Check { readonly expected: string; ok(value: unknown): boolean }

const pattern = (re: RegExp, maxLength?: number, what?: string): Check => ({
  expected: `${what ?? `a string matching ${re.source}`}${maxLength ? `, at most ${maxLength} characters` : ''}`,
  ok: (v) => typeof v === 'string' && re.test(v) && (maxLength === undefined || v.length <= maxLength),
});
const oneOf = (...values: string[]): Check => ({ expected: `one of ${values.join(', ')}`, ok: (v) => values.includes(String(v)) });
const between = (min: number, max: number, opts: { integer?: boolean; step?: number } = {}): Check => ({
  expected: `${opts.integer === false ? 'a number' : 'an integer'} between ${min} and ${max}${opts.step ? ` in steps of ${opts.step}` : ''}`,
  ok: (v) => {
    const n = asNumber(v);
    return n !== undefined && n >= min && n <= max && (opts.integer === false || Number.isInteger(n)) && (!opts.step || n % opts.step === 0);
  },
});
const atLeast = (min: number, integer = true): Check => ({
  expected: `${integer ? 'an integer' : 'a number'} >= ${min}`,
  ok: (v) => {
    const n = asNumber(v);
    return n !== undefined && n >= min && (!integer || Number.isInteger(n));
  },
});
const count = (min: number, max: number): Check => ({ expected: `a list of ${min} to ${max} entries`, ok: (v) => Array.isArray(v) && v.length >= min && v.length <= max });
const entries = (max: number): Check => ({ expected: `a map of at most ${max} entries`, ok: (v) => isObject(v) && Object.keys(v).length <= max });
const maxLength = (max: number): Check => ({ expected: `at most ${max} characters`, ok: (v) => typeof v === 'string' && v.length <= max });
const startsWith = (prefix: string): Check => ({ expected: `a value starting with '${prefix}'`, ok: (v) => typeof v === 'string' && v.startsWith(prefix) });
const notOneOf = (...values: string[]): Check => ({ expected: `not a reserved name (${values.join(', ')})`, ok: (v) => !values.includes(String(v)) });

const NAME_63 = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/;
const S3_URI = /^(https|s3):\/\/([^/]+)\/?(.*)$/;
const SNS_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]*:[0-9]{12}:[a-zA-Z0-9_.-]+$/;
const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/?[a-zA-Z_0-9+=,.@\-_/]+$/;
const FEATURE_NAME = /^[a-zA-Z0-9]([-_]*[a-zA-Z0-9]){0,63}$/;
const FEATURE_GROUP_NAME = /^[a-zA-Z0-9]([_-]*[a-zA-Z0-9]){0,63}$/;
const ENV_KEY = /^[a-zA-Z_][a-zA-Z0-9_]{1,1024}$/;
const EC = 'AWS::SageMaker::EndpointConfig';
const IC = 'AWS::SageMaker::InferenceComponent';
const FG = 'AWS::SageMaker::FeatureGroup';
const MODEL = 'AWS::SageMaker::Model';
const PV = '{ProductionVariants[],ShadowProductionVariants[]}';

/**
 * Value rules from the SageMaker and Application Auto Scaling API references and the CloudFormation template reference.
 * `{A[],B[]}` in a path expands to both. Each row: resource type | property path | check | source (see the file header).
 */
export const FACT_RULES: ReadonlyArray<readonly [string, string, Check, string]> = [
  // ---- AWS::SageMaker::EndpointConfig ------------------------------------------------------------------------
  [EC, 'ProductionVariants', count(1, 10), 'api CreateEndpointConfig'],
  [EC, 'EndpointConfigName', pattern(NAME_63, 63), 'api CreateEndpointConfig'],
  [EC, 'ExecutionRoleArn', pattern(ROLE_ARN, 2048, 'an IAM role ARN (arn:aws*:iam::<12 digits>:role/...), 20-2048 characters'), 'api CreateEndpointConfig'],
  [EC, 'KmsKeyId', maxLength(2048), 'api CreateEndpointConfig'],
  [EC, `${PV}.VariantName`, pattern(NAME_63, 63), 'api ProductionVariant'],
  [EC, `${PV}.InstanceType`, startsWith('ml.'), 'api ProductionVariant'],
  [EC, `${PV}.InitialInstanceCount`, atLeast(1), 'api ProductionVariant'],
  [EC, `${PV}.InitialVariantWeight`, atLeast(0, false), 'api ProductionVariant'],
  [EC, `${PV}.VolumeSizeInGB`, between(1, 512), 'api ProductionVariant'],
  [EC, `${PV}.ModelDataDownloadTimeoutInSeconds`, between(60, 3600), 'api ProductionVariant'],
  [EC, `${PV}.ContainerStartupHealthCheckTimeoutInSeconds`, between(60, 3600), 'api ProductionVariant'],
  [EC, `${PV}.VariantInstanceProvisionTimeoutInSeconds`, between(300, 3600), 'api ProductionVariant'],
  [EC, `${PV}.InstancePools`, count(1, 5), 'api ProductionVariant'],
  [EC, `${PV}.InstancePools[].InstanceType`, startsWith('ml.'), 'api ProductionVariant'],
  [EC, `${PV}.InstancePools[].Priority`, between(1, 5), 'api ProductionVariant'],
  [EC, `${PV}.ServerlessConfig.MemorySizeInMB`, between(1024, 6144, { step: 1024 }), 'api ProductionVariantServerlessConfig'],
  [EC, `${PV}.ServerlessConfig.MaxConcurrency`, between(1, 200), 'api ProductionVariantServerlessConfig'],
  [EC, `${PV}.ServerlessConfig.ProvisionedConcurrency`, between(1, 200), 'api ProductionVariantServerlessConfig'],
  [EC, `${PV}.ManagedInstanceScaling.Status`, oneOf('ENABLED', 'DISABLED'), 'api ProductionVariantManagedInstanceScaling'],
  [EC, `${PV}.ManagedInstanceScaling.MinInstanceCount`, atLeast(0), 'api ProductionVariantManagedInstanceScaling'],
  [EC, `${PV}.ManagedInstanceScaling.MaxInstanceCount`, atLeast(1), 'api ProductionVariantManagedInstanceScaling'],
  [EC, `${PV}.ManagedInstanceScaling.ScaleInPolicy.Strategy`, oneOf('IDLE_RELEASE', 'CONSOLIDATION'), 'api ProductionVariantManagedInstanceScalingScaleInPolicy'],
  [EC, `${PV}.ManagedInstanceScaling.ScaleInPolicy.MaximumStepSize`, between(1, 100), 'api ProductionVariantManagedInstanceScalingScaleInPolicy'],
  [EC, `${PV}.ManagedInstanceScaling.ScaleInPolicy.CooldownInMinutes`, between(5, 1440), 'api ProductionVariantManagedInstanceScalingScaleInPolicy'],
  [EC, `${PV}.RoutingConfig.RoutingStrategy`, oneOf('LEAST_OUTSTANDING_REQUESTS', 'RANDOM', 'PREFIX_AWARE'), 'api ProductionVariantRoutingConfig'],
  [EC, `${PV}.RoutingConfig.PrefixAwareRoutingConfig.PrefixLength`, between(1024, 65536), 'api PrefixAwareRoutingConfig'],
  [EC, `${PV}.RoutingConfig.PrefixAwareRoutingConfig.ConcurrencyThreshold`, between(1, 1024), 'api PrefixAwareRoutingConfig'],
  [EC, `${PV}.InferenceAmiVersion`, oneOf('al2-ami-sagemaker-inference-gpu-2', 'al2-ami-sagemaker-inference-gpu-2-1', 'al2-ami-sagemaker-inference-gpu-3-1', 'al2-ami-sagemaker-inference-neuron-2', 'al2023-ami-sagemaker-inference-gpu-4-1'), 'api ProductionVariant'],
  [EC, 'AsyncInferenceConfig.OutputConfig.S3OutputPath', pattern(S3_URI, 512), 'api AsyncInferenceOutputConfig'],
  [EC, 'AsyncInferenceConfig.OutputConfig.S3FailurePath', pattern(S3_URI, 512), 'api AsyncInferenceOutputConfig'],
  [EC, 'AsyncInferenceConfig.OutputConfig.NotificationConfig.SuccessTopic', pattern(SNS_ARN, undefined, 'an SNS topic ARN'), 'api AsyncInferenceNotificationConfig'],
  [EC, 'AsyncInferenceConfig.OutputConfig.NotificationConfig.ErrorTopic', pattern(SNS_ARN, undefined, 'an SNS topic ARN'), 'api AsyncInferenceNotificationConfig'],
  [EC, 'AsyncInferenceConfig.OutputConfig.NotificationConfig.IncludeInferenceResponseIn', count(0, 2), 'api AsyncInferenceNotificationConfig'],
  [EC, 'AsyncInferenceConfig.OutputConfig.NotificationConfig.IncludeInferenceResponseIn[]', oneOf('SUCCESS_NOTIFICATION_TOPIC', 'ERROR_NOTIFICATION_TOPIC'), 'api AsyncInferenceNotificationConfig'],
  [EC, 'AsyncInferenceConfig.ClientConfig.MaxConcurrentInvocationsPerInstance', between(1, 1000), 'api AsyncInferenceClientConfig'],
  [EC, 'DataCaptureConfig.InitialSamplingPercentage', between(0, 100), 'api DataCaptureConfig'],
  [EC, 'DataCaptureConfig.CaptureOptions', count(1, 32), 'api DataCaptureConfig'],
  [EC, 'DataCaptureConfig.CaptureOptions[].CaptureMode', oneOf('Input', 'Output', 'InputAndOutput'), 'api DataCaptureConfig'],
  [EC, 'DataCaptureConfig.CaptureContentTypeHeader.CsvContentTypes', count(1, 10), 'api DataCaptureConfig'],
  [EC, 'DataCaptureConfig.CaptureContentTypeHeader.JsonContentTypes', count(1, 10), 'api DataCaptureConfig'],
  // ---- AWS::SageMaker::Endpoint / Model --------------------------------------------------------------------
  ['AWS::SageMaker::Endpoint', 'EndpointName', pattern(NAME_63, 63), 'api CreateEndpoint'],
  ['AWS::SageMaker::Endpoint', 'DeploymentConfig.BlueGreenUpdatePolicy.TrafficRoutingConfiguration.WaitIntervalInSeconds', between(0, 3600), 'api TrafficRoutingConfig'],
  ['AWS::SageMaker::Endpoint', 'DeploymentConfig.RollingUpdatePolicy.WaitIntervalInSeconds', between(0, 3600), 'api RollingUpdatePolicy'],
  [MODEL, '{PrimaryContainer,Containers[]}.ModelDataSource.S3DataSource.S3DataType', oneOf('S3Prefix', 'S3Object'), 'api S3ModelDataSource'],
  [MODEL, '{PrimaryContainer,Containers[]}.ModelDataSource.S3DataSource.CompressionType', oneOf('None', 'Gzip'), 'api S3ModelDataSource'],
  [MODEL, '{PrimaryContainer,Containers[]}.ModelDataSource.S3DataSource.S3Uri', pattern(S3_URI, 1024), 'api S3ModelDataSource'],
  // ---- AWS::SageMaker::InferenceComponent ------------------------------------------------------------------
  [IC, 'Specifications', { expected: 'at least 2 entries (use Specification for one)', ok: (v) => Array.isArray(v) && v.length >= 2 }, 'cfn AWS::SageMaker::InferenceComponent'],
  [IC, '{Specification,Specifications[]}.ModelName', maxLength(63), 'api InferenceComponentSpecification'],
  [IC, '{Specification,Specifications[]}.Container.Image', maxLength(255), 'api InferenceComponentContainerSpecification'],
  [IC, '{Specification,Specifications[]}.Container.ArtifactUrl', pattern(S3_URI, 1024), 'api InferenceComponentContainerSpecification'],
  [IC, '{Specification,Specifications[]}.Container.Environment', entries(16), 'api InferenceComponentContainerSpecification (CFN allows 16; the API 100)'],
  [IC, '{Specification,Specifications[]}.StartupParameters.ModelDataDownloadTimeoutInSeconds', between(60, 3600), 'api InferenceComponentStartupParameters'],
  [IC, '{Specification,Specifications[]}.StartupParameters.ContainerStartupHealthCheckTimeoutInSeconds', between(60, 3600), 'api InferenceComponentStartupParameters'],
  [IC, '{Specification,Specifications[]}.ComputeResourceRequirements.NumberOfCpuCoresRequired', atLeast(0.25, false), 'api InferenceComponentComputeResourceRequirements'],
  [IC, '{Specification,Specifications[]}.ComputeResourceRequirements.NumberOfAcceleratorDevicesRequired', atLeast(1, false), 'api InferenceComponentComputeResourceRequirements'],
  [IC, '{Specification,Specifications[]}.ComputeResourceRequirements.MinMemoryRequiredInMb', atLeast(128), 'api InferenceComponentComputeResourceRequirements'],
  [IC, '{Specification,Specifications[]}.ComputeResourceRequirements.MaxMemoryRequiredInMb', atLeast(128), 'api InferenceComponentComputeResourceRequirements'],
  [IC, '{Specification,Specifications[]}.SchedulingConfig.PlacementStrategy', oneOf('SPREAD', 'BINPACK'), 'api InferenceComponentSpecification'],
  [IC, '{Specification,Specifications[]}.SchedulingConfig.AvailabilityZoneBalance.EnforcementMode', oneOf('PERMISSIVE'), 'api InferenceComponentSpecification'],
  [IC, '{Specification,Specifications[]}.SchedulingConfig.AvailabilityZoneBalance.MaxImbalance', between(0, 100), 'api InferenceComponentSpecification'],
  [IC, 'RuntimeConfig.CopyCount', atLeast(0), 'api InferenceComponentRuntimeConfig'],
  [IC, 'DeploymentConfig.RollingUpdatePolicy.MaximumBatchSize.Type', oneOf('COPY_COUNT', 'CAPACITY_PERCENT'), 'api InferenceComponentRollingUpdatePolicy'],
  [IC, 'DeploymentConfig.RollingUpdatePolicy.RollbackMaximumBatchSize.Type', oneOf('COPY_COUNT', 'CAPACITY_PERCENT'), 'api InferenceComponentRollingUpdatePolicy'],
  [IC, 'DeploymentConfig.RollingUpdatePolicy.WaitIntervalInSeconds', between(0, 3600), 'api InferenceComponentRollingUpdatePolicy'],
  [IC, 'DeploymentConfig.RollingUpdatePolicy.MaximumExecutionTimeoutInSeconds', between(600, 28800), 'api InferenceComponentRollingUpdatePolicy'],
  [IC, 'DeploymentConfig.AutoRollbackConfiguration.Alarms', count(1, 10), 'api InferenceComponentDeploymentConfig'],
  // ---- AWS::SageMaker::FeatureGroup ------------------------------------------------------------------------
  [FG, 'FeatureGroupName', pattern(FEATURE_GROUP_NAME, 64), 'api CreateFeatureGroup'],
  [FG, '{RecordIdentifierFeatureName,EventTimeFeatureName,FeatureDefinitions[].FeatureName}', pattern(FEATURE_NAME, 64), 'api CreateFeatureGroup'],
  [FG, 'FeatureDefinitions[].FeatureName', notOneOf('is_deleted', 'write_time', 'api_invocation_time'), 'api CreateFeatureGroup'],
  [FG, 'FeatureDefinitions', count(1, 2500), 'api CreateFeatureGroup'],
  [FG, 'FeatureDefinitions[].FeatureType', oneOf('Integral', 'Fractional', 'String'), 'api FeatureDefinition'],
  [FG, 'Description', maxLength(128), 'api CreateFeatureGroup'],
  [FG, 'Tags', count(0, 50), 'api CreateFeatureGroup'],
  [FG, 'OnlineStoreConfig.StorageType', oneOf('Standard', 'InMemory'), 'cfn AWS::SageMaker::FeatureGroup'],
  [FG, 'OnlineStoreConfig.TtlDuration.Unit', oneOf('Seconds', 'Minutes', 'Hours', 'Days', 'Weeks'), 'api TtlDuration'],
  [FG, 'OnlineStoreConfig.TtlDuration.Value', atLeast(1), 'api TtlDuration'],
  [FG, 'OfflineStoreConfig.S3StorageConfig.S3Uri', pattern(S3_URI, 1024), 'api S3StorageConfig'],
  [FG, 'OfflineStoreConfig.DataCatalogConfig.{TableName,Catalog,Database}', { expected: '1 to 255 characters', ok: (v) => typeof v === 'string' && v.length >= 1 && v.length <= 255 }, 'api DataCatalogConfig'],
  [FG, 'OfflineStoreConfig.TableFormat', oneOf('Iceberg', 'Glue'), 'cfn AWS::SageMaker::FeatureGroup'],
  [FG, 'ThroughputConfig.ThroughputMode', oneOf('OnDemand', 'Provisioned'), 'api ThroughputConfig'],
  [FG, 'ThroughputConfig.{ProvisionedReadCapacityUnits,ProvisionedWriteCapacityUnits}', between(0, 10_000_000), 'api ThroughputConfig'],
  // ---- AWS::ApplicationAutoScaling, SageMaker targets only: see sageMakerScaling() ------------
  ['AWS::ApplicationAutoScaling::ScalableTarget', 'MinCapacity', atLeast(0), 'autoscaling RegisterScalableTarget'],
  ['AWS::ApplicationAutoScaling::ScalingPolicy', 'PolicyType', oneOf('StepScaling', 'TargetTrackingScaling', 'PredictiveScaling'), 'autoscaling PutScalingPolicy'],
  ['AWS::ApplicationAutoScaling::ScalingPolicy', 'StepScalingPolicyConfiguration.AdjustmentType', oneOf('ChangeInCapacity', 'PercentChangeInCapacity', 'ExactCapacity'), 'autoscaling StepScalingPolicyConfiguration'],
  ['AWS::ApplicationAutoScaling::ScalingPolicy', 'StepScalingPolicyConfiguration.MetricAggregationType', oneOf('Average', 'Minimum', 'Maximum'), 'autoscaling StepScalingPolicyConfiguration'],
  ['AWS::ApplicationAutoScaling::ScalingPolicy', 'StepScalingPolicyConfiguration.Cooldown', atLeast(0), 'autoscaling StepScalingPolicyConfiguration'],
  ['AWS::ApplicationAutoScaling::ScalingPolicy', 'StepScalingPolicyConfiguration.StepAdjustments', count(1, 20), 'autoscaling StepScalingPolicyConfiguration'],
  ['AWS::ApplicationAutoScaling::ScalingPolicy', 'TargetTrackingScalingPolicyConfiguration.{ScaleInCooldown,ScaleOutCooldown}', atLeast(0), 'autoscaling TargetTrackingScalingPolicyConfiguration'],
];

/** Expands `a.{B,C[]}.d` into `a.B.d` and `a.C[].d`. */
function expandPath(path: string): string[] {
  const m = /\{([^}]+)\}/.exec(path);
  if (!m) return [path];
  return m[1].split(',').flatMap((alt) => expandPath(path.slice(0, m.index) + alt + path.slice(m.index + m[0].length)));
}

const SAGEMAKER_DIMENSIONS: Record<string, RegExp> = {
  'sagemaker:variant:DesiredInstanceCount': /^endpoint\/[^/]+\/variant\/[^/]+$/,
  'sagemaker:variant:DesiredProvisionedConcurrency': /^endpoint\/[^/]+\/variant\/[^/]+$/,
  'sagemaker:inference-component:DesiredCopyCount': /^inference-component\/[^/]+$/,
};
const SAGEMAKER_PREDEFINED_METRICS = [
  'SageMakerVariantInvocationsPerInstance',
  'SageMakerVariantProvisionedConcurrencyUtilization',
  'SageMakerVariantConcurrentRequestsPerModelHighResolution',
  'SageMakerInferenceComponentInvocationsPerCopy',
  'SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution',
];

/** Fn::Join with only literal parts becomes a string; anything else stays unresolved. */
function literal(v: unknown): unknown {
  if (isObject(v) || !v || typeof v !== 'object' || Array.isArray(v)) return v;
  const fnJoin = (v as Json)['Fn::Join'];
  if (Array.isArray(fnJoin) && Array.isArray(fnJoin[1]) && fnJoin[1].every((p: unknown) => typeof p === 'string')) return fnJoin[1].join(fnJoin[0]);
  return v;
}

/** The ScalableTarget a policy refers to (ScalingTargetId: Ref) or the policy's own namespace/dimension/id. */
function scalingTargetOf(ctx: ResourceContext): Json {
  const ref = ctx.props.ScalingTargetId?.Ref;
  return (ref && ctx.resources[ref]?.Properties) || ctx.props;
}

/** Cross-field API-reference rules that a path/check row cannot express. */
const CROSS_FIELD_RULES: Record<string, (ctx: ResourceContext) => Finding[]> = {
  [EC]: ({ props }) => {
    const out: Finding[] = [];
    for (const [path, pv] of expandPath(PV).flatMap((p) => valuesAt(props, p))) {
      if (!isObject(pv)) continue;
      const sc = pv.ServerlessConfig;
      const pc = asNumber(sc?.ProvisionedConcurrency);
      const mc = asNumber(sc?.MaxConcurrency);
      if (pc !== undefined && mc !== undefined && pc > mc) out.push({ path: `${path}.ServerlessConfig.ProvisionedConcurrency`, value: pc, expected: `<= MaxConcurrency (${mc}) [api ProductionVariantServerlessConfig]` });
      const rc = pv.RoutingConfig;
      if (isObject(rc) && rc.RoutingStrategy === 'PREFIX_AWARE') {
        const pa = rc.PrefixAwareRoutingConfig;
        for (const k of ['PrefixLength', 'ConcurrencyThreshold']) {
          if (!isObject(pa) || pa[k] === undefined) out.push({ path: `${path}.RoutingConfig.PrefixAwareRoutingConfig.${k}`, value: undefined, expected: 'a value when RoutingStrategy is PREFIX_AWARE [api ProductionVariantRoutingConfig]' });
        }
      }
      if (pv.ServerlessConfig === undefined && pv.InstanceType === undefined && pv.InstancePools === undefined) {
        out.push({ path: `${path}.InstanceType`, value: undefined, expected: 'an ml.* instance type (or ServerlessConfig / InstancePools) [api ProductionVariant]' });
      }
    }
    return out;
  },
  'AWS::SageMaker::Endpoint': ({ props }) => {
    // WaitIntervalInSeconds is "Required: Yes" in the API reference (for every Type), optional in the CloudFormation schema.
    const routing = props.DeploymentConfig?.BlueGreenUpdatePolicy?.TrafficRoutingConfiguration;
    return isObject(routing) && routing.WaitIntervalInSeconds === undefined
      ? [{ path: 'DeploymentConfig.BlueGreenUpdatePolicy.TrafficRoutingConfiguration.WaitIntervalInSeconds', value: undefined, expected: 'an integer between 0 and 3600 (required) [api TrafficRoutingConfig]' }]
      : [];
  },
  [IC]: ({ props }) => {
    const out: Finding[] = [];
    const has1 = props.Specification !== undefined;
    const hasN = props.Specifications !== undefined;
    if (has1 === hasN) out.push({ path: 'Specification', value: has1 ? 'both Specification and Specifications' : undefined, expected: 'exactly one of Specification or Specifications [cfn AWS::SageMaker::InferenceComponent]' });
    for (const [path, spec] of [...valuesAt(props, 'Specification'), ...valuesAt(props, 'Specifications[]')]) {
      if (!isObject(spec)) continue;
      if (path.startsWith('Specifications.') && spec.InstanceType === undefined) out.push({ path: `${path}.InstanceType`, value: undefined, expected: 'an instance type in each Specifications entry [api CreateInferenceComponent]' });
      const adapter = spec.BaseInferenceComponentName !== undefined;
      const crr = spec.ComputeResourceRequirements;
      if (!adapter && !isIntrinsic(crr) && (!isObject(crr) || crr.MinMemoryRequiredInMb === undefined)) {
        out.push({ path: `${path}.ComputeResourceRequirements.MinMemoryRequiredInMb`, value: undefined, expected: 'an integer >= 128 (required by the API, optional in CFN) [api CreateInferenceComponent]' });
      }
      const env = spec.Container?.Environment;
      if (isObject(env)) {
        for (const [k, v] of Object.entries(env)) {
          if (!ENV_KEY.test(k)) out.push({ path: `${path}.Container.Environment.${k}`, value: k, expected: `a key matching ${ENV_KEY.source} [api CreateInferenceComponent]` });
          if (typeof v === 'string' && v.length > 1024) out.push({ path: `${path}.Container.Environment.${k}`, value: v, expected: 'a value of at most 1024 characters [api CreateInferenceComponent]' });
        }
      }
    }
    return out;
  },
  [FG]: ({ props }) => {
    const out: Finding[] = [];
    const defs: Json[] = Array.isArray(props.FeatureDefinitions) ? props.FeatureDefinitions : [];
    if (defs.some(isIntrinsic) || !Array.isArray(props.FeatureDefinitions)) return out;
    const typeOf = (name: unknown) => defs.find((d) => isObject(d) && d.FeatureName === name)?.FeatureType;
    for (const k of ['RecordIdentifierFeatureName', 'EventTimeFeatureName']) {
      const name = props[k];
      if (typeof name === 'string' && typeOf(name) === undefined) out.push({ path: k, value: name, expected: `a feature named in FeatureDefinitions (${defs.map((d) => d.FeatureName).join(', ')}) [api CreateFeatureGroup]` });
    }
    const eventType = typeOf(props.EventTimeFeatureName);
    if (eventType !== undefined && !['String', 'Fractional'].includes(eventType)) {
      out.push({ path: 'EventTimeFeatureName', value: `${props.EventTimeFeatureName}: ${eventType}`, expected: 'an event-time feature of type String or Fractional [api CreateFeatureGroup]' });
    }
    if (eventType !== undefined && eventType !== 'String' && props.OfflineStoreConfig?.TableFormat === 'Iceberg') {
      out.push({ path: 'EventTimeFeatureName', value: `${props.EventTimeFeatureName}: ${eventType}`, expected: 'a String event-time feature with the Iceberg table format [api CreateFeatureGroup]' });
    }
    const names = defs.map((d) => d?.FeatureName).filter((n) => typeof n === 'string');
    const dup = names.filter((n, i) => names.indexOf(n) !== i);
    if (dup.length) out.push({ path: 'FeatureDefinitions', value: dup, expected: 'unique feature names [api CreateFeatureGroup]' });
    return out;
  },
  'AWS::ApplicationAutoScaling::ScalableTarget': ({ props }) => sageMakerScaling(props, props),
  'AWS::ApplicationAutoScaling::ScalingPolicy': (ctx) => {
    const { props } = ctx;
    const out: Finding[] = [];
    if (props.PolicyType === 'StepScaling' && props.StepScalingPolicyConfiguration === undefined) out.push({ path: 'StepScalingPolicyConfiguration', value: undefined, expected: 'a value when PolicyType is StepScaling [autoscaling PutScalingPolicy]' });
    if (props.PolicyType === 'TargetTrackingScaling' && props.TargetTrackingScalingPolicyConfiguration === undefined) out.push({ path: 'TargetTrackingScalingPolicyConfiguration', value: undefined, expected: 'a value when PolicyType is TargetTrackingScaling [autoscaling PutScalingPolicy]' });
    const ownTarget = props.ResourceId !== undefined && props.ScalableDimension !== undefined && props.ServiceNamespace !== undefined;
    if (props.ScalingTargetId === undefined && !ownTarget) {
      out.push({ path: 'ScalingTargetId', value: undefined, expected: 'ScalingTargetId, or ResourceId + ScalableDimension + ServiceNamespace [autoscaling PutScalingPolicy]' });
    }
    const target = scalingTargetOf(ctx);
    if (props.ScalingTargetId === undefined) out.push(...sageMakerScaling(props, props));
    if (isSageMaker(target)) {
      const metric = props.TargetTrackingScalingPolicyConfiguration?.PredefinedMetricSpecification?.PredefinedMetricType;
      if (metric !== undefined && !isIntrinsic(metric) && !SAGEMAKER_PREDEFINED_METRICS.includes(metric)) {
        out.push({ path: 'TargetTrackingScalingPolicyConfiguration.PredefinedMetricSpecification.PredefinedMetricType', value: metric, expected: `one of ${SAGEMAKER_PREDEFINED_METRICS.join(', ')} for a SageMaker target [autoscaling RegisterScalableTarget]` });
      }
    }
    return out;
  },
};

function isSageMaker(p: Json): boolean {
  return p?.ServiceNamespace === 'sagemaker' || (typeof p?.ScalableDimension === 'string' && p.ScalableDimension.startsWith('sagemaker:'));
}

function sageMakerScaling(props: Json, source: Json): Finding[] {
  if (!isSageMaker(source)) return [];
  const out: Finding[] = [];
  if (source.ServiceNamespace !== 'sagemaker' && !isIntrinsic(source.ServiceNamespace)) out.push({ path: 'ServiceNamespace', value: source.ServiceNamespace, expected: "'sagemaker' for a sagemaker:* dimension [autoscaling RegisterScalableTarget]" });
  const dim = source.ScalableDimension;
  if (isIntrinsic(dim)) return out;
  const idPattern = SAGEMAKER_DIMENSIONS[dim];
  if (!idPattern) {
    out.push({ path: 'ScalableDimension', value: dim, expected: `one of ${Object.keys(SAGEMAKER_DIMENSIONS).join(', ')} [autoscaling RegisterScalableTarget]` });
    return out;
  }
  const id = literal(props.ResourceId);
  if (typeof id === 'string' && !idPattern.test(id)) out.push({ path: 'ResourceId', value: id, expected: `a resource id matching ${idPattern.source} for ${dim} [autoscaling RegisterScalableTarget]` });
  const min = asNumber(props.MinCapacity);
  const max = asNumber(props.MaxCapacity);
  if (min !== undefined && max !== undefined && max < min) out.push({ path: 'MaxCapacity', value: max, expected: `>= MinCapacity (${min}) [autoscaling PutScalingPolicy]` });
  return out;
}

function factFindings(ctx: ResourceContext): Array<Finding & { source: string }> {
  const out: Array<Finding & { source: string }> = [];
  for (const [type, path, check, source] of FACT_RULES) {
    if (type !== ctx.type) continue;
    for (const p of expandPath(path)) {
      for (const [at, value] of valuesAt(ctx.props, p)) {
        if (isIntrinsic(value) || check.ok(value)) continue;
        out.push({ path: at, value, expected: check.expected, source });
      }
    }
  }
  for (const f of CROSS_FIELD_RULES[ctx.type]?.(ctx) ?? []) {
    const m = / \[((?:api|cfn|autoscaling) [^\]]*)\]$/.exec(f.expected);
    out.push({ ...f, expected: m ? f.expected.slice(0, m.index) : f.expected, source: m ? m[1] : 'api' });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// 3. aws-cdk-lib's built-in CloudFormation validation, run on the template object
// ---------------------------------------------------------------------------------------------------------------

let localPlugin: CloudFormationValidatePlugin | undefined;

function cdkValidateProblems(template: object): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'template-checks-'));
  try {
    const file = join(dir, 'template.json');
    writeFileSync(file, JSON.stringify(template));
    // One plugin keeps the validation engine warm across tests (initialising it is the slow part); under jest, one
    // engine serves every test file of a worker.
    const validate = shared?.cloudFormationValidate ?? ((context: IPolicyValidationContext) =>
      (localPlugin ??= new CloudFormationValidatePlugin()).validate(context));
    const report = validate({
      templatePaths: [file],
      stackTemplates: [{ stackConstructPath: 'Template', templatePath: file, accountId: undefined, region: undefined }],
      appConstruct: new App(),
    } as any);
    const resources: Record<string, Json> = (template as Json).Resources ?? {};
    return report.violations.flatMap((v) => v.violatingResources.map((r) => {
      const id = r.resourceLogicalId ?? '?';
      const where = r.locations.length ? r.locations.join(', ') : 'resource';
      const description = v.description.length > 300 ? `${v.description.slice(0, 300)}…` : v.description;
      return `${id} (${resources[id]?.Type ?? '?'}) ${where}: ${description}${v.fix ? ` (${v.fix})` : ''} [cdk-validate ${v.ruleName} ${v.severity ?? ''}]`.replace(' ]', ']');
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------------------

/** Every problem found in a synthesized CloudFormation template (see the file header). */
export function templateProblems(template: object, opts: TemplateCheckOptions = {}): string[] {
  const resources: Record<string, Json> = (template as Json).Resources ?? {};
  const problems: string[] = [];
  for (const [logicalId, resource] of Object.entries(resources)) {
    const type: string = resource.Type;
    const props = resource.Properties ?? {};
    const head = `${logicalId} (${type})`;
    const schema = schemaFindings(type, props);
    if (schema === 'unknown-type') {
      problems.push(`${head} Type: got ${show(type)}, expected a resource type in the CloudFormation resource specification [schema]`);
    } else {
      for (const f of schema) problems.push(`${head} ${f.path}: got ${show(f.value)}, expected ${f.expected} [schema]`);
    }
    // An API-reference enum that the schema DB also knows would be reported twice for the same path.
    const schemaPaths = new Set(schema === 'unknown-type' ? [] : schema.map((f) => f.path));
    for (const f of factFindings({ logicalId, type, props, resources }).filter((x) => !schemaPaths.has(x.path))) {
      problems.push(`${head} ${f.path}: got ${show(f.value)}, expected ${f.expected} [${f.source}]`);
    }
  }
  // 4. [iam-ref] every IAM statement against AWS's Service Authorization Reference (test/support/iam-reference.ts)
  problems.push(...iamReferenceProblems(template));
  if (opts.cdkValidate ?? true) problems.push(...cdkValidateProblems(template));
  const ignore = opts.ignore ?? [];
  return problems.filter((p) => !ignore.some((i) => (typeof i === 'string' ? p.includes(i) : i.test(p))));
}

/** Throws one Error listing every problem in the stack's (or template object's) template. */
export function expectValidTemplate(stackOrTemplate: Stack | object, opts: TemplateCheckOptions = {}): void {
  const template = Stack.isStack(stackOrTemplate) ? Template.fromStack(stackOrTemplate).toJSON() : stackOrTemplate;
  const problems = templateProblems(template, opts);
  if (problems.length > 0) {
    throw new Error(`Template has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}
