/**
 * Integration stack for the async capability: the example document processor (BART summarization DLC on ml.m5.xlarge,
 * scale from zero on the backlog, KMS-encrypted output bucket and topics, job table and result recorder, oldest-request
 * alarm). Region-pinned, account-agnostic. Deploying needs ml.m5.xlarge async-endpoint quota in us-east-1.
 */
import { integApp, integStack, synthIntegApp } from './integ-app';
import { addAsyncExample } from '../examples/async';

const app = integApp();
addAsyncExample(integStack(app, 'CdkSageMakerMcpAsyncInteg'));
synthIntegApp(app);
