import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isPlainObject, literalShape } from '../private/template-view';

const GATED_BUCKET = 'jumpstart-private-cache-prod-';

/**
 * Gated JumpStart artifacts need ModelAccessConfig.AcceptEula true on the S3 data source
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ModelAccessConfig.html).
 */
export const jumpStartEula: CheckRule = {
  id: 'SMCP-JS1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'A model whose artifacts come from a gated JumpStart bucket accepts the EULA (ModelDataSource.S3DataSource.ModelAccessConfig.AcceptEula).',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const model of view.ofType('AWS::SageMaker::Model')) {
      const containers: Array<[string, any]> = [['PrimaryContainer', model.props.PrimaryContainer]];
      (Array.isArray(model.props.Containers) ? model.props.Containers : []).forEach((c: any, i: number) => containers.push([`Containers.${i}`, c]));
      for (const [path, container] of containers) {
        if (!isPlainObject(container)) continue;
        const source = container.ModelDataSource?.S3DataSource;
        const sourceUri = literalShape(source?.S3Uri);
        const accept = source?.ModelAccessConfig?.AcceptEula;
        if (sourceUri?.includes(GATED_BUCKET) && accept !== true && accept !== 'true') {
          out.push({
            logicalId: model.logicalId,
            location: `Properties.${path}.ModelDataSource.S3DataSource`,
            message: `Model ${model.logicalId} loads gated JumpStart artifacts (${sourceUri}) without accepting the EULA: `
              + 'set ModelDataSource.S3DataSource.ModelAccessConfig.AcceptEula to true (after reading the model\'s EULA).',
          });
        }
        const dataUrl = literalShape(container.ModelDataUrl);
        if (dataUrl?.includes(GATED_BUCKET)) {
          out.push({
            logicalId: model.logicalId,
            location: `Properties.${path}.ModelDataUrl`,
            message: `Model ${model.logicalId} loads gated JumpStart artifacts through ModelDataUrl (${dataUrl}), which cannot accept the EULA: `
              + 'use ModelDataSource.S3DataSource with ModelAccessConfig.AcceptEula true instead.',
          });
        }
      }
    }
    return out;
  },
};
