/**
 * Model provenance from SageMaker ML Lineage: a bounded walk of `ListAssociations` from a model package (or any lineage
 * entity), backward (`DestinationArn` = node: what went into it) or forward (`SourceArn` = node: what came out of it),
 * describing the entities it meets. A depth and a node limit bound the walk, each entity's pages are capped and stop on a
 * repeated token, and an entity already seen is never expanded twice, so cycles in the graph terminate. With a `scope`
 * only the runs of the given pipelines and their direct inputs and outputs are described; other entities are
 * summarised (kind and a marker) and no Describe call is made for them.
 */
// The runtime's AWS SDK clients are devDependencies on purpose: Lambda provides them, users install what they call.
// eslint-disable-next-line import/no-extraneous-dependencies
import type { AssociationSummary, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { parseCorrelationDescription } from '../contract/pipelines';
import { sageMakerSdk } from '../core/aws-sdk';
import { boundedClient, PageGuard } from '../core/bounded';
import { redactForAgent } from '../core/errors';
import type { TrainingSageMakerAccess } from '../pipelines/pipelines';

export type LineageDirection = 'backward' | 'forward';

export type LineageNodeKind =
  | 'artifact'
  | 'pipeline-execution'
  | 'model-package'
  | 'training-job'
  | 'processing-job'
  | 'trial-component'
  | 'action'
  | 'context'
  | 'other';

export interface LineageNode {
  readonly arn: string;
  readonly kind: LineageNodeKind;
  /** Hops from the start entity. */
  readonly depth: number;
  /** The association's `SourceType`/`DestinationType` for this entity (e.g. `DataSet`, `Model`), when given. */
  readonly lineageType?: string;
  readonly name?: string;
  /** What the Describe call returned, reduced to the useful fields (see `describeLineageEntity`). */
  readonly details?: Record<string, unknown>;
  /** The Describe call failed (e.g. AccessDenied, ResourceNotFound; account ids and ARNs redacted); the walk continued. */
  readonly describeError?: string;
  /** Outside the `scope`: `arn` is a marker (`outside-scope-<n>`), and the entity was not described. */
  readonly outsideScope?: boolean;
}

/** What may be described: the runs of these pipelines and the entities one association away from such a run. */
export interface LineageScope {
  /** Pipeline names (compared case-insensitively: SageMaker ARNs carry names in lower case). */
  readonly pipelines: string[];
}

export interface LineageEdge {
  readonly sourceArn: string;
  readonly destinationArn: string;
  readonly associationType?: string;
}

export interface ModelProvenanceOptions extends TrainingSageMakerAccess {
  /** Default `backward`. */
  readonly direction?: LineageDirection;
  /** Hops to follow, 1-10. Default 3. */
  readonly maxDepth?: number;
  /**
   * Node budget, 1-1000. Default 200. Once the graph holds this many entities the walk stops: no further
   * ListAssociations page is requested and no further entity is expanded, and the result says `truncated`.
   */
  readonly maxNodes?: number;
  /** ListAssociations `MaxResults` per page, 1-100. Default 100 (the API's maximum). */
  readonly pageSize?: number;
  /** Only follow this association type (e.g. `ContributedTo`). Default: all. */
  readonly associationType?: 'ContributedTo' | 'AssociatedWith' | 'DerivedFrom' | 'Produced' | 'SameAs';
  /** Describe each entity met. Default true. */
  readonly describe?: boolean;
  /** Describe only what this scope exposes; summarise the rest. Default: every entity may be described. */
  readonly scope?: LineageScope;
  /** ListAssociations pages read per entity at most. Default 10. */
  readonly maxPagesPerEntity?: number;
}

export interface ModelProvenance {
  readonly rootArn: string;
  readonly direction: LineageDirection;
  /** The start entity first, then breadth-first order. */
  readonly nodes: LineageNode[];
  readonly edges: LineageEdge[];
  /** Entities at `maxDepth` were not expanded, or `maxNodes` was reached: the graph may go on. */
  readonly truncated: boolean;
  /** Associations that led back to an entity already in the graph (cycles and diamonds). */
  readonly revisits: number;
}

/** Classifies a lineage entity by its ARN resource type. */
function lineageKindOf(arn: string): LineageNodeKind {
  const resource = arn.split(':')[5] ?? '';
  if (resource.startsWith('artifact/')) return 'artifact';
  if (/^pipeline\/[^/]+\/execution\//.test(resource)) return 'pipeline-execution';
  if (resource.startsWith('model-package/')) return 'model-package';
  if (resource.startsWith('training-job/')) return 'training-job';
  if (resource.startsWith('processing-job/')) return 'processing-job';
  if (resource.startsWith('experiment-trial-component/')) return 'trial-component';
  if (resource.startsWith('action/')) return 'action';
  if (resource.startsWith('context/')) return 'context';
  return 'other';
}

function compact(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/** Describes one entity (its Describe* call); `undefined` for kinds with no Describe call here. */
export async function describeLineageEntity(
  sagemaker: SageMakerClient,
  arn: string,
  kind: LineageNodeKind = lineageKindOf(arn),
): Promise<Record<string, unknown> | undefined> {
  switch (kind) {
    case 'artifact': {
      const a = await sagemaker.send(new (sageMakerSdk().DescribeArtifactCommand)({ ArtifactArn: arn }));
      return compact({ name: a.ArtifactName, artifactType: a.ArtifactType, sourceUri: a.Source?.SourceUri, properties: a.Properties });
    }
    case 'pipeline-execution': {
      const e = await sagemaker.send(new (sageMakerSdk().DescribePipelineExecutionCommand)({ PipelineExecutionArn: arn }));
      return compact({
        pipelineArn: e.PipelineArn,
        status: e.PipelineExecutionStatus,
        description: e.PipelineExecutionDescription,
        sessionId: parseCorrelationDescription(e.PipelineExecutionDescription).sessionId,
        failureReason: e.FailureReason,
      });
    }
    case 'model-package': {
      const m = await sagemaker.send(new (sageMakerSdk().DescribeModelPackageCommand)({ ModelPackageName: arn }));
      return compact({
        name: m.ModelPackageName,
        groupName: m.ModelPackageGroupName,
        version: m.ModelPackageVersion,
        status: m.ModelPackageStatus,
        approvalStatus: m.ModelApprovalStatus,
      });
    }
    case 'training-job': {
      const t = await sagemaker.send(new (sageMakerSdk().DescribeTrainingJobCommand)({ TrainingJobName: arn.replace(/^.*:training-job\//, '') }));
      return compact({
        name: t.TrainingJobName,
        status: t.TrainingJobStatus,
        modelArtifacts: t.ModelArtifacts?.S3ModelArtifacts,
        failureReason: t.FailureReason,
      });
    }
    default:
      return undefined;
  }
}

/** ListAssociations pages for one entity, requested one at a time so the caller can stop early. */
async function* associationPages(
  sagemaker: SageMakerClient,
  arn: string,
  direction: LineageDirection,
  pageSize: number,
  associationType: string | undefined,
  guard: PageGuard,
): AsyncGenerator<{ associations: AssociationSummary[]; more: boolean }> {
  let nextToken: string | undefined;
  do {
    const page = await sagemaker.send(new (sageMakerSdk().ListAssociationsCommand)({
      ...(direction === 'backward' ? { DestinationArn: arn } : { SourceArn: arn }),
      ...(associationType ? { AssociationType: associationType as AssociationSummary['AssociationType'] } : {}),
      MaxResults: pageSize,
      NextToken: nextToken,
    }));
    nextToken = guard.next(page.NextToken);
    yield { associations: page.AssociationSummaries ?? [], more: nextToken !== undefined };
  } while (nextToken);
}

/**
 * Walks the lineage graph from `rootArn` (typically a model package ARN): backward answers "what built this model",
 * forward "what did this produce".
 */
export async function getModelProvenance(rootArn: string, options: ModelProvenanceOptions = {}): Promise<ModelProvenance> {
  const direction = options.direction ?? 'backward';
  const maxDepth = options.maxDepth ?? 3;
  const maxNodes = options.maxNodes ?? 200;
  const pageSize = options.pageSize ?? 100;
  if (direction !== 'backward' && direction !== 'forward') throw new Error(`direction: got ${JSON.stringify(direction)}, expected "backward" or "forward"`);
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 10) throw new Error(`maxDepth: got ${maxDepth}, expected an integer between 1 and 10`);
  if (!Number.isInteger(maxNodes) || maxNodes < 1 || maxNodes > 1000) throw new Error(`maxNodes: got ${maxNodes}, expected an integer between 1 and 1000`);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) throw new Error(`pageSize: got ${pageSize}, expected an integer between 1 and 100`);
  const sagemaker = options.sagemaker ?? boundedClient(sageMakerSdk().SageMakerClient, options.sagemakerConfig ?? {});
  // With a scope, what may be described is known only once the graph is: describe after the walk.
  const describe = (options.describe ?? true) && options.scope === undefined;

  const nodes: LineageNode[] = [];
  const edges: LineageEdge[] = [];
  const seenEdges = new Set<string>();
  const seen = new Set<string>([rootArn]);
  let truncated = false;
  let revisits = 0;

  const makeNode = async (arn: string, depth: number, lineageType?: string, name?: string): Promise<LineageNode> => {
    const kind = lineageKindOf(arn);
    const base = { arn, kind, depth, ...(lineageType ? { lineageType } : {}), ...(name ? { name } : {}) };
    if (!describe) return base;
    try {
      const details = await describeLineageEntity(sagemaker, arn, kind);
      return details ? { ...base, details } : base;
    } catch (err) {
      return { ...base, describeError: redactForAgent(`${(err as Error).name}: ${(err as Error).message}`) };
    }
  };

  nodes.push(await makeNode(rootArn, 0));
  walk: for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (node.depth >= maxDepth) {
      truncated = true;
      continue;
    }
    // The budget is spent: expanding further entities (or reading further pages) would only cost calls.
    if (nodes.length >= maxNodes) {
      truncated = true;
      break;
    }
    const guard = new PageGuard(`ListAssociations of ${node.arn}`, options.maxPagesPerEntity ?? 10);
    for await (const page of associationPages(sagemaker, node.arn, direction, pageSize, options.associationType, guard)) {
      for (const a of page.associations) {
        const neighbor = direction === 'backward' ? a.SourceArn : a.DestinationArn;
        if (!a.SourceArn || !a.DestinationArn || !neighbor) continue;
        const edgeKey = `${a.SourceArn}\n${a.DestinationArn}\n${a.AssociationType ?? ''}`;
        if (!seenEdges.has(edgeKey)) {
          seenEdges.add(edgeKey);
          const associationType = a.AssociationType ? { associationType: a.AssociationType } : {};
          edges.push({ sourceArn: a.SourceArn, destinationArn: a.DestinationArn, ...associationType });
        }
        if (seen.has(neighbor)) {
          revisits++;
          continue;
        }
        if (nodes.length >= maxNodes) {
          truncated = true;
          continue;
        }
        seen.add(neighbor);
        const lineageType = direction === 'backward' ? a.SourceType : a.DestinationType;
        const name = direction === 'backward' ? a.SourceName : a.DestinationName;
        nodes.push(await makeNode(neighbor, node.depth + 1, lineageType, name));
      }
      if (nodes.length >= maxNodes && page.more) {
        truncated = true;
        break walk;
      }
    }
    if (guard.truncated) truncated = true;
  }
  if (options.scope && (options.describe ?? true)) {
    return { rootArn, direction, ...await describeInScope(sagemaker, nodes, edges, options.scope), truncated, revisits };
  }
  return { rootArn, direction, nodes, edges, truncated, revisits };
}

/** The pipeline name of a pipeline-execution ARN (`...:pipeline/<name>/execution/<id>`). */
function pipelineOfExecution(arn: string): string | undefined {
  return /:pipeline\/([^/]+)\/execution\//.exec(arn)?.[1];
}

/**
 * Describes the in-scope nodes (runs of the scope's pipelines and their direct neighbours) and replaces every other
 * node by its kind, depth, lineage type and a marker, in the edges too. The root keeps its ARN (the caller gave it).
 */
async function describeInScope(
  sagemaker: SageMakerClient,
  nodes: LineageNode[],
  edges: LineageEdge[],
  scope: LineageScope,
): Promise<{ nodes: LineageNode[]; edges: LineageEdge[] }> {
  const pipelines = new Set(scope.pipelines.map((p) => p.toLowerCase()));
  const runs = new Set(nodes.filter((n) => n.kind === 'pipeline-execution' && pipelines.has((pipelineOfExecution(n.arn) ?? '').toLowerCase())).map((n) => n.arn));
  const inScope = new Set(runs);
  for (const e of edges) {
    if (runs.has(e.sourceArn)) inScope.add(e.destinationArn);
    if (runs.has(e.destinationArn)) inScope.add(e.sourceArn);
  }
  const markers = new Map<string, string>();
  let hidden = 0;
  const markerOf = (arn: string) => markers.get(arn) ?? markers.set(arn, `outside-scope-${++hidden}`).get(arn)!;
  const shown: LineageNode[] = [];
  for (const node of nodes) {
    if (inScope.has(node.arn)) {
      try {
        const details = await describeLineageEntity(sagemaker, node.arn, node.kind);
        shown.push(details ? { ...node, details } : node);
      } catch (err) {
        shown.push({ ...node, describeError: redactForAgent(`${(err as Error).name}: ${(err as Error).message}`) });
      }
      continue;
    }
    const marker = node.depth === 0 ? node.arn : markerOf(node.arn);
    if (node.depth === 0) markers.set(node.arn, marker);
    const lineageType = node.lineageType ? { lineageType: node.lineageType } : {};
    shown.push({ arn: marker, kind: node.kind, depth: node.depth, ...lineageType, outsideScope: true });
  }
  // An edge to an entity that was not added (node budget spent) names no node: it gets a marker too.
  const mark = (arn: string) => (inScope.has(arn) ? arn : markerOf(arn));
  return { nodes: shown, edges: edges.map((e) => ({ ...e, sourceArn: mark(e.sourceArn), destinationArn: mark(e.destinationArn) })) };
}
