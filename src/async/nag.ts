import { Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';

/**
 * Internal: acknowledges the cdk-nag `AwsSolutions-IAM5[...]` findings of one policy this library wrote, each with the
 * reason given for the statement's first action. Runs as a validation so it sees the final document; statements whose
 * action has no reason here stay reported.
 */
export function acknowledgePolicyWildcards(policy: iam.Policy, reasons: ReadonlyArray<{ action: RegExp; reason: string }>): void {
  policy.node.addValidation({
    validate: () => {
      const cfn = policy.node.defaultChild as iam.CfnPolicy;
      const doc = Stack.of(policy).resolve(cfn.policyDocument);
      for (const statement of doc.Statement ?? []) {
        const actions: string[] = [statement.Action].flat();
        const reason = reasons.find((r) => r.action.test(actions[0]))?.reason;
        if (!reason) continue;
        const ids = [
          ...actions.filter((a) => a.includes('*')).map((a) => `Action::${a}`),
          ...[statement.Resource].flat().map(flatten).filter((r) => r.includes('*')).map((r) => `Resource::${r}`),
        ];
        for (const id of ids) Validations.of(cfn).acknowledge({ id: `AwsSolutions-IAM5[${id}]`, reason });
      }
      return [];
    },
  });
}

/** The flat form cdk-nag gives a CloudFormation reference in finding ids (`<Bucket.Arn>/inputs/*`). */
function flatten(node: any): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\${/g, '<').replace(/}/g, '>');
  if (node['Fn::Join']) return node['Fn::Join'][1].map(flatten).join(node['Fn::Join'][0]);
  if (node['Fn::Sub']) return flatten(node['Fn::Sub']);
  if (node['Fn::GetAtt']) return `<${flatten(node['Fn::GetAtt'][0])}.${flatten(node['Fn::GetAtt'][1])}>`;
  if (node.Ref) return `<${flatten(node.Ref)}>`;
  return JSON.stringify(node);
}
