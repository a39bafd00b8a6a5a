/**
 * A node:http proxy in front of a DynamoDB-protocol server (dynalite) that answers a chosen fraction of requests with
 * DynamoDB's real throttling error and forwards the rest unchanged, so the REAL SDK client (and a handler using it)
 * sees throttling exactly as the service sends it:
 *
 *   HTTP/1.1 400, Content-Type: application/x-amz-json-1.0, x-amzn-ErrorType: ProvisionedThroughputExceededException,
 *   body {"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"..."}
 *
 * ```ts
 * const dynalite = await startDynalite();
 * const proxy = await startThrottlingProxy(dynalite.endpoint, { fraction: 0.2, random: seededRandom(7) });
 * const ddb = new DynamoDBClient(clientConfig(proxy));       // a LocalService like dynalite's
 * ...
 * proxy.stats();  // { forwarded, throttled, byOperation: { PutItem: { forwarded, throttled } } }
 * ```
 *
 * Only the operations in `operations` are throttled (default: the data-plane writes and reads), so table setup and
 * the test's own verification reads can go through the proxy unharmed. The decision is per request and, with a seeded
 * `random`, reproducible.
 */
import { createServer, IncomingMessage, request as httpRequest, ServerResponse } from 'http';
import { AddressInfo } from 'net';

export const THROTTLING_ERROR_TYPE = 'ProvisionedThroughputExceededException';
export const THROTTLING_MESSAGE = 'The level of configured provisioned throughput for the table was exceeded. '
  + 'Consider increasing your provisioning level with the UpdateTable API.';

/** Data-plane operations DynamoDB can throttle per table. */
export const DATA_PLANE_OPERATIONS: readonly string[] = [
  'PutItem', 'UpdateItem', 'DeleteItem', 'GetItem', 'Query', 'Scan', 'BatchGetItem', 'BatchWriteItem',
  'TransactWriteItems', 'TransactGetItems',
];

export interface ThrottlingProxyOptions {
  /** Fraction of eligible requests answered with the throttling error, 0-1. @default 0.2 */
  readonly fraction?: number;
  /** Operations eligible for throttling (the `X-Amz-Target` suffix). @default DATA_PLANE_OPERATIONS */
  readonly operations?: readonly string[];
  /** Source of randomness in [0, 1). @default Math.random */
  readonly random?: () => number;
}

export interface OperationStats {
  forwarded: number;
  throttled: number;
}

export interface ThrottlingProxyStats {
  readonly forwarded: number;
  readonly throttled: number;
  readonly byOperation: Readonly<Record<string, OperationStats>>;
}

export interface ThrottlingProxy {
  /** e.g. http://127.0.0.1:41234: point the DynamoDB client here. */
  readonly endpoint: string;
  /** Changes the throttled fraction from now on (0 turns throttling off, e.g. for verification reads). */
  setFraction(fraction: number): void;
  stats(): ThrottlingProxyStats;
  stop(): Promise<void>;
}

/** A small deterministic PRNG (mulberry32) for reproducible fault injection. */
/* eslint-disable no-bitwise -- a PRNG is bit arithmetic */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/* eslint-enable no-bitwise */

function operationOf(req: IncomingMessage): string {
  const target = String(req.headers['x-amz-target'] ?? '');
  return target.includes('.') ? target.slice(target.indexOf('.') + 1) : target;
}

export async function startThrottlingProxy(upstream: string, options: ThrottlingProxyOptions = {}): Promise<ThrottlingProxy> {
  const target = new URL(upstream);
  const random = options.random ?? Math.random;
  const eligible = new Set(options.operations ?? DATA_PLANE_OPERATIONS);
  let fraction = options.fraction ?? 0.2;
  const byOperation: Record<string, OperationStats> = {};
  let forwarded = 0;
  let throttled = 0;

  const throttle = (res: ServerResponse) => {
    const body = JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${THROTTLING_ERROR_TYPE}`, message: THROTTLING_MESSAGE });
    res.writeHead(400, {
      'Content-Type': 'application/x-amz-json-1.0',
      'Content-Length': Buffer.byteLength(body),
      'x-amzn-ErrorType': THROTTLING_ERROR_TYPE,
      'x-amzn-RequestId': `throttled-${throttled}`,
    });
    res.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const operation = operationOf(req);
      const stats = (byOperation[operation] ??= { forwarded: 0, throttled: 0 });
      // The body is read before deciding, like the service: a throttled write never reaches the table.
      if (eligible.has(operation) && random() < fraction) {
        throttled++;
        stats.throttled++;
        throttle(res);
        return;
      }
      forwarded++;
      stats.forwarded++;
      const body = Buffer.concat(chunks);
      const upstreamReq = httpRequest({
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'host': target.host, 'content-length': String(body.length) },
      }, (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        upstreamRes.pipe(res);
      });
      upstreamReq.on('error', (err) => res.destroy(err));
      upstreamReq.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    setFraction: (f) => {
      fraction = f;
    },
    stats: () => ({ forwarded, throttled, byOperation: JSON.parse(JSON.stringify(byOperation)) }),
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
