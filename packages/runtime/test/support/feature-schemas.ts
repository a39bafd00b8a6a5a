/**
 * Feature-group schemas the construct and runtime tests of features and the MCP tools share: groups keyed by a String `user_id` with a String
 * `event_time`, as the runtime receives them from the construct.
 */
import type { FeatureGroupSchema, FeatureSchemaEntry } from 'cdk-sagemaker-mcp-runtime/internal/contract';

/** A group keyed by String `user_id`, event time String `event_time`, then `features`. */
export function userKeyedSchema(featureGroupName: string, ...features: FeatureSchemaEntry[]): FeatureGroupSchema {
  return {
    featureGroupName,
    recordIdentifier: 'user_id',
    eventTime: 'event_time',
    features: [{ name: 'user_id', type: 'String' }, { name: 'event_time', type: 'String' }, ...features],
  };
}

/** The `mcp-user-features` group the FeatureGroup tests declare. */
export const MCP_USER_FEATURES = userKeyedSchema('mcp-user-features',
  { name: 'tool_calls_last_7d', type: 'Integral' },
  { name: 'error_rate_last_24h', type: 'Fractional' },
);

/** The same group with a String `preferred_tool_category` too: the one the runtime tests read and query. */
export const MCP_USER_FEATURES_WITH_CATEGORY: FeatureGroupSchema = {
  ...MCP_USER_FEATURES,
  features: [...MCP_USER_FEATURES.features, { name: 'preferred_tool_category', type: 'String' }],
};
