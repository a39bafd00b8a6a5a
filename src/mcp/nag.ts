import * as iam from 'aws-cdk-lib/aws-iam';
import { acknowledgePolicyWildcardFindings } from '../private/nag';

/** Why each wildcard a grant of the MCP server's role carries is needed, by the actions it is granted to. */
const REASONS: ReadonlyArray<{ action: RegExp; reason: string }> = [
  { action: /^logs:/, reason: 'Writes log streams of the server\'s own log group only (stream names are chosen by Lambda at run time).' },
  { action: /^sagemaker:(DescribePipelineExecution|ListPipelineExecutionSteps)$/, reason: 'Reads executions of the exposed pipelines only (pipeline/<name>/execution/*): execution ids are generated per run (ITrainingPipeline.grantReadExecutions).' },
  { action: /^sagemaker:StopPipelineExecution$/, reason: 'tasks/cancel of a start_training task stops that run: executions of the exposed pipelines only (pipeline/<name>/execution/*), ids generated per run.' },
  { action: /^s3:(PutObject|GetObject)$/, reason: 'Per-job objects under the exposed async endpoint\'s input, output and failure prefixes only (IAsyncEndpoint.grantSubmit / grantReadResults).' },
  { action: /^sagemaker:Describe(EndpointConfig|Model)$/, reason: 'get_deployment_status: the endpoint configs and models of the exposed endpoints are named by CloudFormation per deployment; reads only, this account and region.' },
  { action: /^sagemaker:ListAssociations$/, reason: 'get_model_provenance (opt-in modelProvenance): ListAssociations supports no resource-level permissions.' },
  { action: /^sagemaker:Describe(Artifact|ModelPackage|TrainingJob|PipelineExecution)$/, reason: 'get_model_provenance (opt-in modelProvenance): the lineage entities it meets are not known at deploy time; reads only, this account and region.' },
];

/**
 * Internal: acknowledges the cdk-nag `AwsSolutions-IAM5[...]` findings of the server role's policy whose actions have
 * a reason above; anything else granted to the role stays reported.
 */
export function acknowledgeServerRoleWildcards(role: iam.Role): void {
  acknowledgePolicyWildcardFindings(
    role,
    () => role.node.tryFindChild('DefaultPolicy')?.node.tryFindChild('Resource') as iam.CfnPolicy | undefined,
    REASONS,
  );
}
