/**
 * Integration stack for the realtime capability: the example endpoint (TGI DLC, S3-prefix weights, autoscaled, alarms,
 * a canary rollout rolled back by the alarms) with a shadow challenger (Llama 3.1 8B weights under llama-3.1-8b-instruct/).
 * Region-pinned (the DLC image lives in a regional registry) but account-agnostic, so it deploys to any account and its
 * committed snapshot does not depend on who synthesized it. Deploying needs the model weights under
 * s3://mcp-model-artifacts-<account>/llama-3-8b-instruct/ and ml.g5.2xlarge quota in us-east-1.
 */
import { integApp, integStack, synthIntegApp } from './integ-app';
import { addRealtimeExample } from '../examples/realtime';

const app = integApp();
addRealtimeExample(integStack(app, 'CdkSageMakerMcpRealtimeInteg'), { shadowChallenger: true });
synthIntegApp(app);
