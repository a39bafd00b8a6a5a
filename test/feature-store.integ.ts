/**
 * Integration stack for the feature-store capability: the seed's per-user behaviour feature group (online store with a
 * 30-day TTL, Iceberg offline store in a KMS-encrypted bucket). Region-pinned, account-agnostic; no quota needed.
 */
import { integApp, integStack, synthIntegApp } from './integ-app';
import { addFeatureStoreExample } from '../examples/feature-store';

const app = integApp();
addFeatureStoreExample(integStack(app, 'CdkSageMakerMcpFeatureStoreInteg'));
synthIntegApp(app);
