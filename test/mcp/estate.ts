/**
 * A team's estate behind one McpToolServer, for the scale tests and bench/mcp-scale.bench.ts: realtime endpoints whose
 * names are deploy-time values (exported by the stacks that own them), wide feature groups, pipelines and async
 * endpoints, all imported.
 */
import { App, Fn, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { userKeyedSchema } from '../../packages/runtime/test/support/feature-schemas';
import { AsyncEndpoint } from '../../src/async';
import { FeatureGroup } from '../../src/features';
import { McpToolServer, McpToolServerProps } from '../../src/mcp';
import { TrainingPipeline } from '../../src/pipelines';
import { RealtimeEndpoint } from '../../src/realtime';

const ENV = { account: '123456789012', region: 'us-east-1' };

export interface Estate {
  readonly realtime: number;
  readonly featureGroups: number;
  readonly featuresPerGroup: number;
  readonly pipelines: number;
  readonly asyncEndpoints: number;
}

/** A server exposing `estate`; realtime endpoint names are deploy-time values (exported by the stacks that own them). */
export function estateServer(estate: Estate) {
  const app = new App();
  const stack = new Stack(app, 'Team', { env: ENV });
  const pad = (i: number) => String(i).padStart(3, '0');
  const props: McpToolServerProps = {
    realtimeEndpoints: Array.from({ length: estate.realtime }, (_, i) => ({
      endpoint: RealtimeEndpoint.fromEndpointName(stack, `Rt${i}`, Fn.importValue(`team-models-endpoint-${pad(i)}`)),
      description: `Team model ${pad(i)}: scores one customer record (JSON object of features) and returns a probability`,
    })),
    featureGroups: Array.from({ length: estate.featureGroups }, (_, g) => ({
      featureGroup: FeatureGroup.fromFeatureGroupAttributes(stack, `Fg${g}`, {
        featureGroupName: `customer-features-${pad(g)}`,
        schema: userKeyedSchema(`customer-features-${pad(g)}`, ...Array.from({ length: estate.featuresPerGroup - 2 }, (_x, f) => ({
          name: `feature_${pad(f)}_rolling_30d`, type: f % 3 === 0 ? 'Integral' : f % 3 === 1 ? 'Fractional' : 'String',
        }))),
      }),
      description: `Customer features, family ${pad(g)}`,
    })),
    pipelines: Array.from({ length: estate.pipelines }, (_, i) => ({
      pipeline: TrainingPipeline.fromPipelineName(stack, `Pl${i}`, `team-training-${pad(i)}`),
      description: `Retrains model family ${pad(i)}`,
      overridableParameters: ['MaxRounds', 'LearningRate'],
    })),
    asyncEndpoints: Array.from({ length: estate.asyncEndpoints }, (_, i) => ({
      endpoint: AsyncEndpoint.fromAsyncEndpointAttributes(stack, `As${i}`, {
        endpointName: `team-batch-${pad(i)}`,
        bucket: s3.Bucket.fromBucketName(stack, `AsBucket${i}`, `team-batch-io-${pad(i)}`),
      }),
      description: `Long document job ${pad(i)}`,
    })),
  };
  const server = new McpToolServer(stack, 'Mcp', props);
  return { stack, server };
}

/** The scale: 100 realtime endpoints, 20 feature groups of 50 features, 10 pipelines, 10 async endpoints. */
export const TEAM: Estate = { realtime: 100, featureGroups: 20, featuresPerGroup: 50, pipelines: 10, asyncEndpoints: 10 };

/** The spec secret's text with each deploy-time name resolved as CloudFormation would (the imported export's name). */
export function specResolved(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, any>;
  if (v['Fn::Join']) return (v['Fn::Join'][1] as unknown[]).map(specResolved).join(v['Fn::Join'][0]);
  if (v['Fn::ImportValue']) return String(v['Fn::ImportValue']);
  throw new Error(`unexpected intrinsic in the spec: ${JSON.stringify(value)}`);
}
