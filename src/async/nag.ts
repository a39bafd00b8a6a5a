import * as iam from 'aws-cdk-lib/aws-iam';
import { acknowledgePolicyWildcardFindings, WildcardReason } from '../private/nag';

/**
 * Internal: acknowledges the cdk-nag `AwsSolutions-IAM5[...]` findings of one policy this library wrote, each with the
 * reasons of the actions the wildcard is granted to; a wildcard granted to an action without a reason here stays reported.
 */
export function acknowledgePolicyWildcards(policy: iam.Policy, reasons: ReadonlyArray<WildcardReason>): void {
  acknowledgePolicyWildcardFindings(policy, () => policy.node.defaultChild as iam.CfnPolicy, reasons);
}
