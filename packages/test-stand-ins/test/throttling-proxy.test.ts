/**
 * The throttling proxy (packages/test-stand-ins/src/throttling-proxy.ts) in front of dynalite, seen by the REAL DynamoDB client:
 * a throttled call surfaces exactly as the service's throttling does (error class, message, status, retryable by the
 * SDK's standard retry mode), and everything else reaches dynalite unchanged.
 */
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ProvisionedThroughputExceededException,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { clientConfig, LocalService, startDynalite } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';
import { seededRandom, startThrottlingProxy, THROTTLING_MESSAGE, ThrottlingProxy } from '@cdk-sagemaker-mcp/test-stand-ins/throttling-proxy';

let dynalite: LocalService;
let proxy: ThrottlingProxy;

beforeAll(async () => {
  dynalite = await startDynalite();
  proxy = await startThrottlingProxy(dynalite.endpoint, { fraction: 0, random: seededRandom(1) });
  const setup = new DynamoDBClient(clientConfig(proxy));
  await setup.send(new CreateTableCommand({
    TableName: 'proxied',
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    BillingMode: 'PAY_PER_REQUEST',
  }));
  setup.destroy();
});

afterAll(async () => {
  await proxy?.stop();
  await dynalite?.stop();
});

test('a throttled call is a ProvisionedThroughputExceededException (400) and writes nothing', async () => {
  // GIVEN every data-plane call throttled, and a client without retries
  const client = new DynamoDBClient(clientConfig(proxy, { maxAttempts: 1 }));
  proxy.setFraction(1);
  // WHEN
  const error = await client.send(new PutItemCommand({ TableName: 'proxied', Item: { id: { S: 'a' } } })).catch((e) => e);
  proxy.setFraction(0);
  // THEN
  expect(error).toBeInstanceOf(ProvisionedThroughputExceededException);
  expect(error.message).toBe(THROTTLING_MESSAGE);
  expect(error.$metadata.httpStatusCode).toBe(400);
  expect((await client.send(new GetItemCommand({ TableName: 'proxied', Key: { id: { S: 'a' } } }))).Item).toBeUndefined();
  client.destroy();
});

test("the SDK's standard retry mode retries the throttle; unthrottled calls reach dynalite", async () => {
  // GIVEN half the calls throttled and the SDK's default retries
  const client = new DynamoDBClient(clientConfig(proxy, { maxAttempts: 10 }));
  proxy.setFraction(0.5);
  const before = proxy.stats();
  // WHEN
  for (let i = 0; i < 5; i++) await client.send(new PutItemCommand({ TableName: 'proxied', Item: { id: { S: `k${i}` } } }));
  proxy.setFraction(0);
  // THEN every write landed, and some needed retries
  const after = proxy.stats();
  expect(after.byOperation.PutItem.forwarded - (before.byOperation.PutItem?.forwarded ?? 0)).toBe(5);
  expect(after.throttled).toBeGreaterThan(before.throttled);
  const item = await client.send(new GetItemCommand({ TableName: 'proxied', Key: { id: { S: 'k4' } } }));
  expect(item.Item).toEqual({ id: { S: 'k4' } });
  client.destroy();
}, 30_000);

test('control-plane operations are not throttled', async () => {
  const client = new DynamoDBClient(clientConfig(proxy, { maxAttempts: 1 }));
  proxy.setFraction(1);
  const created = await client.send(new CreateTableCommand({
    TableName: 'proxied-2',
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    BillingMode: 'PAY_PER_REQUEST',
  }));
  proxy.setFraction(0);
  expect(created.TableDescription?.TableName).toBe('proxied-2');
  client.destroy();
});
