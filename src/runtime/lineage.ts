/**
 * Model provenance from SageMaker ML Lineage: a bounded walk of `ListAssociations` from a model package (or any lineage
 * entity), backward (`DestinationArn` = node: what went into it) or forward (`SourceArn` = node: what came out of it),
 * describing the entities it meets. Every page is read, a depth and a node limit bound the walk, and an entity already
 * seen is never expanded twice, so cycles in the graph terminate.
 */
// The runtime's AWS SDK clients are devDependencies on purpose: Lambda provides them, users install what they call.
// eslint-disable-next-line import/no-extraneous-dependencies
import {
  AssociationSummary,
  DescribeArtifactCommand,
  DescribeModelPackageCommand,
  DescribePipelineExecutionCommand,
  DescribeTrainingJobCommand,
  ListAssociationsCommand,
  SageMakerClient,
} from '@aws-sdk/client-sagemaker';
import type { TrainingSageMakerAccess } from './pipelines';
import { parseCorrelationDescription } from '../pipelines/contract';

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
  /** The Describe call failed (e.g. AccessDenied, ResourceNotFound); the walk continued. */
  readonly describeError?: string;
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
export function lineageKindOf(arn: string): LineageNodeKind {
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

/** Describes one entity, as the seed's provenance tool does; `undefined` for kinds with no Describe call here. */
export async function describeLineageEntity(
  sagemaker: SageMakerClient,
  arn: string,
  kind: LineageNodeKind = lineageKindOf(arn),
): Promise<Record<string, unknown> | undefined> {
  switch (kind) {
    case 'artifact': {
      const a = await sagemaker.send(new DescribeArtifactCommand({ ArtifactArn: arn }));
      return compact({ name: a.ArtifactName, artifactType: a.ArtifactType, sourceUri: a.Source?.SourceUri, properties: a.Properties });
    }
    case 'pipeline-execution': {
      const e = await sagemaker.send(new DescribePipelineExecutionCommand({ PipelineExecutionArn: arn }));
      return compact({
        pipelineArn: e.PipelineArn,
        status: e.PipelineExecutionStatus,
        description: e.PipelineExecutionDescription,
        sessionId: parseCorrelationDescription(e.PipelineExecutionDescription).sessionId,
        failureReason: e.FailureReason,
      });
    }
    case 'model-package': {
      const m = await sagemaker.send(new DescribeModelPackageCommand({ ModelPackageName: arn }));
      return compact({
        name: m.ModelPackageName,
        groupName: m.ModelPackageGroupName,
        version: m.ModelPackageVersion,
        status: m.ModelPackageStatus,
        approvalStatus: m.ModelApprovalStatus,
      });
    }
    case 'training-job': {
      const t = await sagemaker.send(new DescribeTrainingJobCommand({ TrainingJobName: arn.replace(/^.*:training-job\//, '') }));
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
  associationType?: string,
): AsyncGenerator<{ associations: AssociationSummary[]; more: boolean }> {
  let nextToken: string | undefined;
  do {
    const page = await sagemaker.send(new ListAssociationsCommand({
      ...(direction === 'backward' ? { DestinationArn: arn } : { SourceArn: arn }),
      ...(associationType ? { AssociationType: associationType as AssociationSummary['AssociationType'] } : {}),
      MaxResults: pageSize,
      NextToken: nextToken,
    }));
    nextToken = page.NextToken;
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
  const sagemaker = options.sagemaker ?? new SageMakerClient(options.sagemakerConfig ?? {});
  const describe = options.describe ?? true;

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
      return { ...base, describeError: `${(err as Error).name}: ${(err as Error).message}` };
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
    for await (const page of associationPages(sagemaker, node.arn, direction, pageSize, options.associationType)) {
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
  }
  return { rootArn, direction, nodes, edges, truncated, revisits };
}
