import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isPlainObject, literalString } from '../private/template-view';

/**
 * TableFormat Iceberg on feature groups that need time-travel training data
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/feature-store-offline.html).
 */
export const featureOfflineIceberg: CheckRule = {
  id: 'SMCP-FS2',
  level: SageMakerMcpCheckLevel.WARNING,
  description: 'A feature group with an offline store uses the Iceberg table format (time travel, compaction).',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const group of view.ofType('AWS::SageMaker::FeatureGroup')) {
      const offline = group.props.OfflineStoreConfig;
      if (!isPlainObject(offline)) continue;
      if (offline.TableFormat !== undefined && literalString(offline.TableFormat) === undefined) continue;
      if (literalString(offline.TableFormat) === 'Iceberg') continue;
      out.push({
        logicalId: group.logicalId,
        location: 'Properties.OfflineStoreConfig.TableFormat',
        message: `Feature group ${group.logicalId} has an offline store with TableFormat ${offline.TableFormat ?? '(default Glue)'}: `
          + "set OfflineStoreConfig.TableFormat to 'Iceberg' for time-travel (point-in-time) training datasets.",
      });
    }
    return out;
  },
};
