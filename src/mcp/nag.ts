import { Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';

/** Why each wildcard a grant of the MCP server's role carries is needed, keyed by the statement's first action. */
const REASONS: ReadonlyArray<{ action: RegExp; reason: string }> = [
  { action: /^logs:/, reason: 'Writes log streams of the server\'s own log group only (stream names are chosen by Lambda at run time).' },
  { action: /^sagemaker:(DescribePipelineExecution|ListPipelineExecutionSteps)$/, reason: 'Reads executions of the exposed pipelines only (pipeline/<name>/execution/*): execution ids are generated per run (ITrainingPipeline.grantReadExecutions).' },
  { action: /^s3:(PutObject|GetObject)$/, reason: 'Per-job objects under the exposed async endpoint\'s input, output and failure prefixes only (IAsyncEndpoint.grantSubmit / grantReadResults).' },
  { action: /^sagemaker:ListAssociations$/, reason: 'get_model_provenance (opt-in modelProvenance): ListAssociations supports no resource-level permissions.' },
  { action: /^sagemaker:Describe(Artifact|ModelPackage|TrainingJob|PipelineExecution)$/, reason: 'get_model_provenance (opt-in modelProvenance): the lineage entities it meets are not known at deploy time; reads only, this account and region.' },
];

/** The flat form cdk-nag gives a CloudFormation reference in finding ids (`arn:<AWS::Partition>:...`, `<Bucket.Arn>/x/*`). */
function flatten(node: any): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\${/g, '<').replace(/}/g, '>');
  if (node['Fn::Join']) return node['Fn::Join'][1].map(flatten).join(node['Fn::Join'][0]);
  if (node['Fn::Sub']) return flatten(node['Fn::Sub']);
  if (node['Fn::GetAtt']) return `<${flatten(node['Fn::GetAtt'][0])}.${flatten(node['Fn::GetAtt'][1])}>`;
  if (node.Ref) return `<${flatten(node.Ref)}>`;
  return JSON.stringify(node);
}

/**
 * Internal: acknowledges the cdk-nag `AwsSolutions-IAM5[...]` findings of the server role's policy whose first action has
 * a reason above; anything else granted to the role stays reported. Runs as a validation to see every grant.
 */
export function acknowledgeServerRoleWildcards(role: iam.Role): void {
  role.node.addValidation({
    validate: () => {
      const policy = role.node.tryFindChild('DefaultPolicy')?.node.tryFindChild('Resource') as iam.CfnPolicy | undefined;
      if (!policy) return [];
      const doc = Stack.of(role).resolve(policy.policyDocument);
      for (const st of doc.Statement ?? []) {
        const actions: string[] = [st.Action].flat();
        const reason = REASONS.find((r) => r.action.test(actions[0]))?.reason;
        if (!reason) continue;
        const ids = [
          ...actions.filter((a) => a.includes('*')).map((a) => `Action::${a}`),
          ...[st.Resource].flat().map(flatten).filter((r) => r.includes('*')).map((r) => `Resource::${r}`),
        ];
        for (const id of ids) Validations.of(policy).acknowledge({ id: `AwsSolutions-IAM5[${id}]`, reason });
      }
      return [];
    },
  });
}
