import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct, IConstruct } from 'constructs';
import { LazyTextWidget, SubtreeAlarmsWidget, displayName } from './dashboard-widgets';
import { AsyncEndpoint, IAsyncEndpoint } from '../async';
import { AsyncResults } from '../async/async-results';
import { IFeatureGroup } from '../features';
import { McpToolServer } from '../mcp';
import { ITrainingPipeline, PipelineEventRouter } from '../pipelines';
import { CostEstimateOptions, EndpointCostEstimate } from '../prices';
import { RECORD_METRICS, METRICS_NAMESPACE, METRIC_DIMENSIONS } from '../private/contract.generated';
import { IRealtimeEndpoint, RealtimeEndpoint } from '../realtime';
import { IServerlessEndpoint, ServerlessEndpoint } from '../serverless';
import { IInferenceComponent, ISharedGpuEndpoint, InferenceComponent, SharedGpuEndpoint } from '../shared-gpu';

/** Props of `SageMakerMcpDashboard`. */
export interface SageMakerMcpDashboardProps {
  /**
   * The dashboard's name.
   * @default - CloudFormation generates one
   */
  readonly dashboardName?: string;
  /**
   * The MCP tool server whose tools are graphed (calls, errors, p50/p99 latency per tool).
   * @default - no tool section
   */
  readonly server?: McpToolServer;
  /**
   * Real-time endpoints, created or imported: a row per production variant (an imported endpoint: one row, for the
   * variant its metrics default to; no capacity range, no cost line).
   * @default - none
   */
  readonly realtimeEndpoints?: IRealtimeEndpoint[];
  /**
   * Async endpoints: a row each, from AWS's async metric list only: invocations processed, failed and expired, model
   * latency, backlog, its age and HasBacklogWithoutCapacity, the instance count (CPUUtilization SampleCount per
   * minute) and, for a created endpoint, the result recorder, the capacity range and the cost line.
   * @default - none
   */
  readonly asyncEndpoints?: IAsyncEndpoint[];
  /**
   * Serverless endpoints: a row each (invocations, model latency, errors, cold starts), then concurrency and memory use
   * and, for a created endpoint with provisioned concurrency, its executions against its range and the requests that
   * spilled over.
   * @default - none
   */
  readonly serverlessEndpoints?: IServerlessEndpoint[];
  /**
   * Shared-GPU endpoints: a row per inference component a created endpoint hosts (copies against their scaling range),
   * and its cost line. Give the components of an imported endpoint as its inference components.
   * @default - none
   */
  readonly sharedGpuEndpoints?: ISharedGpuEndpoint[];
  /**
   * More inference components, created or imported (those of an imported shared-GPU endpoint): a row each.
   * @default - none
   */
  readonly inferenceComponents?: IInferenceComponent[];
  /**
   * Feature groups: online-store invocations, latency, errors and throttles.
   * @default - none
   */
  readonly featureGroups?: IFeatureGroup[];
  /**
   * Training pipelines: runs by outcome (started, succeeded, failed, stopped).
   * @default - none
   */
  readonly pipelines?: ITrainingPipeline[];
  /**
   * Pipeline event routers: recorded / duplicate / refused events and their dead-letter queue. Created routers only: an
   * imported one has no function or queue to graph.
   * @default - none
   */
  readonly pipelineRouters?: PipelineEventRouter[];
  /**
   * The period of every graph but the async instance count (1 minute: one CPUUtilization sample per instance and minute).
   * @default Duration.minutes(5)
   */
  readonly period?: Duration;
  /**
   * How the cost text widget estimates (region, price table, your prices): see the cost estimate options.
   * @default - the stack's region and the bundled price table
   */
  readonly costEstimate?: CostEstimateOptions;
}

const WIDTH = 24;
const GRAPH_HEIGHT = 6;

/**
 * One CloudWatch dashboard for an MCP stack of this library, top to bottom: the state of every alarm the given
 * constructs created; the MCP server's tools (calls and errors per tool, Sum; latency p50 and p99); each endpoint
 * variant or inference component (invocations, Sum; model latency p50/p99; 4xx, 5xx and model errors, Sum; instances or
 * copies against their min and max); each async endpoint's invocations processed, failed and expired (Sum), model
 * latency, backlog (Average), age of the oldest request (Maximum), HasBacklogWithoutCapacity (Maximum), result dead
 * letters (Maximum) and instances (CPUUtilization SampleCount over 1 minute); each serverless endpoint's invocations, model
 * latency, errors, cold starts (ModelSetupTime), concurrency and memory use and provisioned concurrency; feature groups; pipeline runs by outcome and
 * the routers' recorded/duplicate/refused events and dead letters (Sum, Maximum); and a text widget with the dated cost
 * estimate. Every graph uses one period (5 minutes by default), except the async instance count (1 minute). Add your own widgets
 * below the library's.
 * https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/operations.md shows the layout.
 */
export class SageMakerMcpDashboard extends Construct {
  /** The dashboard. */
  public readonly dashboard: cloudwatch.Dashboard;
  private readonly period: Duration;

  constructor(scope: Construct, id: string, props: SageMakerMcpDashboardProps = {}) {
    super(scope, id);
    this.period = props.period ?? Duration.minutes(5);
    this.dashboard = new cloudwatch.Dashboard(this, 'Resource', { dashboardName: props.dashboardName, defaultInterval: Duration.hours(3) });
    const subjects = (): IConstruct[] => [
      ...(props.server ? [props.server] : []), ...props.realtimeEndpoints ?? [], ...props.asyncEndpoints ?? [], ...props.serverlessEndpoints ?? [],
      ...props.sharedGpuEndpoints ?? [], ...props.inferenceComponents ?? [],
      ...props.featureGroups ?? [], ...props.pipelines ?? [], ...props.pipelineRouters ?? [],
    ];
    const minutes = this.period.toMinutes();
    this.dashboard.addWidgets(new cloudwatch.TextWidget({
      markdown: `# SageMaker MCP\nEvery graph: period ${minutes} minute${minutes === 1 ? '' : 's'}; counts are Sum, latencies p50 and p99, `
        + 'backlogs Average, ages and dead letters Maximum; async instance counts are CPUUtilization samples per 1-minute period. '
        + 'Tool metrics: namespace `SageMakerMcp` (docs/operations.md).',
      width: WIDTH,
      height: 2,
    }));
    this.dashboard.addWidgets(new SubtreeAlarmsWidget('Alarms of this stack\'s MCP constructs', subjects, WIDTH, 4));
    if (props.server) this.addServer(props.server);
    for (const e of props.realtimeEndpoints ?? []) {
      // An imported endpoint's metrics name the variant given at import (AllTraffic unless said otherwise).
      for (const variant of e instanceof RealtimeEndpoint ? e.variantNames : [undefined]) this.addVariant(e, variant);
    }
    for (const e of props.asyncEndpoints ?? []) this.addAsync(e);
    for (const e of props.serverlessEndpoints ?? []) this.addServerless(e);
    for (const e of props.sharedGpuEndpoints ?? []) {
      if (e instanceof SharedGpuEndpoint) for (const c of e.inferenceComponents) this.addComponent(c);
    }
    for (const c of props.inferenceComponents ?? []) this.addComponent(c);
    for (const g of props.featureGroups ?? []) this.addFeatureGroup(g);
    const pipelines = props.pipelines ?? [];
    const routers = props.pipelineRouters ?? [];
    if (pipelines.length + routers.length > 0) this.addPipelines(pipelines, routers);
    this.dashboard.addWidgets(new LazyTextWidget(() => costMarkdown(props), WIDTH, 4));
  }

  /** Adds your widgets below the library's (one row per call, as a CloudWatch `Dashboard` adds them). */
  public addWidgets(...widgets: cloudwatch.IWidget[]): void {
    this.dashboard.addWidgets(...widgets);
  }

  private graph(title: string, left: cloudwatch.IMetric[], width: number, extra: Partial<cloudwatch.GraphWidgetProps> = {}): cloudwatch.GraphWidget {
    return new cloudwatch.GraphWidget({ title, left, width, height: GRAPH_HEIGHT, period: this.period, ...extra });
  }

  private addServer(server: McpToolServer): void {
    const name = displayName(server);
    const perTool = (f: (toolName: string) => cloudwatch.IMetric) => server.toolNames.map(f);
    const p = { period: this.period };
    this.dashboard.addWidgets(
      this.graph(`${name}: tool calls (Sum)`, perTool((toolName) => server.metricToolCalls({ ...p, toolName, label: toolName })), 8),
      this.graph(`${name}: tool errors (Sum)`, perTool((toolName) => server.metricToolErrors({ ...p, toolName, label: toolName })), 8),
      this.graph(`${name}: tool latency p50 / p99 (ms)`, [
        server.metricToolLatency({ ...p, label: 'all tools p50' }),
        server.metricToolLatency({ ...p, statistic: 'p99', label: 'all tools p99' }),
        ...perTool((toolName) => server.metricToolLatency({ ...p, toolName, statistic: 'p99', label: `${toolName} p99` })),
      ], 8),
    );
  }

  private capacityGraph(
    title: string, count: cloudwatch.IMetric, range: { minCapacity: number; maxCapacity: number } | undefined, fixed?: number, period?: Duration,
    perPool: cloudwatch.IMetric[] = [],
  ) {
    const annotations: cloudwatch.HorizontalAnnotation[] = range
      ? [{ value: range.minCapacity, label: `min ${range.minCapacity}` }, { value: range.maxCapacity, label: `max ${range.maxCapacity}` }]
      : fixed !== undefined ? [{ value: fixed, label: `fixed ${fixed}` }] : [];
    return this.graph(title, [count, ...perPool], 6, { leftAnnotations: annotations, leftYAxis: { min: 0 }, ...(period ? { period } : {}) });
  }

  private addVariant(e: IRealtimeEndpoint, variantName: string | undefined): void {
    const created = e instanceof RealtimeEndpoint ? e : undefined;
    const name = variantName ? `${displayName(e)}/${variantName}` : displayName(e);
    const o = { variantName, period: this.period };
    const invocations = e.metricInvocations({ ...o, statistic: 'Sum' });
    const perInstance = e.metricInvocationsPerInstance({ ...o, statistic: 'Sum' });
    this.dashboard.addWidgets(
      this.graph(`${name}: invocations (Sum)`, [invocations], 6),
      this.graph(`${name}: model latency p50 / p99 (µs)`, [e.metricModelLatency({ ...o, statistic: 'p50', label: 'p50' }), e.metricModelLatency({ ...o, statistic: 'p99', label: 'p99' })], 6),
      this.graph(`${name}: errors (Sum)`, [
        e.metricInvocation4XXErrors({ ...o, statistic: 'Sum', label: '4xx' }), e.metricInvocation5XXErrors({ ...o, statistic: 'Sum', label: '5xx' }),
        e.metric('InvocationModelErrors', { ...o, statistic: 'Sum', label: 'model errors' }),
      ], 6),
      this.capacityGraph(`${name}: instances (while invoked)`, instancesWhileInvoked(invocations, perInstance, 'instances'),
        created && variantName ? created._scaledInstanceCount(variantName) : undefined, undefined, undefined,
        created && variantName ? instancesPerPool(invocations, perInstance, created._poolInstanceTypes(variantName)) : undefined),
    );
  }

  /**
   * An async endpoint, only from the metrics AWS publishes for one (an exhaustive list, without Invocations,
   * InvocationsPerInstance or OverheadLatency: https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-monitor.html);
   * the instance count is CPUUtilization's SampleCount over 1 minute, as AWS's async troubleshooting page counts it
   * (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-troubleshooting.html).
   */
  private addAsync(e: IAsyncEndpoint): void {
    const created = e instanceof AsyncEndpoint ? e : undefined;
    const name = displayName(e);
    const o = { period: this.period };
    this.dashboard.addWidgets(
      this.graph(`${name}: processed, failed, expired (Sum)`, [
        e.metricInvocationsProcessed({ ...o, label: 'processed' }),
        // AWS's list writes InvocationsProcesssed (metricInvocationsProcessed); which spelling SageMaker emits is
        // unconfirmed, so the one without the third s is graphed beside it.
        e.metric('InvocationsProcessed', { ...o, statistic: 'Sum', label: 'processed (InvocationsProcessed)' }),
        e.metricInvocationFailures({ ...o, label: 'failures' }),
        e.metricExpiredRequests({ ...o, label: 'expired' }),
      ], 6),
      this.graph(`${name}: model latency p50 / p99 (µs)`, [e.metricModelLatency({ ...o, statistic: 'p50', label: 'p50' }), e.metricModelLatency({ ...o, statistic: 'p99', label: 'p99' })], 6),
      this.graph(`${name}: backlog (Average) and oldest request (Maximum, s)`, [e.metricApproximateBacklogSize({ ...o, statistic: 'Average', label: 'backlog' })], 6, {
        right: [e.metricApproximateAgeOfOldestRequest({ ...o, statistic: 'Maximum', label: 'age of oldest' })],
      }),
      this.graph(`${name}: backlog without capacity; result dead letters (Maximum)`, [
        e.metricHasBacklogWithoutCapacity({ ...o, statistic: 'Maximum', label: 'HasBacklogWithoutCapacity' }),
        ...(created?.resultDeadLetterQueue ? [created.resultDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ ...o, statistic: 'Maximum', label: 'recorder DLQ depth' })] : []),
      ], 6),
    );
    // One CPUUtilization sample per instance per minute: the count of a 1-minute period is the instance count, 0 when
    // scaled to zero (no samples). The graph keeps its own 1-minute period for that reason.
    const cpuSamples = e.metricCpuUtilization({ statistic: 'SampleCount', period: Duration.minutes(1) });
    const instances = new cloudwatch.MathExpression({ expression: 'FILL(cpuSamples, 0)', usingMetrics: { cpuSamples }, label: 'instances', period: Duration.minutes(1) });
    this.dashboard.addWidgets(
      this.capacityGraph(`${name}: instances (CPUUtilization SampleCount, 1 min)`, instances, created?._scaledInstanceCount, undefined, Duration.minutes(1),
        created ? instanceSamplesPerPool(cpuSamples, created._poolInstanceTypes()) : undefined),
      ...(created?.resultQueue ? [this.recorderGraph(`${name}: result recorder (Sum)`, created.node.tryFindChild('Results'))] : []),
    );
  }

  /** The recorder's ResultsRecorded / Duplicate / Refused: the results store's `Recorder` function (AsyncResults). */
  private recorderGraph(title: string, results: IConstruct | undefined): cloudwatch.GraphWidget {
    const recorder = results instanceof AsyncResults ? results.recorder : undefined;
    return this.graph(title, recorder ? recordMetrics(recorder.functionName, this.period) : [], 6);
  }

  /**
   * A serverless endpoint, from the metrics AWS publishes for one (an exhaustive list, which has no
   * InvocationModelErrors: https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints-monitoring.html),
   * dimensions EndpointName and VariantName like a realtime variant's. The metrics are named here (not through the
   * class's `metric...` methods) so that an imported endpoint graphs the same.
   */
  private addServerless(e: IServerlessEndpoint): void {
    const name = displayName(e);
    const o = { period: this.period };
    this.dashboard.addWidgets(
      this.graph(`${name}: invocations (Sum)`, [e.metricInvocations({ ...o, statistic: 'Sum' })], 6),
      this.graph(`${name}: model latency p50 / p99 (µs)`, [e.metricModelLatency({ ...o, statistic: 'p50', label: 'p50' }), e.metricModelLatency({ ...o, statistic: 'p99', label: 'p99' })], 6),
      this.graph(`${name}: errors (Sum)`, [
        e.metricInvocation4XXErrors({ ...o, statistic: 'Sum', label: '4xx' }), e.metricInvocation5XXErrors({ ...o, statistic: 'Sum', label: '5xx' }),
      ], 6),
      this.graph(`${name}: cold starts (ModelSetupTime SampleCount) and setup time (Maximum, µs)`,
        [e.metric('ModelSetupTime', { ...o, statistic: 'SampleCount', label: 'cold starts' })], 6, {
          right: [e.metric('ModelSetupTime', { ...o, statistic: 'Maximum', label: 'setup time max' })],
        }),
    );
    const created = e instanceof ServerlessEndpoint ? e : undefined;
    const provisioned = created?.provisionedConcurrency !== undefined;
    const max = { ...o, statistic: 'Maximum' };
    const width = provisioned ? 6 : 12;
    this.dashboard.addWidgets(
      this.graph(`${name}: concurrency utilization (Maximum, 0-1)`, [
        e.metric('ServerlessConcurrentExecutionsUtilization', { ...max, label: 'of maxConcurrency' }),
        ...(provisioned ? [e.metric('ServerlessProvisionedConcurrencyUtilization', { ...max, label: 'of provisioned concurrency' })] : []),
      ], width, { leftYAxis: { min: 0, max: 1 } }),
      this.graph(`${name}: memory utilization (Average, %)`, [e.metricMemoryUtilization({ ...o, statistic: 'Average' })], width, { leftYAxis: { min: 0 } }),
      ...(created && provisioned ? [
        this.capacityGraph(`${name}: provisioned concurrency executions (Maximum)`, created.metricProvisionedConcurrencyExecutions({ ...o, label: 'executions' }),
          created._scaledProvisionedConcurrency, created.provisionedConcurrency),
        this.graph(`${name}: provisioned / spillover invocations (Sum)`, [
          created.metricProvisionedConcurrencyInvocations({ ...o, label: 'provisioned' }), created.metricProvisionedConcurrencySpilloverInvocations({ ...o, label: 'spillover' }),
        ], 6),
      ] : []),
    );
  }

  private addComponent(c: IInferenceComponent): void {
    const created = c instanceof InferenceComponent ? c : undefined;
    const name = displayName(c);
    const o = { period: this.period };
    const invocations = c.metricInvocations({ ...o, statistic: 'Sum' });
    const perCopy = c.metricInvocationsPerCopy({ ...o, statistic: 'Sum' });
    this.dashboard.addWidgets(
      this.graph(`${name}: invocations (Sum)`, [invocations], 6),
      this.graph(`${name}: model latency p50 / p99 (µs)`, [c.metricModelLatency({ ...o, statistic: 'p50', label: 'p50' }), c.metricModelLatency({ ...o, statistic: 'p99', label: 'p99' })], 6),
      this.graph(`${name}: errors (Sum)`, [
        c.metricInvocation4XXErrors({ ...o, statistic: 'Sum', label: '4xx' }), c.metricInvocation5XXErrors({ ...o, statistic: 'Sum', label: '5xx' }),
        c.metricInvocationModelErrors({ ...o, statistic: 'Sum', label: 'model errors' }),
      ], 6),
      this.capacityGraph(`${name}: copies (while invoked)`, instancesWhileInvoked(invocations, perCopy, 'copies'),
        created?._scaledCopyCount, created?.copies, undefined,
        created && created.instanceTypes.length > 1 ? instancesPerPool(invocations, perCopy, created.instanceTypes.map((t) => t.name), 'copies') : undefined),
    );
  }

  private addFeatureGroup(g: IFeatureGroup): void {
    const name = displayName(g);
    const o = { period: this.period };
    this.dashboard.addWidgets(
      this.graph(`${name}: online store requests (Sum)`, [g.metricInvocations({ ...o, statistic: 'Sum' })], 8),
      this.graph(`${name}: latency p50 / p99 (µs)`, [g.metricLatency({ ...o, statistic: 'p50', label: 'p50' }), g.metricLatency({ ...o, statistic: 'p99', label: 'p99' })], 8),
      this.graph(`${name}: errors and throttles (Sum)`, [
        g.metricOperation4XXErrors({ ...o, statistic: 'Sum', label: '4xx' }), g.metricOperation5XXErrors({ ...o, statistic: 'Sum', label: '5xx' }),
        g.metricThrottledRequests({ ...o, statistic: 'Sum', label: 'throttled' }),
      ], 8),
    );
  }

  private addPipelines(pipelines: ITrainingPipeline[], routers: PipelineEventRouter[]): void {
    const o = { period: this.period, statistic: 'Sum' };
    const runs = pipelines.flatMap((p) => ['ExecutionStarted', 'ExecutionSucceeded', 'ExecutionFailed', 'ExecutionStopped']
      .map((m) => p.metric(m, { ...o, label: `${displayName(p)} ${m.replace('Execution', '').toLowerCase()}` })));
    this.dashboard.addWidgets(
      this.graph('Pipeline runs by outcome (Sum)', runs, 12),
      this.graph('Pipeline router: recorded / duplicate / refused (Sum); dead letters (Maximum)',
        routers.flatMap((r) => recordMetrics(r.handler.functionName, this.period, `${displayName(r)} `)), 12, {
          right: routers.map((r) => r.metricDeadLetterMessages({ period: this.period, statistic: 'Maximum', label: `${displayName(r)} DLQ depth` })),
        }),
    );
  }
}

/** Invocations ÷ invocations-per-instance (or per copy), both Sum: the instance (copy) count while requests flow. */
function instancesWhileInvoked(invocations: cloudwatch.IMetric, perUnit: cloudwatch.IMetric, label: string): cloudwatch.IMetric {
  return new cloudwatch.MathExpression({ expression: 'IF(perUnit > 0, invocations / perUnit)', usingMetrics: { invocations, perUnit }, label });
}

/**
 * With instance pools, the instances (or an inference component's copies) of each pool's type while invoked: the same
 * two metrics with the `InstanceType` dimension SageMaker adds per pool, to a variant's dimensions and to a component's
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-heterogeneous.html).
 */
function instancesPerPool(
  invocations: cloudwatch.Metric, perInstance: cloudwatch.Metric, poolTypes: string[], unit: 'instances' | 'copies' = 'instances',
): cloudwatch.IMetric[] {
  // Ids unique within the graph: each expression names its own pair.
  return poolTypes.map((t, i) => new cloudwatch.MathExpression({
    expression: `IF(perUnit${i} > 0, invocations${i} / perUnit${i})`,
    usingMetrics: { [`invocations${i}`]: ofInstanceType(invocations, t), [`perUnit${i}`]: ofInstanceType(perInstance, t) },
    label: `${unit} ${t}`,
  }));
}

/** With instance pools, the instances of each pool's type: its CPUUtilization samples (`InstanceType` dimension) per minute. */
function instanceSamplesPerPool(cpuSamples: cloudwatch.Metric, poolTypes: string[]): cloudwatch.IMetric[] {
  return poolTypes.map((t, i) => new cloudwatch.MathExpression({
    expression: `FILL(cpuSamples${i}, 0)`,
    usingMetrics: { [`cpuSamples${i}`]: ofInstanceType(cpuSamples, t) },
    label: `instances ${t}`,
    period: Duration.minutes(1),
  }));
}

function ofInstanceType(m: cloudwatch.Metric, instanceType: string): cloudwatch.Metric {
  return m.with({ dimensionsMap: { ...m.dimensions, InstanceType: instanceType } });
}

/** ResultsRecorded / ResultsDuplicate / ResultsRefused of one recorder function (namespace SageMakerMcp). */
function recordMetrics(functionName: string, period: Duration, prefix = ''): cloudwatch.Metric[] {
  const names = { recorded: RECORD_METRICS.RECORDED, duplicate: RECORD_METRICS.DUPLICATE, refused: RECORD_METRICS.REFUSED };
  return Object.entries(names).map(([label, metricName]) =>
    new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { [METRIC_DIMENSIONS.SERVICE]: functionName }, statistic: 'Sum', period, label: `${prefix}${label}` }));
}

/** The cost text: each endpoint's dated estimate (or why there is none), one line per variant plus the serverless line. */
function costMarkdown(props: SageMakerMcpDashboardProps): string {
  const lines: string[] = [];
  const add = (name: string, estimate: () => EndpointCostEstimate, variantInName: boolean) => {
    try {
      const e = estimate();
      for (const v of e.variants) {
        const range = `${v.minInstances}-${v.maxInstances} × ${v.instancePoolTypes ? `pools ${v.instancePoolTypes.join(', ')}` : v.instanceType}`;
        lines.push(`- **${variantInName && v.variantName ? `${name}/${v.variantName}` : name}**: ${v.priceKnown
          ? `${range}: $${v.monthlyAtMinUsd}-$${v.monthlyAtMaxUsd} per month (price as of ${v.priceAsOf})`
          : `${range}: price not in the price table of ${v.priceAsOf}`}`);
      }
      if (e.serverless) lines.push(`- **${name}**: ${e.serverless.summary}`);
    } catch (err) {
      lines.push(`- **${name}**: no estimate (${(err as Error).message.split('\n').slice(-1)[0].replace(/^\s*- /, '')})`);
    }
  };
  // An imported endpoint's instances are not known here: it gets no line.
  const o = props.costEstimate;
  for (const e of props.realtimeEndpoints ?? []) if (e instanceof RealtimeEndpoint) add(displayName(e), () => e.costEstimate(o), true);
  for (const e of props.asyncEndpoints ?? []) if (e instanceof AsyncEndpoint) add(displayName(e), () => e.costEstimate(o), false);
  for (const e of props.serverlessEndpoints ?? []) if (e instanceof ServerlessEndpoint) add(displayName(e), () => e.costEstimate(o), false);
  for (const e of props.sharedGpuEndpoints ?? []) if (e instanceof SharedGpuEndpoint) add(displayName(e), () => e.costEstimate(o), false);
  return ['### Cost estimate (on-demand hosting, an estimate, not a bill; docs/cost.md)', ...(lines.length ? lines : ['No endpoints.'])].join('\n');
}
