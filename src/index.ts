// The jsii API: one folder per capability. The TypeScript-only runtime is its own package, packages/runtime (`cdk-sagemaker-mcp-runtime`).
export * from './core';
export * from './network';
export * from './jumpstart';
export * from './images';
export * from './huggingface';
export * from './checks';
export * from './shared-gpu';
export * from './features';
export * from './async';
export * from './rollouts';
export * from './realtime';
export * from './serverless';
export * from './pipelines';
export * from './lifecycle';
export * from './mcp';
export * from './prices';
export * from './operations';
