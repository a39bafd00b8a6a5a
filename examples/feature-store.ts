import { Duration, Stack } from 'aws-cdk-lib';
import { operationsFor } from './operations';
import { Feature, FeatureGroup, OnlineStoreStorageType } from '../src/features';

/**
 * A per-user feature group: per-user behaviour features read by MCP tools at inference time (online store)
 * and kept as history for training (Iceberg offline store, Glue table `sagemaker_featurestore.mcp_user_behavior_features`).
 * Returns the group so the MCP example can expose it (`grantGetRecord`, `grantPutRecord`, `schema`).
 */
export function addFeatureStoreExample(stack: Stack): FeatureGroup {
  const userId = Feature.text('user_id');
  const eventTime = Feature.text('event_time');
  return new FeatureGroup(stack, 'UserBehaviorFeatures', {
    featureGroupName: 'mcp-user-behavior-features',
    description: 'Per-user MCP tool usage features',
    features: [
      userId,
      eventTime,
      Feature.integral('tool_calls_last_7d'),
      Feature.fractional('avg_session_duration_s'),
      Feature.fractional('error_rate_last_24h'),
      Feature.text('preferred_tool_category'),
    ],
    recordIdentifier: userId,
    eventTime,
    onlineStore: { storageType: OnlineStoreStorageType.STANDARD, ttl: Duration.days(30) },
    offlineStore: { serverAccessLogsBucket: operationsFor(stack).accessLogsBucket },
  });
}
