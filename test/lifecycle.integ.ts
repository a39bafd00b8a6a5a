/**
 * Integration stack for the model lifecycle: a training pipeline registering into a model package group, the
 * approved-model deployment, and a canary endpoint serving the approved version (docs/lifecycle.md). Region-pinned
 * (the XGBoost image is regional). Deploying creates the endpoint from `churn/1`: register and approve a first version,
 * or pass the parameter `ApprovedModelPackageArn`, before deploying.
 */
import { integApp, integStack, synthIntegApp } from './integ-app';
import { addLifecycleExample } from '../examples/lifecycle';

const app = integApp();
// A literal account: the parameter default (the first version's ARN) must be a literal string.
addLifecycleExample(integStack(app, 'CdkSageMakerMcpLifecycleInteg', '123456789012'));
synthIntegApp(app);
