/**
 * A local, protocol-faithful stand-in for the SageMaker control plane (service `sagemaker`, protocol awsJson1_1) that
 * the REAL `@aws-sdk/client-sagemaker` talks to over HTTP on 127.0.0.1 (random port).
 *
 * ```ts
 * const cp = await startSageMakerControlServer({ pageSize: 2 });
 * const client = new SageMakerClient(cp.clientConfig());          // endpoint + region + dummy credentials
 * cp.addPipeline('churn');                                         // StartPipelineExecution needs a known pipeline
 * cp.setSteps(executionArn, [{ StepName: 'Train', StepStatus: 'Failed', FailureReason: 'boom' }]);
 * cp.updateExecution(executionArn, { PipelineExecutionStatus: 'Failed', FailureReason: 'Step failure' });
 * cp.failNext('DescribePipelineExecution', 'ThrottlingException');  // one scripted error
 * cp.requestsFor('ListPipelineExecutionSteps');                     // recorded request bodies
 * await cp.stop();
 * ```
 *
 * Wire format (what the SDK sends and expects):
 * - Request: `POST /`, `X-Amz-Target: SageMaker.<Operation>`, `Content-Type: application/x-amz-json-1.1`, JSON body.
 * - Success: 200, `Content-Type: application/x-amz-json-1.1`, JSON body; timestamps as epoch seconds (numbers).
 * - Error: 400 (500 for `InternalFailure`/`ServiceUnavailable`), body `{"__type": "<Code>", "message": "..."}`; the SDK
 *   maps `__type` to its exception class (`ResourceNotFound`, `ResourceLimitExceeded`, `ConflictException`) or a
 *   generic `SageMakerServiceException` named after the code (`ValidationException`, `ThrottlingException`).
 * - Every response carries `x-amzn-RequestId`.
 *
 * Operations (`handlers`, a map from operation name to handler; add or replace entries to extend):
 * - StartPipelineExecution: needs a pipeline added with `addPipeline` (by name or ARN); validates the token (32-128),
 *   description (<= 3072) and display name (`^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,81}$`); the same `ClientRequestToken` for
 *   the same pipeline returns the first execution's ARN and starts nothing.
 * - DescribePipelineExecution; ListPipelineExecutionSteps (NextToken paging, `pageSize` or `MaxResults`).
 * - StopPipelineExecution: an `Executing` execution becomes `Stopping` (the test moves it on with `updateExecution`);
 *   one already final is refused with `ValidationException` (the API reference does not say what SageMaker answers).
 * - ListAssociations (filters SourceArn / DestinationArn / SourceType / DestinationType / AssociationType; paging).
 * - DescribeArtifact, DescribeModelPackage, DescribeTrainingJob, DescribeEndpoint: from tables you fill
 *   (`addArtifact`, `addModelPackage`, `addTrainingJob`, `setEndpoint`); unknown names answer `ResourceNotFound` (as
 *   SageMaker does for artifacts) or `ValidationException` (as it does for "Could not find endpoint").
 * - ListModelPackages (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ListModelPackages.html): the model
 *   packages added with `addModelPackage`, filtered by ModelPackageGroupName (a name or a group ARN), ModelApprovalStatus and ModelPackageType
 *   (`Versioned` = those with a group), sorted by SortBy (`CreationTime` default, or `Name`) and SortOrder (`Ascending`
 *   default), MaxResults 1-100 (else ValidationException), NextToken paging; each summary carries the API's
 *   ModelPackageSummary fields (ModelPackageName, ModelPackageGroupName, ModelPackageVersion, ModelPackageArn,
 *   CreationTime, ModelPackageStatus, ModelApprovalStatus).
 * - UpdateModelPackage (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_UpdateModelPackage.html): on a
 *   package added with `addModelPackage` (else `ValidationException`), merges `CustomerMetadataProperties` ("The
 *   metadata properties associated with the model package versions") into the stored ones, removes the keys of
 *   `CustomerMetadataPropertiesToRemove`, replaces `ModelLifeCycle` and `ModelApprovalStatus` when given, and answers
 *   `{ ModelPackageArn }`; DescribeModelPackage then returns the updated package.
 * - DescribeEndpointConfig and DescribeModel: from tables you fill (`setEndpointConfig`, `setModel`); an unknown name
 *   answers `ValidationException` "Could not find ...".
 * An unknown operation answers 400 `UnknownOperationException`.
 *
 * Fault modes (not behaviours of the API: what a client must survive):
 * - `hang(operation)`: requests of that operation are read and never answered (a stalled service or black-holed route).
 * - `repeatNextToken(operation)`: every page of that list operation carries the same NextToken, so a client that follows
 *   tokens without remembering them asks for ever.
 */
import { randomBytes, randomUUID } from 'crypto';
import { createServer, IncomingMessage, ServerResponse } from 'http';
import { AddressInfo } from 'net';

export const CONTROL_REGION = 'us-east-1';
export const CONTROL_ACCOUNT = '123456789012';
export const CONTROL_CREDENTIALS = { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' };

type Json = Record<string, any>;
export type OperationHandler = (input: Json) => Json;

/** A modeled or generic SageMaker error; thrown by handlers, rendered as `{"__type", "message"}`. */
export class ControlPlaneError extends Error {
  constructor(public readonly code: string, message: string, public readonly status = code === 'InternalFailure' || code === 'ServiceUnavailable' ? 500 : 400) {
    super(message);
  }
}

export interface RecordedControlRequest {
  readonly operation: string;
  readonly target: string;
  readonly contentType: string;
  readonly body: Json;
}

export interface ExecutionState {
  PipelineArn: string;
  PipelineExecutionArn: string;
  PipelineExecutionStatus: string;
  PipelineExecutionDescription?: string;
  PipelineExecutionDisplayName?: string;
  FailureReason?: string;
  PipelineParameters?: { Name: string; Value: string }[];
  CreationTime: Date;
  LastModifiedTime: Date;
  ClientRequestToken?: string;
}

export interface ControlServerOptions {
  /** Items per page for list operations when the request has no MaxResults. Default 100. */
  readonly pageSize?: number;
}

export interface SageMakerControlServer {
  readonly endpoint: string;
  /** Operation name -> handler. Replace or add entries to extend the server. */
  readonly handlers: Map<string, OperationHandler>;
  clientConfig(extra?: Json): { endpoint: string; region: string; credentials: typeof CONTROL_CREDENTIALS } & Json;
  addPipeline(name: string): string;
  pipelineArn(name: string): string;
  executions(): ExecutionState[];
  execution(arn: string): ExecutionState | undefined;
  /** Adds an execution directly (for reads that do not start one). Returns its ARN. */
  addExecution(pipelineName: string, fields?: Partial<ExecutionState>): string;
  updateExecution(arn: string, fields: Partial<ExecutionState>): void;
  setSteps(executionArn: string, steps: Json[]): void;
  addAssociation(association: Json): void;
  addArtifact(arn: string, description: Json): void;
  addModelPackage(arn: string, description: Json): void;
  addTrainingJob(arn: string, description: Json): void;
  setEndpoint(name: string, description: Json): void;
  setEndpointConfig(name: string, description: Json): void;
  setModel(name: string, description: Json): void;
  /** The next call of `operation` answers this error instead. */
  failNext(operation: string, code: string, message?: string): void;
  /** Requests of `operation` are accepted and never answered (`false` answers the following ones again). */
  hang(operation: string, on?: boolean): void;
  /** Every page of list `operation` answers the same NextToken (`false` ends it). */
  repeatNextToken(operation: string, on?: boolean): void;
  requests(): RecordedControlRequest[];
  requestsFor(operation: string): RecordedControlRequest[];
  stop(): Promise<void>;
}

const DISPLAY_NAME = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,81}$/;

function page<T>(items: T[], input: Json, pageSize: number): { items: T[]; NextToken?: string } {
  const start = input.NextToken ? Number.parseInt(Buffer.from(String(input.NextToken), 'base64').toString('utf8'), 10) : 0;
  if (!Number.isInteger(start) || start < 0 || start > items.length) throw new ControlPlaneError('ValidationException', 'Invalid pagination token');
  const size = typeof input.MaxResults === 'number' ? input.MaxResults : pageSize;
  const end = start + size;
  return { items: items.slice(start, end), ...(end < items.length ? { NextToken: Buffer.from(String(end)).toString('base64') } : {}) };
}

export async function startSageMakerControlServer(options: ControlServerOptions = {}): Promise<SageMakerControlServer> {
  const pageSize = options.pageSize ?? 100;
  const pipelines = new Map<string, string>(); // name -> ARN
  const executions = new Map<string, ExecutionState>();
  const steps = new Map<string, Json[]>();
  const tokens = new Map<string, string>(); // `${pipelineArn}|${token}` -> execution ARN
  const associations: Json[] = [];
  const artifacts = new Map<string, Json>();
  const modelPackages = new Map<string, Json>();
  const trainingJobs = new Map<string, Json>();
  const endpoints = new Map<string, Json>();
  const endpointConfigs = new Map<string, Json>();
  const models = new Map<string, Json>();
  const failures = new Map<string, ControlPlaneError[]>();
  const recorded: RecordedControlRequest[] = [];
  const hanging = new Set<string>();
  const looping = new Set<string>();

  const arnOf = (name: string) => `arn:aws:sagemaker:${CONTROL_REGION}:${CONTROL_ACCOUNT}:pipeline/${name}`;
  const findPipeline = (nameOrArn: unknown): string => {
    const key = String(nameOrArn ?? '');
    const name = key.startsWith('arn:') ? key.replace(/^.*:pipeline\//, '') : key;
    const arn = pipelines.get(name);
    if (!arn) throw new ControlPlaneError('ResourceNotFound', `Pipeline '${arnOf(name)}' does not exist.`);
    return arn;
  };
  const newExecution = (pipelineArn: string, fields: Partial<ExecutionState> = {}): ExecutionState => {
    const now = new Date();
    const exec: ExecutionState = {
      PipelineArn: pipelineArn,
      PipelineExecutionArn: `${pipelineArn}/execution/${randomBytes(6).toString('hex')}`,
      PipelineExecutionStatus: 'Executing',
      CreationTime: now,
      LastModifiedTime: now,
      ...fields,
    };
    executions.set(exec.PipelineExecutionArn, exec);
    return exec;
  };
  const byKey = (table: Map<string, Json>, key: unknown, what: string, code = 'ResourceNotFound') => {
    const found = table.get(String(key ?? ''));
    if (!found) throw new ControlPlaneError(code, code === 'ValidationException' ? `Could not find ${what} "${key}".` : `${what} ${key} does not exist.`);
    return found;
  };
  const execOf = (input: Json) => {
    const exec = executions.get(String(input.PipelineExecutionArn ?? ''));
    if (!exec) throw new ControlPlaneError('ResourceNotFound', `Pipeline execution '${input.PipelineExecutionArn}' does not exist.`);
    return exec;
  };

  const handlers = new Map<string, OperationHandler>([
    ['StartPipelineExecution', (input) => {
      const pipelineArn = findPipeline(input.PipelineName);
      const token = input.ClientRequestToken;
      if (token !== undefined && (typeof token !== 'string' || token.length < 32 || token.length > 128)) {
        throw new ControlPlaneError('ValidationException', '1 validation error detected: Value at \'clientRequestToken\' failed to satisfy constraint: Member must have length between 32 and 128');
      }
      if (typeof input.PipelineExecutionDescription === 'string' && input.PipelineExecutionDescription.length > 3072) {
        throw new ControlPlaneError('ValidationException', '1 validation error detected: Value at \'pipelineExecutionDescription\' failed to satisfy constraint: Member must have length less than or equal to 3072');
      }
      if (input.PipelineExecutionDisplayName !== undefined && !DISPLAY_NAME.test(String(input.PipelineExecutionDisplayName))) {
        throw new ControlPlaneError('ValidationException', '1 validation error detected: Value at \'pipelineExecutionDisplayName\' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,81}');
      }
      if (token) {
        const existing = tokens.get(`${pipelineArn}|${token}`);
        if (existing) return { PipelineExecutionArn: existing };
      }
      const exec = newExecution(pipelineArn, {
        PipelineExecutionDescription: input.PipelineExecutionDescription,
        PipelineExecutionDisplayName: input.PipelineExecutionDisplayName,
        PipelineParameters: input.PipelineParameters,
        ClientRequestToken: token,
      });
      if (token) tokens.set(`${pipelineArn}|${token}`, exec.PipelineExecutionArn);
      return { PipelineExecutionArn: exec.PipelineExecutionArn };
    }],
    ['DescribePipelineExecution', (input) => {
      const { ClientRequestToken: _token, ...exec } = execOf(input);
      return exec;
    }],
    // https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_StopPipelineExecution.html: "Stops a pipeline
    // execution" (it first reports Stopping, then Stopped); ClientRequestToken is required (32-128 characters).
    ['StopPipelineExecution', (input) => {
      const exec = execOf(input);
      if (typeof input.ClientRequestToken !== 'string' || input.ClientRequestToken.length < 32 || input.ClientRequestToken.length > 128) {
        throw new ControlPlaneError('ValidationException', 'ClientRequestToken must be 32-128 characters.');
      }
      if (exec.PipelineExecutionStatus !== 'Executing') {
        throw new ControlPlaneError('ValidationException', `Pipeline execution is ${exec.PipelineExecutionStatus}; only an Executing one can be stopped.`);
      }
      exec.PipelineExecutionStatus = 'Stopping';
      return { PipelineExecutionArn: exec.PipelineExecutionArn };
    }],
    ['ListPipelineExecutionSteps', (input) => {
      execOf(input);
      const all = steps.get(String(input.PipelineExecutionArn)) ?? [];
      const { items, NextToken } = page(all, input, pageSize);
      return { PipelineExecutionSteps: items, ...(NextToken ? { NextToken } : {}) };
    }],
    ['ListAssociations', (input) => {
      const matches = associations.filter((a) => ['SourceArn', 'DestinationArn', 'SourceType', 'DestinationType', 'AssociationType']
        .every((f) => input[f] === undefined || a[f] === input[f]));
      const { items, NextToken } = page(matches, input, pageSize);
      return { AssociationSummaries: items, ...(NextToken ? { NextToken } : {}) };
    }],
    ['DescribeArtifact', (input) => byKey(artifacts, input.ArtifactArn, 'Artifact')],
    ['DescribeModelPackage', (input) => byKey(modelPackages, input.ModelPackageName, 'ModelPackage', 'ValidationException')],
    ['UpdateModelPackage', (input) => {
      const p = byKey(modelPackages, input.ModelPackageArn, 'ModelPackage', 'ValidationException');
      const metadata: Json = { ...(p.CustomerMetadataProperties ?? {}), ...(input.CustomerMetadataProperties ?? {}) };
      for (const key of input.CustomerMetadataPropertiesToRemove ?? []) delete metadata[key];
      const { CustomerMetadataProperties: _old, ...rest } = p;
      modelPackages.set(String(input.ModelPackageArn), {
        ...rest,
        ...(Object.keys(metadata).length > 0 ? { CustomerMetadataProperties: metadata } : {}),
        ...(input.ModelLifeCycle ? { ModelLifeCycle: input.ModelLifeCycle } : {}),
        ...(input.ModelApprovalStatus ? { ModelApprovalStatus: input.ModelApprovalStatus } : {}),
      });
      return { ModelPackageArn: input.ModelPackageArn };
    }],
    ['DescribeTrainingJob', (input) => byKey(trainingJobs, input.TrainingJobName, 'Requested resource not found', 'ResourceNotFound')],
    ['DescribeEndpoint', (input) => byKey(endpoints, input.EndpointName, 'endpoint', 'ValidationException')],
    ['DescribeEndpointConfig', (input) => byKey(endpointConfigs, input.EndpointConfigName, 'endpoint configuration', 'ValidationException')],
    ['DescribeModel', (input) => byKey(models, input.ModelName, 'model', 'ValidationException')],
    ['ListModelPackages', (input) => {
      const max = input.MaxResults;
      if (max !== undefined && (!Number.isInteger(max) || max < 1 || max > 100)) {
        throw new ControlPlaneError('ValidationException', `1 validation error detected: Value '${max}' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 100`);
      }
      const time = (p: Json) => (p.CreationTime instanceof Date ? p.CreationTime.getTime() : Number(p.CreationTime ?? 0));
      const matches = [...modelPackages.values()]
        // ModelPackageGroupName takes a name or a group ARN (its Pattern: `(arn:aws[a-z\-]*:sagemaker:[a-z0-9\-]{9,16}:[0-9]{12}:[a-z\-]*\/)?([a-zA-Z0-9]([a-zA-Z0-9-]){0,62})(?<!-)$`).
        .filter((p) => input.ModelPackageGroupName === undefined || p.ModelPackageGroupName === String(input.ModelPackageGroupName).split('/').pop())
        .filter((p) => input.ModelApprovalStatus === undefined || p.ModelApprovalStatus === input.ModelApprovalStatus)
        .filter((p) => input.ModelPackageType === undefined || input.ModelPackageType === 'Both'
          || (input.ModelPackageType === 'Versioned') === (p.ModelPackageGroupName !== undefined))
        .sort((a, b) => (input.SortBy === 'Name' ? String(a.ModelPackageName).localeCompare(String(b.ModelPackageName)) : time(a) - time(b)));
      if (input.SortOrder === 'Descending') matches.reverse();
      const { items, NextToken } = page(matches, { ...input }, max ?? pageSize);
      const summaries = items.map((p) => Object.fromEntries(Object.entries(p).filter(([k]) => [
        'ModelPackageName', 'ModelPackageGroupName', 'ModelPackageVersion', 'ModelPackageArn', 'ModelPackageDescription',
        'CreationTime', 'ModelPackageStatus', 'ModelApprovalStatus',
      ].includes(k))));
      return { ModelPackageSummaryList: summaries, ...(NextToken ? { NextToken } : {}) };
    }],
  ]);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const requestId = randomUUID();
      const send = (status: number, body: Json) => {
        const text = JSON.stringify(body, function replacer(this: any, key: string, value: unknown) {
          const raw = this[key];
          return raw instanceof Date ? raw.getTime() / 1000 : value;
        });
        res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1', 'x-amzn-RequestId': requestId, 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      };
      const target = String(req.headers['x-amz-target'] ?? '');
      const contentType = String(req.headers['content-type'] ?? '');
      if (req.method !== 'POST' || req.url !== '/' || !target.startsWith('SageMaker.') || !contentType.startsWith('application/x-amz-json-1.1')) {
        send(400, { __type: 'UnknownOperationException', message: `Expected POST / with X-Amz-Target SageMaker.<Operation> and application/x-amz-json-1.1, got ${req.method} ${req.url} ${target} ${contentType}` });
        return;
      }
      const operation = target.slice('SageMaker.'.length);
      let body: Json;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        send(400, { __type: 'SerializationException', message: 'Request body is not JSON' });
        return;
      }
      recorded.push({ operation, target, contentType, body });
      if (hanging.has(operation)) return; // fault mode: never answer
      const scripted = failures.get(operation)?.shift();
      if (scripted) {
        send(scripted.status, { __type: scripted.code, message: scripted.message });
        return;
      }
      const handler = handlers.get(operation);
      if (!handler) {
        send(400, { __type: 'UnknownOperationException', message: `Operation ${operation} is not implemented by the local control-plane server` });
        return;
      }
      try {
        const out = handler(looping.has(operation) ? { ...body, NextToken: undefined } : body);
        // Fault mode. The API reference's contract (e.g. ListPipelineExecutionSteps,
        // https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ListPipelineExecutionSteps.html): "If the result
        // of the previous ListPipelineExecutionSteps request was truncated, the response includes a NextToken. To retrieve
        // the next set of pipeline execution steps, use the token in the next request." Here the token never moves on.
        send(200, looping.has(operation) ? { ...out, NextToken: 'same-token-forever' } : out);
      } catch (err) {
        if (err instanceof ControlPlaneError) send(err.status, { __type: err.code, message: err.message });
        else send(500, { __type: 'InternalFailure', message: String(err) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    endpoint,
    handlers,
    clientConfig: (extra = {}) => ({ endpoint, region: CONTROL_REGION, credentials: CONTROL_CREDENTIALS, maxAttempts: 1, ...extra }),
    addPipeline: (name) => {
      const arn = arnOf(name);
      pipelines.set(name, arn);
      return arn;
    },
    pipelineArn: arnOf,
    executions: () => [...executions.values()],
    execution: (arn) => executions.get(arn),
    addExecution: (pipelineName, fields = {}) => newExecution(findPipeline(pipelineName), fields).PipelineExecutionArn,
    updateExecution: (arn, fields) => {
      const exec = executions.get(arn);
      if (!exec) throw new Error(`no execution ${arn}`);
      Object.assign(exec, fields, { LastModifiedTime: new Date() });
    },
    setSteps: (arn, list) => {
      steps.set(arn, list);
    },
    addAssociation: (a) => {
      associations.push(a);
    },
    addArtifact: (arn, d) => {
      artifacts.set(arn, { ArtifactArn: arn, ...d });
    },
    addModelPackage: (arn, d) => {
      modelPackages.set(arn, { ModelPackageArn: arn, ...d });
    },
    addTrainingJob: (arn, d) => {
      const name = arn.replace(/^.*:training-job\//, '');
      const full = { TrainingJobArn: arn, TrainingJobName: name, ...d };
      trainingJobs.set(name, full);
      trainingJobs.set(arn, full);
    },
    setEndpoint: (name, d) => {
      endpoints.set(name, { EndpointName: name, EndpointArn: `arn:aws:sagemaker:${CONTROL_REGION}:${CONTROL_ACCOUNT}:endpoint/${name.toLowerCase()}`, ...d });
    },
    setEndpointConfig: (name, d) => {
      endpointConfigs.set(name, { EndpointConfigName: name, EndpointConfigArn: `arn:aws:sagemaker:${CONTROL_REGION}:${CONTROL_ACCOUNT}:endpoint-config/${name.toLowerCase()}`, ...d });
    },
    setModel: (name, d) => {
      models.set(name, { ModelName: name, ModelArn: `arn:aws:sagemaker:${CONTROL_REGION}:${CONTROL_ACCOUNT}:model/${name.toLowerCase()}`, ...d });
    },
    failNext: (operation, code, message = `${code} (scripted)`) => {
      const list = failures.get(operation) ?? [];
      list.push(new ControlPlaneError(code, message));
      failures.set(operation, list);
    },
    hang: (operation, on = true) => {
      if (on) hanging.add(operation);
      else hanging.delete(operation);
    },
    repeatNextToken: (operation, on = true) => {
      if (on) looping.add(operation);
      else looping.delete(operation);
    },
    requests: () => [...recorded],
    requestsFor: (operation) => recorded.filter((r) => r.operation === operation),
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
