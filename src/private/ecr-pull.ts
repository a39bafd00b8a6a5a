/** Internal (not exported from the package): the ECR pull grant of every image a model binds. */
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { IAM_ACTION } from './iam-actions';
import { acknowledgePullGrant } from './model-role-nag';

/** Grants ECR pull on one repository, plus GetAuthorizationToken, which IAM only allows on `*`. */
export function grantEcrPull(scope: Construct, grantee: iam.IGrantable, repositoryArn: string): void {
  iam.Grant.addToPrincipal({
    grantee,
    actions: [IAM_ACTION.ecr.BatchCheckLayerAvailability, IAM_ACTION.ecr.BatchGetImage, IAM_ACTION.ecr.GetDownloadUrlForLayer],
    resourceArns: [repositoryArn],
  });
  acknowledgePullGrant(scope, grantee, iam.Grant.addToPrincipal({ grantee, actions: [IAM_ACTION.ecr.GetAuthorizationToken], resourceArns: ['*'] }));
}
