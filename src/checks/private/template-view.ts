/**
 * A read-only view over one synthesized CloudFormation template, with the intra-template reference resolution the
 * rules need (Ref / Fn::GetAtt to logical ids, literal names, Fn::Join of literals). Anything it cannot resolve
 * comes back `undefined`, and rules skip rather than guess.
 */
export interface CfnResourceJson {
  readonly Type: string;
  readonly Properties?: { [key: string]: any };
}

export interface ResourceRef {
  readonly logicalId: string;
  readonly type: string;
  readonly props: { [key: string]: any };
}

export class TemplateView {
  private readonly resources: { [logicalId: string]: CfnResourceJson };

  constructor(template: any) {
    this.resources = (template && template.Resources) || {};
  }

  /** Every resource of a CloudFormation type, in template order. */
  public ofType(type: string): ResourceRef[] {
    return Object.entries(this.resources)
      .filter(([, r]) => r && r.Type === type)
      .map(([logicalId, r]) => ({ logicalId, type, props: r.Properties ?? {} }));
  }

  public get(logicalId: string): ResourceRef | undefined {
    const r = this.resources[logicalId];
    return r ? { logicalId, type: r.Type, props: r.Properties ?? {} } : undefined;
  }

  /** The logical id a `Ref` or `Fn::GetAtt` points at (if it is in this template). */
  public referencedId(value: unknown): string | undefined {
    if (!isPlainObject(value)) return undefined;
    const ref = (value as any).Ref;
    if (typeof ref === 'string' && this.resources[ref]) return ref;
    const getAtt = (value as any)['Fn::GetAtt'];
    const id = Array.isArray(getAtt) ? getAtt[0] : typeof getAtt === 'string' ? getAtt.split('.')[0] : undefined;
    return typeof id === 'string' && this.resources[id] ? id : undefined;
  }

  /**
   * The resource of `type` that `value` names: a Ref/GetAtt to it, or a literal equal to its `nameProp`.
   * `undefined` when the value is unresolvable or names nothing in this template.
   */
  public resolveNamed(value: unknown, type: string, nameProp: string): ResourceRef | undefined {
    const id = this.referencedId(value);
    if (id) {
      const r = this.get(id)!;
      return r.type === type ? r : undefined;
    }
    const name = literalString(value);
    if (name === undefined) return undefined;
    return this.ofType(type).find((r) => literalString(r.props[nameProp]) === name);
  }

  /**
   * The endpoint a `endpoint/<name>/variant/<variant>` resource id points at, with the variant name when literal.
   * Handles literals and `Fn::Join` whose name part is a literal or a Ref/GetAtt to an endpoint.
   */
  public endpointOfResourceId(resourceId: unknown): { endpoint: ResourceRef; variantName?: string } | undefined {
    const literal = literalString(resourceId);
    if (literal !== undefined) {
      const m = /^endpoint\/([^/]+)\/variant\/([^/]+)$/.exec(literal);
      if (!m) return undefined;
      const endpoint = this.ofType('AWS::SageMaker::Endpoint').find((e) => literalString(e.props.EndpointName) === m[1]);
      return endpoint ? { endpoint, variantName: m[2] } : undefined;
    }
    const join = isPlainObject(resourceId) ? (resourceId as any)['Fn::Join'] : undefined;
    if (!Array.isArray(join) || !Array.isArray(join[1])) return undefined;
    const endpoints = join[1]
      .map((part: unknown) => this.referencedId(part))
      .filter((id: string | undefined): id is string => id !== undefined && this.get(id)!.type === 'AWS::SageMaker::Endpoint');
    if (endpoints.length !== 1) return undefined;
    const last = join[1][join[1].length - 1];
    const variant = typeof last === 'string' ? /variant\/([^/]+)$/.exec(last)?.[1] : undefined;
    return { endpoint: this.get(endpoints[0])!, variantName: variant };
  }

  /** The endpoint config an endpoint uses. */
  public configOfEndpoint(endpoint: ResourceRef): ResourceRef | undefined {
    return this.resolveNamed(endpoint.props.EndpointConfigName, 'AWS::SageMaker::EndpointConfig', 'EndpointConfigName');
  }

  /** The scalable target a scaling policy belongs to (ScalingTargetId Ref, or a target with the same id/dimension). */
  public targetOfPolicy(policy: ResourceRef): ResourceRef | undefined {
    const id = this.referencedId(policy.props.ScalingTargetId);
    if (id) return this.get(id)!.type === 'AWS::ApplicationAutoScaling::ScalableTarget' ? this.get(id) : undefined;
    if (policy.props.ResourceId === undefined) return undefined;
    const key = JSON.stringify([policy.props.ResourceId, policy.props.ScalableDimension]);
    return this.ofType('AWS::ApplicationAutoScaling::ScalableTarget')
      .find((t) => JSON.stringify([t.props.ResourceId, t.props.ScalableDimension]) === key);
  }

  /** Every ScalingPolicy whose target is `target`. */
  public policiesOfTarget(target: ResourceRef): ResourceRef[] {
    return this.ofType('AWS::ApplicationAutoScaling::ScalingPolicy').filter((p) => this.targetOfPolicy(p)?.logicalId === target.logicalId);
  }
}

export function isPlainObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A string (or number) value, or a `Fn::Join` of only literals; `undefined` for anything unresolved. */
export function literalString(v: unknown): string | undefined {
  if (typeof v === 'string') return v.includes('${Token[') ? undefined : v;
  if (typeof v === 'number') return String(v);
  const join = isPlainObject(v) ? (v as any)['Fn::Join'] : undefined;
  if (Array.isArray(join) && typeof join[0] === 'string' && Array.isArray(join[1])) {
    const parts = join[1].map(literalString);
    return parts.every((p: string | undefined) => p !== undefined) ? parts.join(join[0]) : undefined;
  }
  return undefined;
}

/**
 * The literal text of a value with unresolved parts replaced by `*`: enough to recognise an image repository
 * (`...dkr.ecr.*.amazonaws.com/djl-inference:...`) whose account or region is a token.
 */
export function literalShape(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (!isPlainObject(v)) return undefined;
  const join = (v as any)['Fn::Join'];
  if (Array.isArray(join) && Array.isArray(join[1])) return join[1].map((p: unknown) => literalShape(p) ?? '*').join(join[0] ?? '');
  const sub = (v as any)['Fn::Sub'];
  if (typeof sub === 'string') return sub.replace(/\$\{[^}]+\}/g, '*');
  if (Array.isArray(sub) && typeof sub[0] === 'string') return sub[0].replace(/\$\{[^}]+\}/g, '*');
  return undefined;
}

/** A number, or a numeric string; `undefined` for tokens and anything else. */
export function literalNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** A value is known to be absent (not a token that might produce one). */
export function isAbsent(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/**
 * A variant's literal instance types: its `InstanceType`, or the `InstanceType` of each of its `InstancePools`
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_InstancePool.html). Tokens are left out.
 */
export function variantInstanceTypesOf(variant: any): string[] {
  const pools = Array.isArray(variant.InstancePools) ? variant.InstancePools.filter(isPlainObject) : [];
  return [variant.InstanceType, ...pools.map((p: any) => p.InstanceType)]
    .map(literalString).filter((t): t is string => t !== undefined);
}

/** All production variants (plus shadow variants) of an endpoint config. */
export function variantsOf(config: ResourceRef): any[] {
  const all = [config.props.ProductionVariants, config.props.ShadowProductionVariants];
  return all.flatMap((v) => (Array.isArray(v) ? v.filter(isPlainObject) : []));
}
