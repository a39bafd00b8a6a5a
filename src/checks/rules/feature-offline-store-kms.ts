import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isAbsent, isPlainObject } from '../private/template-view';

/** KMS by default: the offline store's S3 objects encrypt with a customer key. */
export const featureOfflineStoreKms: CheckRule = {
  id: 'SMCP-KMS3',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'A feature group with an offline store sets OfflineStoreConfig.S3StorageConfig.KmsKeyId.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const group of view.ofType('AWS::SageMaker::FeatureGroup')) {
      const offline = group.props.OfflineStoreConfig;
      if (!isPlainObject(offline) || !isPlainObject(offline.S3StorageConfig)) continue;
      if (!isAbsent(offline.S3StorageConfig.KmsKeyId)) continue;
      out.push({
        logicalId: group.logicalId,
        location: 'Properties.OfflineStoreConfig.S3StorageConfig',
        message: `Feature group ${group.logicalId} has an offline store without OfflineStoreConfig.S3StorageConfig.KmsKeyId: `
          + 'set it to a customer-managed KMS key (the offline-store role then needs kms:GenerateDataKey on it).',
      });
    }
    return out;
  },
};
