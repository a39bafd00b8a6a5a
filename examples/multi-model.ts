import { Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ContainerImage, InstanceType, MultiModelSource } from '../src/core';
import { RealtimeEndpoint } from '../src/realtime';

/** What the multi-model example returns: the endpoint and the target models the MCP tool may name. */
export interface MultiModelExample {
  readonly endpoint: RealtimeEndpoint;
  readonly targetModels: string[];
}

/**
 * One XGBoost churn model per tenant behind one CPU endpoint: every `.tar.gz` under `tenants/` is a target model,
 * loaded on its first request; the MCP tool may name the two listed.
 */
export function addMultiModelExample(stack: Stack): MultiModelExample {
  const models = s3.Bucket.fromBucketName(stack, 'TenantModels', `mcp-model-artifacts-${stack.account}`);
  const source = MultiModelSource.fromBucket(ContainerImage.xgboost('1.7-1'), models, 'tenants/churn/', {
    targetModels: ['acme.tar.gz', 'globex.tar.gz'],
  });
  const endpoint = new RealtimeEndpoint(stack, 'TenantChurn', { model: source, instanceType: InstanceType.ML_M5_LARGE });
  return { endpoint, targetModels: source.targetModels };
}
