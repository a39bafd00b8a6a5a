/**
 * The environment both replay tests run a bundled handler in: dynalite with the handler's tables, a throttling proxy in
 * front of it (throttling off until a replay turns it on), and the bundle loaded with the SDK pointed at the proxy and
 * its own retries off (AWS_MAX_ATTEMPTS=1), so every throttle reaches the delivery layer; `underThrottling` runs one
 * replay with the proxy throttling.
 *
 * `useReplayEnv` registers the `beforeAll`/`afterAll` of the calling test file; the fields of what it returns are set
 * once `beforeAll` has run.
 */
import { existsSync } from 'fs';
import { DynamoDBClient, paginateScan, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { clientConfig, LOCAL_CREDENTIALS, LOCAL_REGION, LocalService, startDynalite } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { seededRandom, startThrottlingProxy, ThrottlingProxy } from '@cdk-sagemaker-mcp/test-stand-ins/throttling-proxy';

export interface ReplayEnvOptions {
  /** Absolute path of the bundled handler (`assets/<capability>/<name>.lambda/index.js`). */
  readonly bundle: string;
  /** Seed of the proxy's randomness (which requests it throttles). */
  readonly proxySeed: number;
  /** Creates the tables the handler writes to, directly on dynalite. */
  readonly createTables: (ddb: DynamoDBClient) => Promise<void>;
  /** The handler's own configuration variables (table name, TTL, ...). */
  readonly handlerEnv: Record<string, string>;
}

export interface ReplayEnv<H> {
  /** A client talking to dynalite directly (never throttled). */
  readonly ddb: DynamoDBClient;
  readonly proxy: ThrottlingProxy;
  /** The bundle's exported handler. */
  readonly handler: H;
  /** Runs `deliver` with `fraction` of DynamoDB data-plane requests throttled and the handler's logs muted. */
  underThrottling<T>(fraction: number, deliver: () => Promise<T>): Promise<T>;
}

export function useReplayEnv<H>(options: ReplayEnvOptions): ReplayEnv<H> {
  const env = {
    async underThrottling<T>(fraction: number, deliver: () => Promise<T>): Promise<T> {
      const mute = jest.spyOn(console, 'log').mockImplementation(() => undefined);
      env.proxy.setFraction(fraction);
      try {
        return await deliver();
      } finally {
        env.proxy.setFraction(0);
        mute.mockRestore();
      }
    },
  } as { -readonly [K in keyof ReplayEnv<H>]: ReplayEnv<H>[K] };
  const savedEnv = { ...process.env };
  let dynalite: LocalService | undefined;

  beforeAll(async () => {
    if (!existsSync(options.bundle)) throw new Error(`${options.bundle} is missing: run \`npx projen bundle\` first`);
    dynalite = await startDynalite();
    env.ddb = new DynamoDBClient(clientConfig(dynalite));
    await options.createTables(env.ddb);
    env.proxy = await startThrottlingProxy(dynalite.endpoint, { fraction: 0, random: seededRandom(options.proxySeed) });
    Object.assign(process.env, {
      ...options.handlerEnv,
      AWS_ENDPOINT_URL_DYNAMODB: env.proxy.endpoint,
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_MAX_ATTEMPTS: '1',
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    env.handler = require(options.bundle).handler;
  });

  afterAll(async () => {
    process.env = savedEnv;
    env.ddb?.destroy();
    await env.proxy?.stop();
    await dynalite?.stop();
  });

  return env;
}

/** Every item of `tableName` (consistent reads), keyed by the string attribute `keyAttribute`. */
export async function scanTable(ddb: DynamoDBClient, tableName: string, keyAttribute: string): Promise<Map<string, Record<string, AttributeValue>>> {
  const items = new Map<string, Record<string, AttributeValue>>();
  for await (const page of paginateScan({ client: ddb }, { TableName: tableName, ConsistentRead: true })) {
    for (const item of page.Items ?? []) items.set(item[keyAttribute].S!, item);
  }
  return items;
}
