import { approvedDeploymentRollout } from './approved-deployment-rollout';
import { asymmetricCooldowns } from './asymmetric-cooldowns';
import { asyncNotifications } from './async-notifications';
import { asyncScaleFromZeroAlarm } from './async-scale-from-zero-alarm';
import { endpointConfigKms } from './endpoint-config-kms';
import { featureEventTimeType } from './feature-event-time-type';
import { featureOfflineIceberg } from './feature-offline-iceberg';
import { featureOfflineStoreKms } from './feature-offline-store-kms';
import { featureOnlineStoreKms } from './feature-online-store-kms';
import { inferenceComponentConfig } from './inference-component-config';
import { invocationsTargetMinCapacity } from './invocations-target-min-capacity';
import { jumpStartEula } from './jumpstart-eula';
import { llmGpuConcurrency } from './llm-gpu-concurrency';
import { modelEnvironmentSecrets } from './model-environment-secrets';
import { multiModelRequirements } from './multi-model';
import { pipelineRuleCorrelation } from './pipeline-rule-correlation';
import { pipelineRuleDlq } from './pipeline-rule-dlq';
import { productionRollbackAlarms, productionRollout } from './production-rollout';
import { realtimeScaleToZero } from './realtime-scale-to-zero';
import { sageMakerFullAccess } from './sagemaker-full-access';
import { CheckRule } from '../private/rule';

/** Every rule of the pack, in report order. */
export const ALL_RULES: readonly CheckRule[] = [
  realtimeScaleToZero,
  asymmetricCooldowns,
  invocationsTargetMinCapacity,
  productionRollout,
  productionRollbackAlarms,
  approvedDeploymentRollout,
  asyncNotifications,
  asyncScaleFromZeroAlarm,
  llmGpuConcurrency,
  jumpStartEula,
  inferenceComponentConfig,
  multiModelRequirements,
  featureEventTimeType,
  featureOfflineIceberg,
  pipelineRuleDlq,
  pipelineRuleCorrelation,
  sageMakerFullAccess,
  modelEnvironmentSecrets,
  endpointConfigKms,
  featureOnlineStoreKms,
  featureOfflineStoreKms,
];
