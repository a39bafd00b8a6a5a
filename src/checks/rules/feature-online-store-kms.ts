import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isAbsent, isPlainObject } from '../private/template-view';

/** KMS by default: the online store encrypts with a customer key. */
export const featureOnlineStoreKms: CheckRule = {
  id: 'SMCP-KMS2',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'A feature group with an online store sets OnlineStoreConfig.SecurityConfig.KmsKeyId.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const group of view.ofType('AWS::SageMaker::FeatureGroup')) {
      const online = group.props.OnlineStoreConfig;
      if (!isPlainObject(online) || (online.EnableOnlineStore !== true && online.EnableOnlineStore !== 'true')) continue;
      if (!isAbsent(online.SecurityConfig?.KmsKeyId)) continue;
      out.push({
        logicalId: group.logicalId,
        location: 'Properties.OnlineStoreConfig.SecurityConfig',
        message: `Feature group ${group.logicalId} has an online store without OnlineStoreConfig.SecurityConfig.KmsKeyId: set it to a customer-managed KMS key.`,
      });
    }
    return out;
  },
};
