import * as iam from 'aws-cdk-lib/aws-iam';
import { IAM_ACTION } from '../../private/iam-actions';

/**
 * `tasks/cancel` of a `start_training` task stops the run (StopPipelineExecution): allowed on exactly the executions
 * the server may read (the resources of the pipeline's `grantReadExecutions`, `pipeline/<name>/execution/*`).
 */
export function grantStopOfRead(fn: iam.IGrantable, read: iam.Grant): void {
  const resources = read.principalStatements.flatMap((s) => s.resources);
  if (resources.length === 0) return;
  iam.Grant.addToPrincipal({ grantee: fn, actions: [IAM_ACTION.sagemaker.StopPipelineExecution], resourceArns: resources });
}
