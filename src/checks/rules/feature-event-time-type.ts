import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isPlainObject, literalString } from '../private/template-view';

/**
 * The event-time feature must be String (ISO-8601) or Fractional (epoch seconds): `EventTimeFeatureName` in
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CreateFeatureGroup.html
 */
export const featureEventTimeType: CheckRule = {
  id: 'SMCP-FS1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'A feature group\'s event-time feature is of type String or Fractional.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const group of view.ofType('AWS::SageMaker::FeatureGroup')) {
      const name = literalString(group.props.EventTimeFeatureName);
      const defs = Array.isArray(group.props.FeatureDefinitions) ? group.props.FeatureDefinitions : [];
      const def = defs.find((d: any) => isPlainObject(d) && d.FeatureName === name);
      const type = literalString(def?.FeatureType);
      if (!name || !type || type === 'String' || type === 'Fractional') continue;
      out.push({
        logicalId: group.logicalId,
        location: 'Properties.FeatureDefinitions',
        message: `Feature group ${group.logicalId} uses '${name}' (${type}) as its event time: declare it String (ISO-8601 UTC, `
          + "yyyy-MM-dd'T'HH:mm:ssZ) or Fractional (seconds since the epoch); String if the offline store uses Iceberg.",
      });
    }
    return out;
  },
};
