import { App, Size, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { addAllExamples } from '../../examples/app';
import { AsyncEndpoint } from '../../src/async';
import { ContainerImage, ModelData, ModelSource } from '../../src/core';
import { FeatureGroup } from '../../src/features';
import { McpToolServer } from '../../src/mcp';
import { SageMakerMcpDashboard } from '../../src/operations';
import { TrainingPipeline } from '../../src/pipelines';
import { PriceTable } from '../../src/prices';
import { RealtimeEndpoint } from '../../src/realtime';
import { ServerlessEndpoint } from '../../src/serverless';
import { InferenceComponent, SharedGpuEndpoint } from '../../src/shared-gpu';
import { sageMakerOfferFile } from '@cdk-sagemaker-mcp/test-stand-ins/price-list';
import { pricesFromOfferFile } from 'cdk-sagemaker-mcp-runtime/prices';

const ENV = { account: '123456789012', region: 'us-east-1' };

/** The example stack with its dashboard, and the dashboard's body as JSON (tokens replaced by their logical ids). */
function exampleDashboard() {
  const stack = new Stack(new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } }), 'Ops', { env: ENV });
  const server = addAllExamples(stack);
  const dashboard = stack.node.findAll().find((c): c is SageMakerMcpDashboard => c instanceof SageMakerMcpDashboard)!;
  const template = Template.fromStack(stack).toJSON();
  const [resource] = Object.values<any>(template.Resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
  const body = resource.Properties.DashboardBody;
  const text = typeof body === 'string' ? body : body['Fn::Join'][1].map((p: any) => (typeof p === 'string' ? p : `<${p.Ref ?? Object.keys(p)[0]}>`)).join('');
  return { stack, server, dashboard, template, widgets: JSON.parse(text).widgets as any[] };
}

describe('SageMakerMcpDashboard', () => {
  const { stack, server, widgets, template } = exampleDashboard();
  const titles = widgets.map((w) => w.properties.title ?? w.properties.markdown?.split('\n')[0]);

  test('per-tool calls, errors and latency of every tool the server exposes, from the SageMakerMcp namespace', () => {
    const calls = widgets.find((w) => /tool calls \(Sum\)$/.test(w.properties.title));
    expect(calls.properties.metrics.map((m: any[]) => m.slice(0, 2))).toEqual(server.toolNames.map(() => ['SageMakerMcp', 'ToolCalls']));
    expect(calls.properties.metrics.map((m: any[]) => m[3])).toEqual(server.toolNames);
    expect(titles).toEqual(expect.arrayContaining([expect.stringMatching(/tool errors \(Sum\)$/), expect.stringMatching(/tool latency p50 \/ p99 \(ms\)$/)]));
    const latency = widgets.find((w) => /tool latency/.test(w.properties.title));
    expect(latency.properties.metrics.slice(0, 2).map((m: any[]) => m[m.length - 1].stat)).toEqual(['p50', 'p99']);
  });

  test('each endpoint variant and inference component: invocations, p50/p99 model latency, errors, count against min/max', () => {
    for (const suffix of ['invocations (Sum)', 'model latency p50 / p99 (µs)', 'errors (Sum)', 'instances (while invoked)']) {
      expect(titles).toContain(`ChatEndpoint/AllTraffic: ${suffix}`);
    }
    const instances = widgets.find((w) => w.properties.title === 'ChatEndpoint/AllTraffic: instances (while invoked)');
    const scaling = stack.node.findAll().find((c): c is RealtimeEndpoint => c instanceof RealtimeEndpoint && c.node.id === 'ChatEndpoint')!._scaledInstanceCount('AllTraffic')!;
    expect(instances.properties.annotations.horizontal.map((a: any) => a.value)).toEqual([scaling.minCapacity, scaling.maxCapacity]);
    expect(titles.filter((t) => / copies \(while invoked\)$/.test(t))).toHaveLength(2);
    expect(titles).toEqual(expect.arrayContaining([expect.stringMatching(/backlog \(Average\) and oldest request/), expect.stringMatching(/backlog without capacity; result dead letters/)]));
  });

  test('each async endpoint: only metrics of AWS\'s async list, instances from CPUUtilization SampleCount per minute', () => {
    // AWS's list is exhaustive (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-monitor.html): the
    // common and async tables, with InvocationsProcesssed as AWS spells it and the spelling without the third s, since
    // which one SageMaker emits is unconfirmed; plus the host-level CPUUtilization the troubleshooting page counts.
    const asyncList = new Set(['Invocation4XXErrors', 'Invocation5XXErrors', 'ModelLatency', 'ApproximateBacklogSize',
      'ApproximateBacklogSizePerInstance', 'ApproximateAgeOfOldestRequest', 'HasBacklogWithoutCapacity', 'RequestDownloadFailures',
      'ResponseUploadFailures', 'NotificationFailures', 'RequestDownloadLatency', 'ResponseUploadLatency', 'ExpiredRequests',
      'InvocationFailures', 'InvocationsProcesssed', 'InvocationsProcessed', 'TimeInBacklog', 'TotalProcessingTime']);
    const rows = widgets.filter((w) => w.properties.title?.startsWith('DocProcessor: '));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const named = rows.flatMap((w) => (w.properties.metrics as any[][]).filter((m) => typeof m[0] === 'string' && m.length > 2));
    const sageMaker = named.filter((m) => m[0] === 'AWS/SageMaker').map((m) => m[1]);
    for (const metricName of sageMaker) expect(asyncList).toContain(metricName);
    expect(new Set(sageMaker)).toEqual(new Set(['InvocationsProcesssed', 'InvocationsProcessed', 'InvocationFailures', 'ExpiredRequests', 'ModelLatency',
      'ApproximateBacklogSize', 'ApproximateAgeOfOldestRequest', 'HasBacklogWithoutCapacity']));
    const instances = rows.find((w) => /instances/.test(w.properties.title));
    expect(instances.properties.title).toBe('DocProcessor: instances (CPUUtilization SampleCount, 1 min)');
    expect(instances.properties.period).toBe(60);
    const [expression, cpu] = instances.properties.metrics;
    expect(expression[0]).toEqual({ expression: 'FILL(cpuSamples, 0)', label: 'instances', period: 60 });
    expect(cpu.slice(0, 6)).toEqual(['/aws/sagemaker/Endpoints', 'CPUUtilization', 'EndpointName', '<Fn::GetAtt>', 'VariantName', 'AllTraffic']);
    expect(cpu[6]).toEqual(expect.objectContaining({ stat: 'SampleCount', period: 60, id: 'cpuSamples', visible: false }));
    expect(instances.properties.annotations.horizontal.map((a: any) => a.value)).toEqual([0, 4]);
  });

  test('each serverless endpoint: invocations, latency, 4xx/5xx, cold starts, concurrency, memory, provisioned concurrency against its range', () => {
    const name = 'LeadScoring';
    for (const suffix of ['invocations (Sum)', 'model latency p50 / p99 (µs)', 'errors (Sum)', 'cold starts (ModelSetupTime SampleCount) and setup time (Maximum, µs)',
      'concurrency utilization (Maximum, 0-1)', 'memory utilization (Average, %)', 'provisioned concurrency executions (Maximum)',
      'provisioned / spillover invocations (Sum)']) {
      expect(titles).toContain(`${name}: ${suffix}`);
    }
    const metricsOf = (suffix: string) => widgets.find((w) => w.properties.title === `${name}: ${suffix}`).properties.metrics as any[][];
    const nameAndStat = (m: any[]) => [m[1], m[m.length - 1].stat];
    // Serverless endpoints publish no InvocationModelErrors (https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-monitoring.html).
    expect(metricsOf('errors (Sum)').map((m) => m[1])).toEqual(['Invocation4XXErrors', 'Invocation5XXErrors']);
    expect(metricsOf('cold starts (ModelSetupTime SampleCount) and setup time (Maximum, µs)').map(nameAndStat))
      .toEqual([['ModelSetupTime', 'SampleCount'], ['ModelSetupTime', 'Maximum']]);
    expect(metricsOf('concurrency utilization (Maximum, 0-1)').map(nameAndStat))
      .toEqual([['ServerlessConcurrentExecutionsUtilization', 'Maximum'], ['ServerlessProvisionedConcurrencyUtilization', 'Maximum']]);
    expect(metricsOf('provisioned / spillover invocations (Sum)').map((m) => m[1]))
      .toEqual(['ServerlessProvisionedConcurrencyInvocations', 'ServerlessProvisionedConcurrencySpilloverInvocations']);
    const executions = widgets.find((w) => w.properties.title === `${name}: provisioned concurrency executions (Maximum)`);
    expect(executions.properties.metrics[0].slice(0, 2)).toEqual(['AWS/SageMaker', 'ServerlessProvisionedConcurrencyExecutions']);
    const endpoint = stack.node.findAll().find((c): c is ServerlessEndpoint => c instanceof ServerlessEndpoint)!;
    const range = endpoint._scaledProvisionedConcurrency!;
    expect(executions.properties.annotations.horizontal.map((a: any) => a.value)).toEqual([range.minCapacity, range.maxCapacity]);
    expect([range.minCapacity, range.maxCapacity]).toEqual([1, 4]);
    // Every serverless graph is of this endpoint's variant (EndpointName, VariantName).
    const serverlessMetrics = widgets.filter((w) => w.properties.title?.startsWith(`${name}: `)).flatMap((w) => w.properties.metrics as any[][]);
    expect(serverlessMetrics.length).toBeGreaterThan(10);
    for (const m of serverlessMetrics) expect(m.slice(2, 6)).toEqual(['EndpointName', expect.stringMatching(/^<Fn::GetAtt>$/), 'VariantName', 'AllTraffic']);
    const cost = widgets.find((w) => w.type === 'text' && /^### Cost estimate/.test(w.properties.markdown)).properties.markdown;
    expect(cost).toContain(`- **${name}**: No complete estimate for Serverless Inference (2048 MiB, 1-4 provisioned concurrency)`);
  });

  test('pipeline runs by outcome, router outcomes and dead letters, the alarm status of every alarm, the dated cost text', () => {
    const runs = widgets.find((w) => w.properties.title === 'Pipeline runs by outcome (Sum)');
    expect(runs.properties.metrics.map((m: any[]) => m[1])).toEqual(['ExecutionStarted', 'ExecutionSucceeded', 'ExecutionFailed', 'ExecutionStopped']);
    const alarms = widgets.find((w) => w.type === 'alarm');
    // Every alarm in the stack but the example's own ChatLatencyAlarm (made by the user at stack level, not by a construct).
    const libraryAlarms = Object.keys(template.Resources).filter((id) => template.Resources[id].Type === 'AWS::CloudWatch::Alarm' && !id.startsWith('ChatLatencyAlarm'));
    expect(libraryAlarms).toHaveLength(10);
    expect(alarms.properties.alarms).toHaveLength(libraryAlarms.length);
    const cost = widgets.find((w) => w.type === 'text' && /^### Cost estimate/.test(w.properties.markdown));
    expect(cost.properties.markdown).toContain('- **ChatEndpoint/AllTraffic**: ');
    expect(cost.properties.markdown).toMatch(/price not in the price table of \d{4}-\d{2}-\d{2}/);
  });

  test('sizes: every row fills at most the 24-column grid; the user\'s own widgets go below', () => {
    for (const w of widgets) expect(w.x + w.width).toBeLessThanOrEqual(24);
    const s = new Stack(new App(), 'Own', { env: ENV });
    const d = new SageMakerMcpDashboard(s, 'D');
    d.addWidgets(new cloudwatch.TextWidget({ markdown: 'mine', width: 24, height: 1 }));
    const [resource] = Object.values<any>(Template.fromStack(s).toJSON().Resources);
    const body = JSON.parse(resource.Properties.DashboardBody);
    expect(body.widgets[body.widgets.length - 1].properties.markdown).toBe('mine');
  });

  test('the cost text uses the given price table', () => {
    const s = new Stack(new App(), 'Priced', { env: ENV });
    addAllExamples(s);
    const chat = s.node.findAll().find((c): c is RealtimeEndpoint => c instanceof RealtimeEndpoint && c.node.id === 'ChatEndpoint')!;
    new SageMakerMcpDashboard(s, 'Priced', { realtimeEndpoints: [chat], costEstimate: { priceTable: PriceTable.fromJson(pricesFromOfferFile(sageMakerOfferFile())) } });
    const body = Template.fromStack(s).toJSON().Resources;
    const mine = Object.entries<any>(body).find(([id, r]) => r.Type === 'AWS::CloudWatch::Dashboard' && id.startsWith('Priced'))![1];
    const joined = JSON.stringify(mine.Properties.DashboardBody);
    expect(joined).toContain('per month (price as of 2026-11-20)');
  });
});

describe('SageMakerMcpDashboard, an on-demand serverless endpoint', () => {
  const s = new Stack(new App(), 'OnDemand', { env: ENV });
  const model = ModelSource.fromContainer(ContainerImage.sklearn('1.2-1'), { modelData: ModelData.fromBucket(s3.Bucket.fromBucketName(s, 'Artifacts', 'mcp-artifacts'), 'score/model.tar.gz') });
  const endpoint = new ServerlessEndpoint(s, 'Score', { model, memorySize: Size.gibibytes(1), maxConcurrency: 5, endpointName: 'lead-score' });
  new SageMakerMcpDashboard(s, 'D', { serverlessEndpoints: [endpoint], costEstimate: { serverlessComputePerSecondUsd: 0.00002 } });
  const template = Template.fromStack(s);

  test('no provisioned-concurrency graphs; concurrency and memory use take the row; the serverless cost line is priced', () => {
    // The graphs carry the stack's region as a token (GraphWidget's default), so the body is an Fn::Join of strings (matched in order).
    const part = (re: string) => Match.stringLikeRegexp(re);
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', {
      DashboardBody: {
        'Fn::Join': ['', Match.arrayWith([
          part('"title":"Score: cold starts \\(ModelSetupTime SampleCount\\) and setup time \\(Maximum, µs\\)"'),
          part('"metrics":\\[\\["AWS/SageMaker","ServerlessConcurrentExecutionsUtilization","EndpointName","lead-score","VariantName","AllTraffic"'),
          part('- \\*\\*Score\\*\\*: Estimate \\(prices given by caller\\): Serverless Inference 1024 MiB in us-east-1: \\$0.00002 per second'),
        ])],
      },
    });
    const joined = Object.values<any>(template.findResources('AWS::CloudWatch::Dashboard'))[0].Properties.DashboardBody['Fn::Join'][1]
      .map((x: any) => (typeof x === 'string' ? x : 'us-east-1')).join('');
    const body = JSON.parse(joined);
    const widthOf = (title: string) => body.widgets.find((w: any) => w.properties.title === `Score: ${title}`).width;
    expect([widthOf('concurrency utilization (Maximum, 0-1)'), widthOf('memory utilization (Average, %)')]).toEqual([12, 12]);
    expect(body.widgets.filter((w: any) => /provisioned/.test(w.properties.title ?? ''))).toEqual([]);
    expect(endpoint._scaledProvisionedConcurrency).toBeUndefined();
    expect(endpoint.metricModelSetupTime().statistic).toBe('Average');
    expect(endpoint.metricProvisionedConcurrencyExecutions().period.toMinutes()).toBe(1);
  });
});

describe('SageMakerMcpDashboard, imported endpoints', () => {
  const s = new Stack(new App(), 'Imported', { env: ENV });
  new SageMakerMcpDashboard(s, 'D', {
    realtimeEndpoints: [RealtimeEndpoint.fromEndpointName(s, 'Chat', 'chat')],
    asyncEndpoints: [AsyncEndpoint.fromEndpointName(s, 'Docs', 'docs')],
    serverlessEndpoints: [ServerlessEndpoint.fromEndpointName(s, 'Score', 'score')],
    sharedGpuEndpoints: [SharedGpuEndpoint.fromEndpointName(s, 'Shared', 'shared')],
    inferenceComponents: [InferenceComponent.fromInferenceComponentAttributes(s, 'Llama', { inferenceComponentName: 'llama', endpointName: 'shared' })],
    featureGroups: [FeatureGroup.fromFeatureGroupName(s, 'Users', 'users')],
    pipelines: [TrainingPipeline.fromPipelineName(s, 'Train', 'train')],
  });
  const body = Object.values<any>(Template.fromStack(s).findResources('AWS::CloudWatch::Dashboard'))[0].Properties.DashboardBody;
  const text: string = typeof body === 'string' ? body : body['Fn::Join'][1].map((x: any) => (typeof x === 'string' ? x : 'us-east-1')).join('');
  const widgets: any[] = JSON.parse(text).widgets;
  const metricsOf = (title: string) => widgets.find((w) => w.properties.title === title)?.properties.metrics;

  test('each imported endpoint, component, feature group and pipeline is graphed by name, without range or cost line', () => {
    expect(metricsOf('Chat: invocations (Sum)')).toEqual([['AWS/SageMaker', 'Invocations', 'EndpointName', 'chat', 'VariantName', 'AllTraffic', { stat: 'Sum' }]]);
    expect(metricsOf('Docs: processed, failed, expired (Sum)')[0].slice(0, 4)).toEqual(['AWS/SageMaker', 'InvocationsProcesssed', 'EndpointName', 'docs']);
    expect(metricsOf('Score: concurrency utilization (Maximum, 0-1)')[0].slice(0, 4)).toEqual(['AWS/SageMaker', 'ServerlessConcurrentExecutionsUtilization', 'EndpointName', 'score']);
    expect(metricsOf('Llama: invocations (Sum)')[0]).toEqual(expect.arrayContaining(['InferenceComponentName', 'llama']));
    expect(metricsOf('Users: online store requests (Sum)')[0]).toEqual(expect.arrayContaining(['FeatureGroupName', 'users']));
    expect(metricsOf('Pipeline runs by outcome (Sum)')[0]).toEqual(expect.arrayContaining(['PipelineName', 'train']));
    expect(widgets.find((w) => w.properties.title === 'Chat: instances (while invoked)').properties.annotations).toBeUndefined();
    expect(widgets.find((w) => /^### Cost estimate/.test(w.properties.markdown ?? '')).properties.markdown).toContain('No endpoints.');
  });
});

describe('McpToolServer tool metrics', () => {
  const { server } = exampleDashboard();
  test('per tool or all, dimension service = the function name; errors by name need a tool', () => {
    const s = Stack.of(server);
    expect(s.resolve(server.metricToolCalls({ toolName: 'invoke_endpoint' }).dimensions)).toEqual({ service: { Ref: expect.any(String) }, ToolName: 'invoke_endpoint' });
    expect(Object.keys(server.metricToolErrors().dimensions!)).toEqual(['service']);
    expect(server.metricToolLatency().statistic).toBe('p50');
    expect(server.metricToolErrors({ toolName: 'invoke_endpoint' }, 'ModelError').dimensions).toMatchObject({ ErrorName: 'ModelError' });
    expect(() => server.metricToolErrors({}, 'ModelError')).toThrow("metricToolErrors: errorName 'ModelError' needs a toolName");
    expect(server).toBeInstanceOf(McpToolServer);
  });
});
