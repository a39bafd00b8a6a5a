/**
 * A local stand-in for SageMaker's OpenAI-compatible route on the runtime host, for the real `openai` SDK and the
 * runtime's `SageMakerChatClient` over HTTP on 127.0.0.1 (random port). AWS's page for the route:
 * https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html ("the page" below).
 * Rules marked [3P] follow a third party's measurements of the live route (stdapi.ai,
 * https://github.com/stdapi-ai/stdapi.ai, `stdapi/aws_sagemaker.py`), since AWS documents no error shapes.
 *
 * ```ts
 * const route = await startOpenAiRouteServer({ region: 'us-east-1', endpoints: { chat: {}, shared: { components: ['llama'] } } });
 * const client = new OpenAI({ baseURL: route.baseUrl('chat'), apiKey: token });
 * route.script('chat', noCapacity());       // queued, one per call, in order; else the fake container answers
 * route.requests                            // what arrived (path, headers, parsed body)
 * await route.stop();
 * ```
 */
import { createServer, IncomingMessage, ServerResponse } from 'http';
import { AddressInfo } from 'net';

export interface RouteEndpoint {
  /** Inference components on the endpoint; none: a single-model endpoint. */
  readonly components?: string[];
}

export interface OpenAiRouteServerOptions {
  /** The region of the runtime host the stand-in plays; a token scoped to another region is refused. */
  readonly region: string;
  readonly endpoints: Record<string, RouteEndpoint>;
  /** Access key ids allowed; another gets 403 (an identity without the permission). @default - any */
  readonly allowedAccessKeyIds?: string[];
  /** Refuse a non-empty `model`, as vLLM does [3P]. @default false */
  readonly rejectModelName?: boolean;
  /** Stream JSON lines (LMI's format [3P]) instead of server-sent events. @default false */
  readonly jsonLinesStream?: boolean;
  /** The clock the token expiry is checked against. @default Date.now */
  readonly now?: () => number;
}

export interface RouteRequest {
  readonly path: string;
  readonly endpointName: string;
  readonly inferenceComponentName?: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: any;
}

/** A scripted answer: a status and a JSON body. */
export interface ScriptedRouteResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface OpenAiRouteServer {
  readonly url: string;
  readonly requests: RouteRequest[];
  /** `{url}/endpoints/{endpoint}[/inference-components/{ic}]/openai/v1`. */
  baseUrl(endpointName: string, inferenceComponentName?: string): string;
  /** Answers for the next calls to an endpoint (or `endpoint/ic`), in order. */
  script(target: string, ...responses: ScriptedRouteResponse[]): void;
  stop(): Promise<void>;
}

/** A scaled-to-zero endpoint or component [3P]: HTTP 400, "... has no capacity". */
export function noCapacity(name = 'llama'): ScriptedRouteResponse {
  return { status: 400, body: { error: { message: `Inference component ${name} has no capacity to process this request.`, type: 'ValidationError', code: 'ValidationError' } } };
}

/** The container answered an error, quoted in SageMaker's message [3P]. */
export function containerError(status: number, containerBody: unknown): ScriptedRouteResponse {
  const kind = status >= 500 ? 'server' : 'client';
  return {
    status,
    body: { error: { message: `Received ${kind} error (${status}) from primary with message "${JSON.stringify(containerBody)}". See logs.`, type: 'ModelError', code: 'ModelError' } },
  };
}

const NAME = '[a-zA-Z0-9](?:-*[a-zA-Z0-9]){0,62}';
// The page: ".../endpoints/{ENDPOINT_NAME}/openai/v1" and ".../endpoints/{ENDPOINT_NAME}/inference-components/{IC_NAME}/openai/v1";
// "SageMaker AI endpoints expose an /openai/v1/chat/completions path". No other path is documented: 404.
const ROUTE = new RegExp(`^/endpoints/(${NAME})(?:/inference-components/(${NAME}))?/openai/v1/chat/completions$`);
const PREFIX = 'sagemaker-api-key-';
const MAX_EXPIRES = 43_200;

export async function startOpenAiRouteServer(options: OpenAiRouteServerOptions): Promise<OpenAiRouteServer> {
  const requests: RouteRequest[] = [];
  const scripts = new Map<string, ScriptedRouteResponse[]>();
  const now = options.now ?? Date.now;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (err) {
        send(res, 500, { error: { message: String(err), type: 'InternalFailure', code: 'InternalFailure' } });
      }
    });
  });

  function handle(req: IncomingMessage, res: ServerResponse, text: string): void {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const m = req.method === 'POST' ? ROUTE.exec(url.pathname) : null;
    if (!m) return send(res, 404, error(`No route for ${req.method} ${url.pathname}`, 'NotFound'));
    const [, endpointName, component] = m;
    const endpoint = options.endpoints[endpointName];
    if (!endpoint) return send(res, 404, error(`Endpoint ${endpointName} not found.`, 'ValidationError'));
    if (component !== undefined && !(endpoint.components ?? []).includes(component)) {
      return send(res, 404, error(`Inference component ${component} not found.`, 'ValidationError'));
    }
    // [3P] the component header is refused on this route: the component goes in the path.
    if (req.headers['x-amzn-sagemaker-inference-component'] !== undefined) {
      return send(res, 400, error('X-Amzn-SageMaker-Inference-Component is not supported on this path.', 'ValidationError'));
    }
    const denied = checkToken(String(req.headers.authorization ?? ''));
    if (denied) return send(res, denied.status, error(denied.message, denied.status === 401 ? 'Unauthorized' : 'AccessDeniedException'));

    const body = JSON.parse(text || '{}');
    requests.push({ path: url.pathname, endpointName, inferenceComponentName: component, headers: req.headers, body });
    const target = component === undefined ? endpointName : `${endpointName}/${component}`;
    const scripted = scripts.get(target)?.shift();
    if (scripted) return send(res, scripted.status, scripted.body);
    // The page: "The model field is passed through to the container"; [3P] vLLM refuses an endpoint name in it.
    if (options.rejectModelName && body.model) {
      return send(res, 424, error(`Received client error (404) from primary with message "{\\"object\\":\\"error\\",\\"message\\":\\"The model \`${body.model}\` does not exist.\\"}".`, 'ModelError'));
    }
    container(res, body);
  }

  /**
   * The page: "the service decodes it, validates the SigV4 signature, verifies that the token has not expired, and
   * confirms that the originating IAM identity has the required permissions." The signature cannot be checked offline;
   * the rest can.
   */
  function checkToken(authorization: string): { status: number; message: string } | undefined {
    // [3P] plain SigV4 is refused on this route: it takes only the bearer token.
    if (authorization.startsWith('AWS4-HMAC-SHA256')) return { status: 403, message: 'SigV4 authorization is not supported on this path; use a bearer token.' };
    // The page: "SageMaker AI OpenAI-compatible endpoints use bearer token authentication."
    if (!authorization.startsWith(`Bearer ${PREFIX}`)) return { status: 401, message: 'Missing or malformed bearer token.' };
    const b64 = authorization.slice(`Bearer ${PREFIX}`.length);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return { status: 401, message: 'Malformed bearer token.' };
    const decoded = Buffer.from(b64, 'base64').toString('utf8');
    // sagemaker-python-sdk token_generator: the presigned global-host URL without its scheme, then "&Version=1".
    if (!decoded.startsWith('sagemaker.amazonaws.com/?Action=CallWithBearerToken&') || !decoded.endsWith('&Version=1')) {
      return { status: 401, message: 'Malformed bearer token.' };
    }
    const q = new URL(`https://${decoded}`).searchParams;
    const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(q.get('X-Amz-Date') ?? '');
    const expires = Number(q.get('X-Amz-Expires'));
    const scope = /^([A-Z0-9]+)\/(\d{8})\/([a-z0-9-]+)\/sagemaker\/aws4_request$/.exec(q.get('X-Amz-Credential') ?? '');
    if (!date || !scope || !q.get('X-Amz-Signature') || q.get('X-Amz-SignedHeaders') !== 'host' || q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') {
      return { status: 401, message: 'Malformed bearer token.' };
    }
    // The page: an expiry "anywhere between 1 second and 12 hours".
    if (!Number.isInteger(expires) || expires < 1 || expires > MAX_EXPIRES) return { status: 401, message: `Token expiry ${q.get('X-Amz-Expires')} is out of range.` };
    const signedAt = Date.UTC(+date[1], +date[2] - 1, +date[3], +date[4], +date[5], +date[6]);
    if (now() >= signedAt + expires * 1000) return { status: 401, message: 'The bearer token has expired.' };
    if (scope[3] !== options.region) return { status: 401, message: `The token is scoped to ${scope[3]}, not ${options.region}.` };
    if (options.allowedAccessKeyIds && !options.allowedAccessKeyIds.includes(scope[1])) {
      return { status: 403, message: 'User is not authorized to perform: sagemaker:InvokeEndpoint' };
    }
    return undefined;
  }

  /** The fake container: an OpenAI chat completion, streamed as the page's "Server-Sent Events (SSE)" when asked. */
  function container(res: ServerResponse, body: any): void {
    const last = [...(body.messages ?? [])].reverse().find((m: any) => m.role === 'user');
    const words = `You said: ${typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content)}`.split(' ');
    const id = 'chatcmpl-standin';
    const usage = { prompt_tokens: JSON.stringify(body.messages ?? []).length, completion_tokens: words.length, total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    if (!body.stream) {
      return send(res, 200, {
        id,
        object: 'chat.completion',
        created: 1,
        model: body.model ?? '',
        choices: [{ index: 0, message: { role: 'assistant', content: words.join(' ') }, finish_reason: 'stop' }],
        usage,
      });
    }
    res.writeHead(200, { 'content-type': options.jsonLinesStream ? 'application/jsonlines' : 'text/event-stream', 'x-amzn-requestid': 'standin' });
    const chunk = (delta: object, finish: string | null, extra: object = {}) => ({
      id, object: 'chat.completion.chunk', created: 1, model: body.model ?? '', choices: [{ index: 0, delta, finish_reason: finish }], ...extra,
    });
    const events = [
      chunk({ role: 'assistant', content: '' }, null),
      ...words.map((w, i) => chunk({ content: i === 0 ? w : ` ${w}` }, null)),
      chunk({}, 'stop', body.stream_options?.include_usage ? { usage } : {}),
    ];
    for (const e of events) res.write(options.jsonLinesStream ? `${JSON.stringify(e)}\n` : `data: ${JSON.stringify(e)}\n\n`);
    // [DONE] ends vLLM's and SGLang's streams (not an AWS guarantee); JSON lines have no terminator.
    res.end(options.jsonLinesStream ? '' : 'data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    baseUrl: (endpointName, ic) => `${url}/endpoints/${endpointName}${ic === undefined ? '' : `/inference-components/${ic}`}/openai/v1`,
    script: (target, ...responses) => scripts.set(target, [...(scripts.get(target) ?? []), ...responses]),
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function error(message: string, code: string) {
  // AWS documents no error body for this route; [3P] SageMaker answers in OpenAI's {"error": {...}} envelope.
  return { error: { message, type: code, code } };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-requestid': 'standin' });
  res.end(JSON.stringify(body));
}
