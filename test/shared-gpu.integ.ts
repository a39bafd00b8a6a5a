/**
 * Integration stack for the shared-GPU capability: one ml.g5.12xlarge endpoint with managed instance scaling and two
 * JumpStart inference components (Llama 3 8B chat with a warm copy, Mistral 7B summarizer scaling to zero), resolved
 * from the bundled JumpStart catalog for us-east-1. Region-pinned, account-agnostic. Deploying needs ml.g5.12xlarge
 * quota in us-east-1 and accepts the Llama 3 EULA (the example sets acceptEula).
 */
import { integApp, integStack, synthIntegApp } from './integ-app';
import { addSharedGpuExample } from '../examples/shared-gpu';

const app = integApp();
addSharedGpuExample(integStack(app, 'CdkSageMakerMcpSharedGpuInteg'));
synthIntegApp(app);
