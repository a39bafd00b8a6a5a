/**
 * A local stand-in for the CloudFormation API (protocol awsQuery) that the REAL `@aws-sdk/client-cloudformation` talks
 * to over HTTP on 127.0.0.1 (random port). Only what the approved-model deployment handler calls: DescribeStacks,
 * DescribeStackEvents and UpdateStack, following https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_UpdateStack.html,
 * .../API_DescribeStacks.html and .../API_DescribeStackEvents.html.
 *
 * ```ts
 * const cfn = await startCloudFormationServer();
 * cfn.addStack({ StackName: 'Endpoint', Parameters: { ModelPackageArn: arn1, Other: 'x' }, RoleARN, Capabilities: ['CAPABILITY_IAM'] });
 * const client = new CloudFormationClient(cfn.clientConfig());
 * cfn.updates;                       // every accepted UpdateStack request, parsed
 * cfn.setStatus('Endpoint', 'UPDATE_IN_PROGRESS');
 * await cfn.stop();
 * ```
 *
 * Wire format (the query protocol, https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/Welcome.html):
 * - Request: `POST /`, `Content-Type: application/x-www-form-urlencoded`, body `Action=<Op>&Version=2010-05-15&...`;
 *   lists as `Parameters.member.<n>.ParameterKey`, `Capabilities.member.<n>`.
 * - Success: 200, `text/xml`, `<OpResponse><OpResult>...</OpResult><ResponseMetadata><RequestId>` in the
 *   `http://cloudformation.amazonaws.com/doc/2010-05-15/` namespace; lists as `<member>` elements.
 * - Error: 400, `<ErrorResponse><Error><Type>Sender</Type><Code>..</Code><Message>..</Message></Error><RequestId>`.
 *
 * Behaviours, each from the API reference or the user guide:
 * - A stack named that does not exist: `ValidationError` "Stack with id <name> does not exist" (DescribeStacks and
 *   UpdateStack; the message the CLI prints for `describe-stacks --stack-name` of an unknown stack).
 * - UpdateStack needs exactly one of TemplateBody, TemplateURL or UsePreviousTemplate ("Conditional: You must specify
 *   only one of the following parameters: TemplateBody, TemplateURL, or set the UsePreviousTemplate to true").
 * - A parameter with `UsePreviousValue` true must not also carry a value ("If you specify true, do not specify a
 *   parameter value", API_Parameter.html); a stack parameter the request leaves out falls back to its template default
 *   and, without one, is an error ("Parameters: [X] must have values").
 * - The stack's required capabilities must be acknowledged (`InsufficientCapabilities`, "Requires capabilities : [..]").
 * - A stack in a `*_IN_PROGRESS` status (or any status UpdateStack does not accept, user guide "Updating stacks
 *   directly") is refused: `ValidationError` "Stack:<id> is in <STATUS> state and can not be updated."
 * - Nothing changes (UsePreviousTemplate and every parameter value as before): `ValidationError` "No updates are to be
 *   performed." (user guide, troubleshooting).
 * - The same `ClientRequestToken` twice on one stack: `TokenAlreadyExistsException` ("A client request token already
 *   exists.", API_UpdateStack.html Errors).
 * - An accepted update returns the `StackId` and leaves the stack `UPDATE_IN_PROGRESS` until the test finishes it
 *   (`finishUpdate`), with the new parameter values.
 * - DescribeStackEvents "Returns all stack related events for a specified stack in reverse chronological order", paged
 *   by NextToken; each stack status the stand-in passes through is one stack-level event (`ResourceType`
 *   `AWS::CloudFormation::Stack`, `LogicalResourceId` the stack name) carrying the `ClientRequestToken` of the operation
 *   ("All events triggered by a given stack operation are assigned the same client request token", API_StackEvent.html).
 * - `failNext(code, message)`: the next request answers that error (e.g. the `SignatureDoesNotMatch` text of
 *   https://docs.aws.amazon.com/IAM/latest/UserGuide/signature-v4-troubleshooting.html, which quotes the canonical request).
 */
import { randomUUID } from 'crypto';
import { createServer, IncomingMessage, ServerResponse } from 'http';
import { AddressInfo } from 'net';

export const CFN_REGION = 'us-east-1';
export const CFN_ACCOUNT = '123456789012';
const NS = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';
const UPDATABLE = ['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_COMPLETE'];

export interface StackSeed {
  readonly StackName: string;
  /** Current parameter values. */
  readonly Parameters: Record<string, string>;
  /** Template defaults of parameters (used when an update leaves a parameter out). @default none */
  readonly Defaults?: Record<string, string>;
  /** @default CREATE_COMPLETE */
  readonly StackStatus?: string;
  /** The stack's service role. @default none */
  readonly RoleARN?: string;
  /** Capabilities the template needs (and the stack was created with). @default none */
  readonly Capabilities?: string[];
}

interface StackState {
  StackName: string;
  StackId: string;
  StackStatus: string;
  Parameters: Record<string, string>;
  Defaults: Record<string, string>;
  RoleARN?: string;
  Capabilities: string[];
  CreationTime: Date;
  tokens: Set<string>;
  /** The token of the operation running or last run. */
  token?: string;
  /** Stack-level events, oldest first. */
  events: Array<{ EventId: string; Timestamp: Date; ResourceStatus: string; ClientRequestToken?: string }>;
}

export interface RecordedUpdate {
  readonly StackName: string;
  readonly UsePreviousTemplate: boolean;
  readonly Parameters: Array<{ ParameterKey: string; ParameterValue?: string; UsePreviousValue?: boolean }>;
  readonly Capabilities: string[];
  readonly ClientRequestToken?: string;
  readonly RoleARN?: string;
}

class CfnError extends Error {
  constructor(public readonly code: string, message: string) {
    super(message);
  }
}

export interface CloudFormationServer {
  readonly endpoint: string;
  /** Accepted UpdateStack requests. */
  readonly updates: RecordedUpdate[];
  /** Every request's Action, in order. */
  readonly actions: string[];
  clientConfig(): { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string }; maxAttempts: number };
  addStack(seed: StackSeed): string;
  setStatus(stackName: string, status: string): void;
  /**
   * Ends the running update: UPDATE_COMPLETE keeps the new values, a rollback restores the previous ones
   * (UPDATE_ROLLBACK_FAILED keeps the new ones: the rollback did not finish). Rollbacks record UPDATE_ROLLBACK_IN_PROGRESS
   * first, as CloudFormation does.
   */
  finishUpdate(stackName: string, status: 'UPDATE_COMPLETE' | 'UPDATE_ROLLBACK_COMPLETE' | 'UPDATE_ROLLBACK_FAILED' | 'UPDATE_FAILED'): void;
  /** The next request answers this error instead. */
  failNext(code: string, message: string): void;
  parameters(stackName: string): Record<string, string>;
  /** Runs once before the next UpdateStack is processed (e.g. another update that lands first, a race). */
  beforeNextUpdate(fn: () => void): void;
  setParameter(stackName: string, key: string, value: string): void;
  stop(): Promise<void>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `Parameters.member.1.ParameterKey=...` → `[{ ParameterKey }]`; `Capabilities.member.1=X` → `['X']`. */
function members(form: URLSearchParams, name: string): Array<Record<string, string>> | string[] {
  const out: Record<number, any> = {};
  for (const [k, v] of form) {
    const m = new RegExp(`^${name}\\.member\\.(\\d+)(?:\\.(\\w+))?$`).exec(k);
    if (!m) continue;
    const i = Number(m[1]);
    if (m[2]) (out[i] ??= {})[m[2]] = v;
    else out[i] = v;
  }
  return Object.keys(out).map(Number).sort((a, b) => a - b).map((i) => out[i]);
}

function stackXml(s: StackState): string {
  const params = Object.entries(s.Parameters)
    .map(([k, v]) => `<member><ParameterKey>${esc(k)}</ParameterKey><ParameterValue>${esc(v)}</ParameterValue></member>`).join('');
  const caps = s.Capabilities.map((c) => `<member>${esc(c)}</member>`).join('');
  return `<member><StackId>${esc(s.StackId)}</StackId><StackName>${esc(s.StackName)}</StackName>`
    + `<CreationTime>${s.CreationTime.toISOString()}</CreationTime><StackStatus>${s.StackStatus}</StackStatus>`
    + `<Parameters>${params}</Parameters>${caps ? `<Capabilities>${caps}</Capabilities>` : ''}`
    + `${s.RoleARN ? `<RoleARN>${esc(s.RoleARN)}</RoleARN>` : ''}<DisableRollback>false</DisableRollback></member>`;
}

export async function startCloudFormationServer(): Promise<CloudFormationServer> {
  const stacks = new Map<string, StackState>();
  const previous = new Map<string, Record<string, string>>();
  const updates: RecordedUpdate[] = [];
  const actions: string[] = [];
  let nextUpdateHook: (() => void) | undefined;
  let nextFailure: CfnError | undefined;
  const record = (s: StackState, status: string) => {
    s.StackStatus = status;
    s.events.push({ EventId: randomUUID(), Timestamp: new Date(Date.now() + s.events.length), ResourceStatus: status, ClientRequestToken: s.token });
  };
  const EVENTS_PAGE = 100;

  const find = (nameOrId: string | null): StackState => {
    const s = nameOrId ? [...stacks.values()].find((x) => x.StackName === nameOrId || x.StackId === nameOrId) : undefined;
    if (!s) throw new CfnError('ValidationError', `Stack with id ${nameOrId} does not exist`);
    return s;
  };

  const ops: Record<string, (form: URLSearchParams) => string> = {
    DescribeStacks: (form) => {
      const name = form.get('StackName');
      const list = name ? [find(name)] : [...stacks.values()];
      return `<DescribeStacksResult><Stacks>${list.map(stackXml).join('')}</Stacks></DescribeStacksResult>`;
    },
    DescribeStackEvents: (form) => {
      const s = find(form.get('StackName'));
      const newestFirst = [...s.events].reverse();
      const start = Number(form.get('NextToken') ?? 0);
      const page = newestFirst.slice(start, start + EVENTS_PAGE);
      const next = start + EVENTS_PAGE < newestFirst.length ? `<NextToken>${start + EVENTS_PAGE}</NextToken>` : '';
      const items = page.map((e) => `<member><StackId>${esc(s.StackId)}</StackId><EventId>${e.EventId}</EventId><StackName>${esc(s.StackName)}</StackName>`
        + `<LogicalResourceId>${esc(s.StackName)}</LogicalResourceId><PhysicalResourceId>${esc(s.StackId)}</PhysicalResourceId>`
        + `<ResourceType>AWS::CloudFormation::Stack</ResourceType><Timestamp>${e.Timestamp.toISOString()}</Timestamp>`
        + `<ResourceStatus>${e.ResourceStatus}</ResourceStatus>${e.ClientRequestToken ? `<ClientRequestToken>${esc(e.ClientRequestToken)}</ClientRequestToken>` : ''}</member>`).join('');
      return `<DescribeStackEventsResult><StackEvents>${items}</StackEvents>${next}</DescribeStackEventsResult>`;
    },
    UpdateStack: (form) => {
      const hook = nextUpdateHook;
      nextUpdateHook = undefined;
      hook?.();
      const s = find(form.get('StackName'));
      const usePrevious = form.get('UsePreviousTemplate') === 'true';
      const sources = [form.has('TemplateBody'), form.has('TemplateURL'), usePrevious].filter(Boolean).length;
      if (sources !== 1) throw new CfnError('ValidationError', 'Exactly one of TemplateBody, TemplateURL or UsePreviousTemplate must be specified');
      if (!usePrevious) throw new CfnError('ValidationError', 'This stand-in only takes UsePreviousTemplate updates');
      if (!UPDATABLE.includes(s.StackStatus)) throw new CfnError('ValidationError', `Stack:${s.StackId} is in ${s.StackStatus} state and can not be updated.`);
      const token = form.get('ClientRequestToken') ?? undefined;
      if (token && s.tokens.has(token)) throw new CfnError('TokenAlreadyExistsException', 'A client request token already exists.');
      const capabilities = members(form, 'Capabilities') as string[];
      const missingCaps = s.Capabilities.filter((c) => !capabilities.includes(c));
      if (missingCaps.length > 0) throw new CfnError('InsufficientCapabilitiesException', `Requires capabilities : [${missingCaps.join(', ')}]`);
      const given = members(form, 'Parameters') as Array<Record<string, string>>;
      const next: Record<string, string> = {};
      for (const p of given) {
        const key = p.ParameterKey;
        if (!(key in s.Parameters)) throw new CfnError('ValidationError', `Parameters: [${key}] do not exist in the template`);
        if (p.UsePreviousValue === 'true') {
          if (p.ParameterValue !== undefined && p.ParameterValue !== '') {
            throw new CfnError('ValidationError', `Invalid input for parameter key ${key}. Cannot specify usePreviousValue as true and non empty value for a parameter`);
          }
          next[key] = s.Parameters[key];
        } else {
          next[key] = p.ParameterValue ?? '';
        }
      }
      const missing: string[] = [];
      for (const key of Object.keys(s.Parameters)) {
        if (key in next) continue;
        if (key in s.Defaults) next[key] = s.Defaults[key];
        else missing.push(key);
      }
      if (missing.length > 0) throw new CfnError('ValidationError', `Parameters: [${missing.join(', ')}] must have values`);
      if (Object.keys(next).every((k) => next[k] === s.Parameters[k])) throw new CfnError('ValidationError', 'No updates are to be performed.');
      if (token) s.tokens.add(token);
      updates.push({
        StackName: s.StackName,
        UsePreviousTemplate: usePrevious,
        Parameters: given.map((p) => ({
          ParameterKey: p.ParameterKey,
          ...(p.ParameterValue !== undefined ? { ParameterValue: p.ParameterValue } : {}),
          ...(p.UsePreviousValue !== undefined ? { UsePreviousValue: p.UsePreviousValue === 'true' } : {}),
        })),
        Capabilities: capabilities,
        ClientRequestToken: token,
        RoleARN: form.get('RoleARN') ?? undefined,
      });
      previous.set(s.StackName, s.Parameters);
      s.Parameters = next;
      s.token = token;
      record(s, 'UPDATE_IN_PROGRESS');
      return `<UpdateStackResult><StackId>${esc(s.StackId)}</StackId></UpdateStackResult>`;
    },
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const action = form.get('Action') ?? '';
      actions.push(action);
      const requestId = randomUUID();
      const send = (status: number, xml: string) => {
        res.writeHead(status, { 'Content-Type': 'text/xml', 'x-amzn-RequestId': requestId });
        res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`);
      };
      try {
        const failure = nextFailure;
        nextFailure = undefined;
        if (failure) throw failure;
        const op = ops[action];
        if (!op) throw new CfnError('InvalidAction', `The action ${action} is not valid for this web service.`);
        if (form.get('Version') !== '2010-05-15') throw new CfnError('InvalidParameterValue', `Version: got ${form.get('Version')}, expected 2010-05-15`);
        const result = op(form);
        send(200, `<${action}Response xmlns="${NS}">${result}<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`);
      } catch (err) {
        const e = err instanceof CfnError ? err : new CfnError('InternalFailure', String(err));
        send(e.code === 'InternalFailure' ? 500 : 400,
          `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${e.code}</Code><Message>${esc(e.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    endpoint,
    clientConfig: () => ({ endpoint, region: CFN_REGION, credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' }, maxAttempts: 1 }),
    addStack: (seed) => {
      const StackId = `arn:aws:cloudformation:${CFN_REGION}:${CFN_ACCOUNT}:stack/${seed.StackName}/${randomUUID()}`;
      stacks.set(seed.StackName, {
        StackName: seed.StackName,
        StackId,
        StackStatus: seed.StackStatus ?? 'CREATE_COMPLETE',
        Parameters: { ...seed.Parameters },
        Defaults: { ...seed.Defaults },
        RoleARN: seed.RoleARN,
        Capabilities: seed.Capabilities ?? [],
        CreationTime: new Date(),
        tokens: new Set(),
        events: [],
      });
      record(stacks.get(seed.StackName)!, seed.StackStatus ?? 'CREATE_COMPLETE');
      return StackId;
    },
    setStatus: (name, status) => {
      find(name).StackStatus = status;
    },
    finishUpdate: (name, status) => {
      const s = find(name);
      if (status.startsWith('UPDATE_ROLLBACK')) record(s, 'UPDATE_ROLLBACK_IN_PROGRESS');
      if (status === 'UPDATE_ROLLBACK_COMPLETE') s.Parameters = previous.get(name) ?? s.Parameters;
      record(s, status);
    },
    failNext: (code, message) => {
      nextFailure = new CfnError(code, message);
    },
    parameters: (name) => ({ ...find(name).Parameters }),
    beforeNextUpdate: (fn) => {
      nextUpdateHook = fn;
    },
    setParameter: (name, key, value) => {
      find(name).Parameters[key] = value;
    },
    updates,
    actions,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
