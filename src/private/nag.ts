import { Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Dependable, IConstruct } from 'constructs';
import { addValidationHook } from './validation';

/**
 * Internal (not exported from src/core/index.ts): how this library acknowledges the cdk-nag v3 IAM5 findings of the
 * policies it writes, each with a specific reason.
 */

/** Why a wildcard is needed for the actions `action` matches. */
export interface WildcardReason {
  readonly action: RegExp;
  readonly reason: string;
}

/**
 * Acknowledges the `AwsSolutions-IAM5[...]` findings of a policy by what its Allow statements grant, not by how they
 * render (`@aws-cdk/aws-iam:minimizePolicies` merges statements and sorts their actions): a wildcard action when it has
 * a reason in `reasons`; a wildcard resource when every action granted on it, in every statement naming it, has one.
 * Anything else stays reported (see `wildcardFindingReasons`).
 *
 * Runs as a validation of `scope`, so it reads the resolved document after every grant is made; `policy` is looked up
 * then (a role's DefaultPolicy exists only once something is granted).
 */
export function acknowledgePolicyWildcardFindings(
  scope: IConstruct,
  policy: () => iam.CfnPolicy | undefined,
  reasons: ReadonlyArray<WildcardReason>,
): void {
  addValidationHook(scope, () => {
    const cfn = policy();
    if (!cfn) return [];
    const doc = Stack.of(cfn).resolve(cfn.policyDocument);
    acknowledgeFindings(cfn, wildcardFindingReasons(doc?.Statement ?? [], reasons));
    return [];
  });
}

/**
 * The `AwsSolutions-IAM5[...]` findings of resolved statements that `reasons` explain, each with its reason:
 * `Action::<a>` when the wildcard action `a` has a reason; `Resource::<r>` when every action of every Allow statement
 * naming `r` has one (the distinct reasons, joined). The result is the same however the statements are split, merged
 * or ordered, so a user's action merged into a statement on the same resource keeps that resource reported.
 */
export function wildcardFindingReasons(
  statements: ReadonlyArray<{ Effect?: string; Action?: string | string[]; Resource?: unknown }>,
  reasons: ReadonlyArray<WildcardReason>,
): Record<string, string> {
  const reasonOf = (action: string) => reasons.find((r) => r.action.test(action))?.reason;
  const explained = new Map<string, Set<string>>();
  const unexplained = new Set<string>();
  for (const statement of statements) {
    if (statement.Effect !== 'Allow') continue;
    const actions = [statement.Action ?? []].flat();
    const actionReasons = actions.map(reasonOf);
    for (const id of wildcardFindingIds(statement)) {
      const why = id.startsWith('Action::') ? [reasonOf(id.slice('Action::'.length))] : actionReasons;
      if (why.length === 0 || why.some((r) => r === undefined)) {
        unexplained.add(id);
        continue;
      }
      const set = explained.get(id) ?? new Set<string>();
      why.forEach((r) => set.add(r!));
      explained.set(id, set);
    }
  }
  return Object.fromEntries([...explained].filter(([id]) => !unexplained.has(id))
    .map(([id, why]) => [`AwsSolutions-IAM5[${id}]`, [...why].join(' ')]));
}

/**
 * Acknowledges findings on `scope`, each with its reason (`{ 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:...]':
 * reason }`), the same way at every aws-cdk-lib version in the peer range: as one entry under
 * `Validations.ACKNOWLEDGED_RULES_METADATA_KEY` holding `{ ['Annotation::' + id]: reason }` for each, which is what cdk-nag v3 and
 * SageMakerMcpChecks read (the exact finding id, never the bare rule id, so nothing else on the construct is hidden).
 *
 * Not `Validations.of(scope).acknowledge()`, for compatibility and not for speed: aws-cdk-lib before 2.269.0 (the peer
 * floor included) treats every `::` in an id as the reserved `prefix::rule` delimiter and throws `InvalidValidationId`
 * for ids holding a CloudFormation pseudo parameter such as `<AWS::Partition>`, which every IAM5 resource finding does.
 * Once the peer floor is 2.269.0 or later, this becomes that call. Nothing is recorded for no findings.
 */
export function acknowledgeFindings(scope: IConstruct, findings: Readonly<Record<string, string>>): void {
  // The callers run as validations, once per synth: what a synth before recorded is not recorded again.
  const recorded = new Set(scope.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((m) => Object.entries(m.data ?? {}).map(([id, reason]) => `${id}\n${reason}`)));
  const entries = Object.entries(findings).filter(([id, reason]) => !recorded.has(`${ANNOTATION_PREFIX}${id}\n${reason}`));
  if (entries.length === 0) return;
  // Keyed as aws-cdk-lib 2.262.1+ keys an annotation rule's acknowledgement (`Annotation::<id>`); readers drop the prefix.
  scope.node.addMetadata(Validations.ACKNOWLEDGED_RULES_METADATA_KEY, Object.fromEntries(entries.map(([id, reason]) => [`${ANNOTATION_PREFIX}${id}`, reason])));
}

const ANNOTATION_PREFIX = 'Annotation::';

/** `acknowledgeFindings` for one finding id. */
export function acknowledgeFinding(scope: IConstruct, id: string, reason: string): void {
  acknowledgeFindings(scope, { [id]: reason });
}

/**
 * The cdk-nag `AwsSolutions-IAM5` finding ids (without the rule prefix) of one resolved statement: `Action::<a>` for
 * each wildcard action, `Resource::<flat>` for each wildcard resource.
 */
export function wildcardFindingIds(statement: { Action?: string | string[]; Resource?: unknown }): string[] {
  return [
    ...[statement.Action ?? []].flat().filter((a) => a.includes('*')).map((a) => `Action::${a}`),
    ...[statement.Resource ?? []].flat().map(flattenReference).filter((r) => r.includes('*')).map((r) => `Resource::${r}`),
  ];
}

/**
 * Acknowledges, on the grantee's policy, the `AwsSolutions-IAM5` findings of exactly the statements `grant` added to the
 * principal (its `principalStatements`), with `reason`. A grant method calls it when it must grant a prefix wildcard
 * (per-job objects, per-run executions): the library knows why, so the user's cdk-nag run should not have to say it.
 * Other statements of the same policy, such as a wildcard the user grants themself, stay reported.
 *
 * Runs as a validation of `scope` (the construct granting): the statements hold tokens until synth, and aws-cdk-lib
 * 2.276 attaches a role's DefaultPolicy to the grant's dependables only then. The policy is each construct the grant
 * depends on that is (or whose default child is) a `CfnPolicy`; a grantee without one (an immutable imported role)
 * has nothing to acknowledge. `skip`, asked at synth too, leaves them to another acknowledgement. Returns `grant`.
 */
export function acknowledgeGrantWildcards(scope: IConstruct, grant: iam.Grant, reason: string, skip?: () => boolean): iam.Grant {
  const statements = grant.principalStatements;
  if (statements.length === 0) return grant;
  addValidationHook(scope, () => {
    if (skip?.()) return [];
    for (const root of Dependable.of(grant).dependencyRoots) {
      const cfn = root instanceof iam.CfnPolicy ? root : root.node.defaultChild;
      if (!(cfn instanceof iam.CfnPolicy)) continue;
      const stack = Stack.of(cfn);
      const ids = new Set(statements.flatMap((st) => wildcardFindingIds(stack.resolve(st.toStatementJson()))));
      acknowledgeFindings(cfn, Object.fromEntries([...ids].map((id) => [`AwsSolutions-IAM5[${id}]`, reason])));
    }
    return [];
  });
  return grant;
}

/**
 * The flat form cdk-nag gives a CloudFormation value in finding ids: `arn:<AWS::Partition>:...`, `<Bucket.Arn>/inputs/*`.
 */
export function flattenReference(node: any): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\${/g, '<').replace(/}/g, '>');
  if (node['Fn::Join']) {
    const [delimiter, items] = node['Fn::Join'];
    return items.map(flattenReference).join(delimiter);
  }
  if (node['Fn::Sub']) return flattenReference(node['Fn::Sub']);
  if (node['Fn::GetAtt']) return `<${flattenReference(node['Fn::GetAtt'][0])}.${flattenReference(node['Fn::GetAtt'][1])}>`;
  if (node['Fn::ImportValue']) return flattenReference(node['Fn::ImportValue']);
  if (node.Ref) return `<${flattenReference(node.Ref)}>`;
  return JSON.stringify(node);
}
