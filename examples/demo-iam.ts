/**
 * IAM statements of a synthesized stack, grouped by the role that gets them, with resources rendered as ARN-like
 * strings instead of `Fn::Join` JSON.
 */
import { DemoResource, displayName, referencedIds, renderValue } from './demo-model';

export interface DemoStatement {
  readonly roleId?: string;
  readonly policyId: string;
  readonly effect: string;
  readonly actions: string[];
  /** The statement's `Resource`, as the template has it. */
  readonly resources: unknown[];
  readonly condition?: unknown;
}

/** Every statement of every `AWS::IAM::Policy` and inline role policy, with the role(s) it is attached to. */
export function iamStatements(index: Map<string, DemoResource>): DemoStatement[] {
  const out: DemoStatement[] = [];
  const add = (policyId: string, roleIds: string[], doc: any) => {
    for (const s of doc?.Statement ?? []) {
      const actions: string[] = [].concat(s.Action ?? s.NotAction ?? []);
      const base = { policyId, effect: s.Effect, actions, resources: [].concat(s.Resource ?? []), condition: s.Condition };
      if (roleIds.length === 0) out.push(base);
      for (const roleId of roleIds) out.push({ ...base, roleId });
    }
  };
  for (const r of index.values()) {
    if (r.type === 'AWS::IAM::Policy') add(r.logicalId, [...referencedIds(r.properties.Roles ?? [])], r.properties.PolicyDocument);
    if (r.type === 'AWS::IAM::Role') for (const p of r.properties.Policies ?? []) add(r.logicalId, [r.logicalId], p.PolicyDocument);
  }
  return out;
}

/** Who assumes a role, for the heading: the functions or SageMaker resources that use it, else the role's path. */
function roleUsers(roleId: string, index: Map<string, DemoResource>): string {
  const users = [...index.values()]
    .filter((r) => r.type !== 'AWS::IAM::Policy' && r.logicalId !== roleId && referencedIds(r.properties.Role ?? r.properties.RoleArn ?? r.properties.ExecutionRoleArn ?? []).has(roleId))
    .map((r) => `${r.type.split('::').slice(1).join(' ')} ${displayName(r)}`);
  return users.length ? users.join(', ') : index.get(roleId)?.path ?? roleId;
}

/** One block per role: `Allow s3:GetObject on arn:${Partition}:s3:::<DocProcessor/Bucket>/inputs/*`. */
export function formatIamStatements(index: Map<string, DemoResource>): string[] {
  const lines: string[] = [];
  const byRole = new Map<string, DemoStatement[]>();
  for (const s of iamStatements(index)) {
    const key = s.roleId ?? `(policy ${s.policyId})`;
    byRole.set(key, [...(byRole.get(key) ?? []), s]);
  }
  for (const [roleId, statements] of byRole) {
    lines.push(`  role ${index.get(roleId)?.path ?? roleId}  (used by ${roleUsers(roleId, index)})`);
    for (const s of statements) {
      const resources = s.resources.map((v) => renderValue(v, index));
      const when = s.condition ? `\n        when ${renderCondition(s.condition, index)}` : '';
      lines.push(`    ${s.effect} ${s.actions.join(', ')}`);
      for (const r of resources) lines.push(`        on ${r}`);
      if (when) lines.push(when.slice(1));
    }
  }
  return lines;
}

function renderCondition(condition: any, index: Map<string, DemoResource>): string {
  const parts: string[] = [];
  for (const [op, tests] of Object.entries<any>(condition)) {
    for (const [key, value] of Object.entries<any>(tests)) {
      const values = [].concat(value).map((v) => renderValue(v, index));
      parts.push(`${key} ${op} ${values.join(' | ')}`);
    }
  }
  return parts.join(' and ');
}
