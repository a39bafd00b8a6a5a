/**
 * What the demo reads back from a synthesized stack: each CloudFormation resource with its construct path and the
 * library construct that owns it, and a renderer that turns `Ref` / `Fn::GetAtt` / `Fn::Join` / `Fn::Sub` into
 * ARN-like strings (`arn:${Partition}:s3:::<DocProcessor/Bucket>/inputs/*`) for people to read.
 */
import { CfnElement, Stack } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import * as library from '../src';

export interface DemoResource {
  readonly logicalId: string;
  readonly type: string;
  readonly properties: any;
  /** Construct path below the stack, without the trailing `/Resource` (e.g. `DocProcessor/Bucket`). */
  readonly path: string;
  /** The outermost construct of this library that contains the resource, if any. */
  readonly owner?: IConstruct;
}

/** Our classes, from the library's jsii entry point (the most specific class wins for a subclass). */
const ourClasses = Object.entries(library)
  .filter(([, v]) => typeof v === 'function' && (v as any).prototype)
  .map(([name, cls]) => ({ name, cls: cls as new (...args: any[]) => unknown }));

export function ourClassOf(c: IConstruct): string | undefined {
  const matches = ourClasses.filter(({ cls }) => c instanceof cls);
  matches.sort((a, b) => (a.cls.prototype instanceof b.cls ? -1 : b.cls.prototype instanceof a.cls ? 1 : 0));
  return matches[0]?.name;
}

/** Every construct of this library in the stack, outermost first, with its nesting depth. */
export function ourConstructs(stack: Stack): Array<{ construct: IConstruct; className: string; depth: number }> {
  const found: Array<{ construct: IConstruct; className: string; depth: number }> = [];
  const walk = (c: IConstruct, depth: number) => {
    const className = c === stack ? undefined : ourClassOf(c);
    if (className) found.push({ construct: c, className, depth });
    for (const child of c.node.children) walk(child, className ? depth + 1 : depth);
  };
  walk(stack, 0);
  return found;
}

export function relativePath(stack: Stack, c: IConstruct): string {
  return c.node.path.slice(stack.node.path.length + 1).replace(/\/Resource(?=\/|$)/g, '');
}

/** The template's resources, keyed by logical id, joined with the construct tree. */
export function indexResources(stack: Stack, template: any): Map<string, DemoResource> {
  const owners = ourConstructs(stack).filter((o) => o.depth === 0);
  const index = new Map<string, DemoResource>();
  for (const c of stack.node.findAll()) {
    if (!CfnElement.isCfnElement(c)) continue;
    const logicalId = stack.resolve(c.logicalId) as string;
    const r = template.Resources?.[logicalId];
    if (!r) continue;
    const owner = owners.find((o) => c.node.path.startsWith(`${o.construct.node.path}/`))?.construct;
    index.set(logicalId, { logicalId, type: r.Type, properties: r.Properties ?? {}, path: relativePath(stack, c), owner });
  }
  return index;
}

const NAME_PROPS = ['EndpointName', 'FeatureGroupName', 'PipelineName', 'InferenceComponentName', 'TableName', 'BucketName',
  'QueueName', 'TopicName', 'FunctionName', 'RoleName', 'Name'];

/** The physical name written in the template, or `<construct path>` for a name CloudFormation generates. */
export function displayName(r: DemoResource): string {
  const literal = NAME_PROPS.map((p) => r.properties[p]).find((v) => typeof v === 'string');
  return literal ?? `<${r.path}>`;
}

const P = '${Partition}';
const R = '${Region}';
const A = '${Account}';
const ARNS: Record<string, (name: string) => string> = {
  'AWS::S3::Bucket': (n) => `arn:${P}:s3:::${n}`,
  'AWS::DynamoDB::Table': (n) => `arn:${P}:dynamodb:${R}:${A}:table/${n}`,
  'AWS::SQS::Queue': (n) => `arn:${P}:sqs:${R}:${A}:${n}`,
  'AWS::SNS::Topic': (n) => `arn:${P}:sns:${R}:${A}:${n}`,
  'AWS::Lambda::Function': (n) => `arn:${P}:lambda:${R}:${A}:function:${n}`,
  'AWS::IAM::Role': (n) => `arn:${P}:iam::${A}:role/${n}`,
  'AWS::KMS::Key': (n) => `arn:${P}:kms:${R}:${A}:key/${n}`,
  'AWS::SecretsManager::Secret': (n) => `arn:${P}:secretsmanager:${R}:${A}:secret:${n}`,
  'AWS::Logs::LogGroup': (n) => `arn:${P}:logs:${R}:${A}:log-group:${n}:*`,
  'AWS::Events::Rule': (n) => `arn:${P}:events:${R}:${A}:rule/${n}`,
  'AWS::SageMaker::Endpoint': (n) => `arn:${P}:sagemaker:${R}:${A}:endpoint/${n}`,
  'AWS::SageMaker::EndpointConfig': (n) => `arn:${P}:sagemaker:${R}:${A}:endpoint-config/${n}`,
  'AWS::SageMaker::Model': (n) => `arn:${P}:sagemaker:${R}:${A}:model/${n}`,
  'AWS::SageMaker::InferenceComponent': (n) => `arn:${P}:sagemaker:${R}:${A}:inference-component/${n}`,
  'AWS::SageMaker::FeatureGroup': (n) => `arn:${P}:sagemaker:${R}:${A}:feature-group/${n}`,
  'AWS::SageMaker::Pipeline': (n) => `arn:${P}:sagemaker:${R}:${A}:pipeline/${n}`,
};
/** Types whose `Ref` is the ARN (CloudFormation's "Return values" of each resource type); the others return the name. */
const REF_IS_ARN = new Set(['AWS::SNS::Topic', 'AWS::SecretsManager::Secret', 'AWS::SageMaker::Endpoint',
  'AWS::SageMaker::EndpointConfig', 'AWS::SageMaker::Model', 'AWS::SageMaker::InferenceComponent']);
const PSEUDO: Record<string, string> = {
  'AWS::Partition': P, 'AWS::Region': R, 'AWS::AccountId': A, 'AWS::URLSuffix': '${URLSuffix}', 'AWS::StackName': '${StackName}',
};

/** Renders a template value (string or intrinsic) as a readable string. */
export function renderValue(value: unknown, index: Map<string, DemoResource>): string {
  const ref = (id: string): string => {
    if (PSEUDO[id]) return PSEUDO[id];
    const r = index.get(id);
    if (!r) return `\${${id}}`;
    return REF_IS_ARN.has(r.type) && ARNS[r.type] ? ARNS[r.type](displayName(r)) : displayName(r);
  };
  const getAtt = (id: string, attr: string): string => {
    const r = index.get(id);
    if (!r) return `\${${id}.${attr}}`;
    if (/Arn$/.test(attr) && ARNS[r.type]) return ARNS[r.type](displayName(r));
    if (/Name$/.test(attr)) return displayName(r);
    return `<${r.path}.${attr}>`;
  };
  const render = (v: any): string => {
    if (typeof v === 'string') return v;
    if (typeof v !== 'object' || v === null) return String(v);
    if (Array.isArray(v)) return v.map(render).join(', ');
    if ('Ref' in v) return ref(v.Ref);
    if ('Fn::GetAtt' in v) return getAtt(v['Fn::GetAtt'][0], v['Fn::GetAtt'][1]);
    if ('Fn::Join' in v) return (v['Fn::Join'][1] as unknown[]).map(render).join(v['Fn::Join'][0]);
    // e.g. a Glue table name suffixed with part of the stack id: split(split(<stack id>, '/')[2], '-')[0]
    if ('Fn::Select' in v) return `${render(v['Fn::Select'][1])}[${render(v['Fn::Select'][0])}]`;
    if ('Fn::Split' in v) return `split(${render(v['Fn::Split'][1])}, '${v['Fn::Split'][0]}')`;
    if ('Fn::Sub' in v) {
      const text: string = Array.isArray(v['Fn::Sub']) ? v['Fn::Sub'][0] : v['Fn::Sub'];
      return text.replace(/\$\{([^}.]+)(?:\.([^}]+))?\}/g, (_m, id, attr) => (attr ? getAtt(id, attr) : ref(id)));
    }
    return JSON.stringify(v);
  };
  return render(value);
}

/** Logical ids a template value refers to (`Ref`, `Fn::GetAtt`, `Fn::Sub`), pseudo parameters excluded. */
export function referencedIds(value: unknown): Set<string> {
  const ids = new Set<string>();
  const walk = (v: any) => {
    if (typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) return v.forEach(walk);
    if (typeof v.Ref === 'string' && !v.Ref.startsWith('AWS::')) ids.add(v.Ref);
    if (Array.isArray(v['Fn::GetAtt'])) ids.add(v['Fn::GetAtt'][0]);
    if (typeof v['Fn::Sub'] === 'string') for (const m of v['Fn::Sub'].matchAll(/\$\{([^}.]+)/g)) if (!m[1].startsWith('AWS::')) ids.add(m[1]);
    Object.values(v).forEach(walk);
  };
  walk(value);
  return ids;
}
