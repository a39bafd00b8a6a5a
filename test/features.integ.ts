/**
 * Integration stack for the features capability: the per-user behaviour feature group of examples/feature-store.ts (online store with a
 * 30-day TTL, Iceberg offline store in a KMS-encrypted bucket). Region-pinned, account-agnostic; no quota needed.
 */
import { integApp, integStack, synthIntegApp } from './integ-app';
import { addFeatureStoreExample } from '../examples/feature-store';

const app = integApp();
addFeatureStoreExample(integStack(app, 'CdkSageMakerMcpFeatureStoreInteg'));
synthIntegApp(app);
