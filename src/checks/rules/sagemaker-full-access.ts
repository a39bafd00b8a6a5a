import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isPlainObject, literalShape } from '../private/template-view';

function assumedBySageMaker(document: any): boolean {
  const statements = Array.isArray(document?.Statement) ? document.Statement : [document?.Statement];
  return statements.filter(isPlainObject).some((s: any) => {
    const services = s.Principal?.Service;
    return (Array.isArray(services) ? services : [services]).some((p: unknown) => literalShape(p)?.includes('sagemaker.amazonaws.com'));
  });
}

/** House rule (STYLE.md): never AmazonSageMakerFullAccess on a SageMaker execution role. */
export const sageMakerFullAccess: CheckRule = {
  id: 'SMCP-IAM1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'No role assumed by sagemaker.amazonaws.com carries the AmazonSageMakerFullAccess managed policy.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const role of view.ofType('AWS::IAM::Role')) {
      if (!assumedBySageMaker(role.props.AssumeRolePolicyDocument)) continue;
      const arns = Array.isArray(role.props.ManagedPolicyArns) ? role.props.ManagedPolicyArns : [];
      if (!arns.some((a: unknown) => literalShape(a)?.endsWith('/AmazonSageMakerFullAccess'))) continue;
      out.push({
        logicalId: role.logicalId,
        location: 'Properties.ManagedPolicyArns',
        message: `Role ${role.logicalId} is assumed by SageMaker and has AmazonSageMakerFullAccess: remove it and grant only what the model needs `
          + '(ECR pull of its image, s3:GetObject on its artifacts, kms:Decrypt on their keys, CloudWatch Logs/metrics).',
      });
    }
    return out;
  },
};
