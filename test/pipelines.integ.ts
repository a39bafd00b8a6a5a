/**
 * Integration stack for the pipelines capability: the one-step XGBoost training pipeline and the EventBridge router
 * that records its execution and step results. Region-pinned (the XGBoost image is regional).
 * Deploying creates no instances; starting an execution needs training data at the InputDataUri parameter.
 */
import { integApp, integStack, synthIntegApp } from './integ-app';
import { addPipelinesExample } from '../examples/pipelines';

const app = integApp();
addPipelinesExample(integStack(app, 'CdkSageMakerMcpPipelinesInteg'));
synthIntegApp(app);
