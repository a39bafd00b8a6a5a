import * as iam from 'aws-cdk-lib/aws-iam';
import { acknowledgePolicyWildcardFindings, WildcardReason } from '../core/nag';

/**
 * Internal: acknowledges the cdk-nag `AwsSolutions-IAM5[...]` findings of one policy this library wrote, each with the
 * reason given for the statement's first action; statements whose action has no reason here stay reported.
 */
export function acknowledgePolicyWildcards(policy: iam.Policy, reasons: ReadonlyArray<WildcardReason>): void {
  acknowledgePolicyWildcardFindings(policy, () => policy.node.defaultChild as iam.CfnPolicy, reasons);
}
