import { Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { IConstruct } from 'constructs';

/**
 * Internal (not exported from src/core/index.ts): how this library acknowledges the cdk-nag v3 IAM5 findings of the
 * policies it writes, each with a specific reason.
 */

/** Why the wildcards of a statement are needed, chosen by the statement's first action. */
export interface WildcardReason {
  readonly action: RegExp;
  readonly reason: string;
}

/**
 * Acknowledges the `AwsSolutions-IAM5[...]` findings of a policy: for each Allow statement whose first action has a
 * reason in `reasons`, every wildcard action and resource it holds. Statements without a reason stay reported.
 *
 * Runs as a validation of `scope`, so it reads the resolved document after every grant is made; `policy` is looked up
 * then (a role's DefaultPolicy exists only once something is granted).
 */
export function acknowledgePolicyWildcardFindings(
  scope: IConstruct,
  policy: () => iam.CfnPolicy | undefined,
  reasons: ReadonlyArray<WildcardReason>,
): void {
  scope.node.addValidation({
    validate: () => {
      const cfn = policy();
      if (!cfn) return [];
      const doc = Stack.of(cfn).resolve(cfn.policyDocument);
      for (const statement of doc.Statement ?? []) {
        if (statement.Effect !== 'Allow') continue;
        const actions: string[] = [statement.Action].flat();
        const reason = reasons.find((r) => r.action.test(actions[0]))?.reason;
        if (!reason) continue;
        const ids = [
          ...actions.filter((a) => a.includes('*')).map((a) => `Action::${a}`),
          ...[statement.Resource].flat().map(flattenReference).filter((r) => r.includes('*')).map((r) => `Resource::${r}`),
        ];
        for (const id of ids) Validations.of(cfn).acknowledge({ id: `AwsSolutions-IAM5[${id}]`, reason });
      }
      return [];
    },
  });
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
