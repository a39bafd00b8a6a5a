/**
 * Security checks over a synthesized CloudFormation template (and the construct tree, for acknowledgements). Each
 * returns a list of problems, one line each, empty when the template passes:
 *
 * - `wildcardDataPlaneGrants`: IAM statements allowing sagemaker/s3/dynamodb/sns/sqs actions (or `*`) on an
 *   account-wide resource: `*`, an ARN whose resource part is `*`, whose region or account is `*`, or any S3 bucket
 *   (`arn:aws:s3:::*...`). `Fn::Join`/`Fn::Sub` are rendered with placeholders for references, so a literal wildcard
 *   assembled from parts is still seen. Also an Allow with `NotAction` or `NotResource`.
 * - `unencryptedStores`: S3 buckets without KMS BucketEncryption, DynamoDB tables without KMS SSE, SQS queues and SNS
 *   topics without KmsMasterKeyId, feature groups without online/offline KmsKeyId, endpoint configs without KmsKeyId
 *   when no variant has NVMe instance storage, and endpoint configs WITH a KmsKeyId when any variant has (the API
 *   refuses it there; the hardware encrypts instance storage).
 * - `storesWithoutTlsOnly`: buckets, queues and topics whose resource policy has no `aws:SecureTransport` = false Deny.
 * - `acknowledgementsWithoutReason`: `aws:cdk:acknowledged-rules` metadata entries (`{ [ruleId]: reason }`) whose
 *   reason is empty.
 */
import { IConstruct } from 'constructs';
import { InstanceType } from '../../src/core';
import { instanceSpecs } from '../../src/private/instance-table';
import { authorizedOnStarOnly } from '../support/iam-reference';

type Json = any;
type Resources = Record<string, Json>;

const DATA_SERVICES = /^(sagemaker|s3|dynamodb|sns|sqs):/i;
const ACKNOWLEDGED_RULES = 'aws:cdk:acknowledged-rules';

const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** A reference's placeholder: no `*` and no `:`, so it never looks like a wildcard nor shifts an ARN's fields. */
const placeholder = (kind: string, name: string) => `{${kind} ${name.replace(/:+/g, '.')}}`;

/** A value rendered as text: literals kept, references as `{Ref X}` / `{GetAtt X.Y}` placeholders. */
export function render(value: Json): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || typeof value !== 'object') return String(value);
  if ('Ref' in value) {
    const pseudo: Record<string, string> = { 'AWS::Partition': 'aws', 'AWS::URLSuffix': 'amazonaws.com' };
    return pseudo[value.Ref] ?? placeholder('Ref', value.Ref);
  }
  if ('Fn::GetAtt' in value) return placeholder('GetAtt', asList(value['Fn::GetAtt']).map(render).join('.'));
  if ('Fn::Join' in value) {
    const [separator, parts] = value['Fn::Join'];
    return asList(parts).map(render).join(separator);
  }
  if ('Fn::Sub' in value) {
    const [text, vars] = Array.isArray(value['Fn::Sub']) ? value['Fn::Sub'] : [value['Fn::Sub'], {}];
    return String(text).replace(/\$\{([^}]+)\}/g, (_m, name: string) =>
      (vars && name in vars ? render(vars[name]) : name === 'AWS::Partition' ? 'aws' : placeholder('Ref', name)));
  }
  const [fn] = Object.keys(value);
  return placeholder(fn, '');
}

/** Whether a rendered resource covers a whole account (or more) rather than named resources. */
export function isAccountWide(resource: string): boolean {
  if (resource === '*') return true;
  const arn = /^arn:([^:]*):([^:]*):([^:]*):([^:]*):(.*)$/.exec(resource);
  if (!arn) return false;
  const [, , service, region, account, rest] = arn;
  if (rest === '*' || region === '*' || account === '*') return true;
  // S3 ARNs carry no account: a bucket part of `*` means every bucket.
  return service === 's3' && /^\*/.test(rest);
}

interface Statement {
  readonly where: string;
  readonly statement: Json;
}

/** Every statement of every identity policy: AWS::IAM::Policy, AWS::IAM::ManagedPolicy and roles' inline policies. */
export function identityStatements(resources: Resources): Statement[] {
  const out: Statement[] = [];
  for (const [id, r] of Object.entries(resources)) {
    const docs: Array<[string, Json]> = [];
    if (r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy') docs.push([id, r.Properties?.PolicyDocument]);
    if (r.Type === 'AWS::IAM::Role' || r.Type === 'AWS::IAM::User' || r.Type === 'AWS::IAM::Group') {
      for (const p of r.Properties?.Policies ?? []) docs.push([`${id}.Policies[${p.PolicyName}]`, p.PolicyDocument]);
    }
    for (const [where, doc] of docs) for (const s of asList(doc?.Statement)) out.push({ where, statement: s });
  }
  return out;
}

export function wildcardDataPlaneGrants(template: Json): string[] {
  const problems: string[] = [];
  for (const { where, statement: s } of identityStatements(template.Resources ?? {})) {
    if (s.Effect !== 'Allow') continue;
    if (s.NotAction !== undefined || s.NotResource !== undefined) {
      problems.push(`${where}: an Allow with ${s.NotAction !== undefined ? 'NotAction' : 'NotResource'}`);
      continue;
    }
    // An action IAM can authorize only on `*` (no required resource type in AWS's reference) is not a wide grant.
    const actions = asList<string>(s.Action).map(render).filter((a) => a === '*' || (DATA_SERVICES.test(a) && !authorizedOnStarOnly(a)));
    if (actions.length === 0) continue;
    const wide = asList(s.Resource).map(render).filter(isAccountWide);
    if (wide.length > 0) problems.push(`${where}: ${actions.join(', ')} on ${wide.join(', ')}`);
  }
  return problems;
}

const hasValue = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * The variants' instance types with NVMe instance storage. CreateEndpointConfig API reference: local storage volumes
 * are encrypted by a hardware module on the instance, and "If any of the models that you specify in the
 * ProductionVariants parameter use nitro-based instances with local storage, do not specify a value for the KmsKeyId
 * parameter ... the call to CreateEndpointConfig fails."
 */
function nvmeVariantTypes(props: Json): string[] {
  return asList(props.ProductionVariants).map((v: Json) => v.InstanceType)
    .filter((t: unknown): t is string => typeof t === 'string' && instanceSpecs(InstanceType.of(t).name)?.localNvme === true);
}

export function unencryptedStores(template: Json): string[] {
  const problems: string[] = [];
  for (const [id, r] of Object.entries<Json>(template.Resources ?? {})) {
    const p = r.Properties ?? {};
    switch (r.Type) {
      case 'AWS::S3::Bucket': {
        const rules = asList(p.BucketEncryption?.ServerSideEncryptionConfiguration);
        const kms = rules.length > 0 && rules.every((rule: Json) => /^aws:kms(:dsse)?$/.test(rule.ServerSideEncryptionByDefault?.SSEAlgorithm ?? ''));
        if (!kms) problems.push(`${id} (S3 bucket): no KMS BucketEncryption`);
        break;
      }
      case 'AWS::DynamoDB::Table':
      case 'AWS::DynamoDB::GlobalTable': {
        const sse = p.SSESpecification ?? {};
        if (sse.SSEEnabled !== true || (sse.SSEType !== undefined && sse.SSEType !== 'KMS')) problems.push(`${id} (DynamoDB table): SSESpecification is not KMS`);
        else if (r.Type === 'AWS::DynamoDB::Table' && !hasValue(sse.KMSMasterKeyId)) problems.push(`${id} (DynamoDB table): no customer-managed KMSMasterKeyId`);
        break;
      }
      case 'AWS::SQS::Queue':
        if (!hasValue(p.KmsMasterKeyId)) problems.push(`${id} (SQS queue): no KmsMasterKeyId`);
        break;
      case 'AWS::SNS::Topic':
        if (!hasValue(p.KmsMasterKeyId)) problems.push(`${id} (SNS topic): no KmsMasterKeyId`);
        break;
      case 'AWS::SageMaker::FeatureGroup':
        if (p.OnlineStoreConfig?.EnableOnlineStore === true && !hasValue(p.OnlineStoreConfig?.SecurityConfig?.KmsKeyId)) {
          problems.push(`${id} (feature group): online store without SecurityConfig.KmsKeyId`);
        }
        if (p.OfflineStoreConfig && !hasValue(p.OfflineStoreConfig.S3StorageConfig?.KmsKeyId)) {
          problems.push(`${id} (feature group): offline store without S3StorageConfig.KmsKeyId`);
        }
        break;
      case 'AWS::SageMaker::EndpointConfig': {
        const nvme = nvmeVariantTypes(p);
        // A serverless variant has no instance and no ML storage volume for KmsKeyId to encrypt (docs/serverless.md).
        const instanceBased = (p.ProductionVariants ?? []).some((v: any) => v.InstanceType !== undefined);
        if (instanceBased && nvme.length === 0 && !hasValue(p.KmsKeyId)) problems.push(`${id} (endpoint config): no KmsKeyId on EBS-backed instances`);
        if (nvme.length > 0 && hasValue(p.KmsKeyId)) {
          problems.push(`${id} (endpoint config): KmsKeyId with NVMe instance storage (${nvme.join(', ')}): CreateEndpointConfig fails`);
        }
        break;
      }
    }
  }
  return problems;
}

function deniesInsecureTransport(doc: Json): boolean {
  return asList(doc?.Statement).some((s: Json) => {
    const bool = s.Condition?.Bool ?? {};
    const value = bool['aws:SecureTransport'];
    return s.Effect === 'Deny' && (value === 'false' || value === false);
  });
}

/** The logical id a policy's target refers to (`Ref` or `GetAtt .Arn`), if any. */
function refOf(target: Json): string | undefined {
  if (target?.Ref) return target.Ref;
  if (target?.['Fn::GetAtt']) return asList<string>(target['Fn::GetAtt'])[0];
  return undefined;
}

export function storesWithoutTlsOnly(template: Json): string[] {
  const resources: Resources = template.Resources ?? {};
  const covered = new Set<string>();
  const policies: Array<[string, Json, Json[]]> = [];
  for (const [id, r] of Object.entries<Json>(resources)) {
    const p = r.Properties ?? {};
    if (r.Type === 'AWS::S3::BucketPolicy') policies.push([id, p.PolicyDocument, [p.Bucket]]);
    if (r.Type === 'AWS::SQS::QueuePolicy') policies.push([id, p.PolicyDocument, asList(p.Queues)]);
    if (r.Type === 'AWS::SNS::TopicPolicy') policies.push([id, p.PolicyDocument, asList(p.Topics)]);
  }
  const problems: string[] = [];
  for (const [id, doc, targets] of policies) {
    if (!deniesInsecureTransport(doc)) problems.push(`${id}: no Deny when aws:SecureTransport is false`);
    else for (const t of targets) if (refOf(t)) covered.add(refOf(t)!);
  }
  const stores: Record<string, string> = { 'AWS::S3::Bucket': 'S3 bucket', 'AWS::SQS::Queue': 'SQS queue', 'AWS::SNS::Topic': 'SNS topic' };
  for (const [id, r] of Object.entries<Json>(resources)) {
    if (stores[r.Type] && !covered.has(id)) problems.push(`${id} (${stores[r.Type]}): no TLS-only resource policy`);
  }
  return problems;
}

export interface Acknowledgement {
  readonly path: string;
  readonly ruleId: string;
  readonly reason: string;
}

/** Every acknowledgement in the tree under `root`. */
export function acknowledgements(root: IConstruct): Acknowledgement[] {
  const out: Acknowledgement[] = [];
  for (const c of root.node.findAll()) {
    for (const entry of c.node.metadata) {
      if (entry.type !== ACKNOWLEDGED_RULES || !entry.data) continue;
      for (const [ruleId, reason] of Object.entries(entry.data as Record<string, unknown>)) {
        out.push({ path: c.node.path, ruleId, reason: typeof reason === 'string' ? reason : '' });
      }
    }
  }
  return out;
}

export function acknowledgementsWithoutReason(root: IConstruct): string[] {
  return acknowledgements(root).filter((a) => a.reason.trim() === '').map((a) => `${a.ruleId} at ${a.path}: empty reason`);
}
