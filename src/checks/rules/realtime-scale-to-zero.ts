import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule } from '../private/rule';
import { variantTargets } from '../private/sagemaker-scaling';
import { literalNumber } from '../private/template-view';

/**
 * Realtime variants cannot scale to zero instances: only async endpoints and inference components can
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-zero-instances.html).
 */
export const realtimeScaleToZero: CheckRule = {
  id: 'SMCP-RT1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'A realtime endpoint variant must not scale to 0 instances (only async endpoints and inference components can).',
  check: (view) => variantTargets(view)
    .filter(({ target, config }) => config && literalNumber(target.props.MinCapacity) === 0 && config.props.AsyncInferenceConfig === undefined)
    .map(({ target, endpoint }) => ({
      logicalId: target.logicalId,
      location: 'Properties.MinCapacity',
      message: `ScalableTarget ${target.logicalId} lets realtime endpoint ${endpoint!.logicalId} scale to 0 instances (MinCapacity 0), `
        + 'which SageMaker supports only for async endpoints and inference components: set MinCapacity >= 1, '
        + 'or give the endpoint config an AsyncInferenceConfig.',
    })),
};
