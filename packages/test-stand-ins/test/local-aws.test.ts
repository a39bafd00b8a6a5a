import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { clientConfig, LocalService, s3ClientConfig, startDynalite, startS3rver } from '@cdk-sagemaker-mcp/test-stand-ins/local-aws';

describe('local AWS stand-ins', () => {
  let ddb: LocalService;
  let s3: LocalService;
  beforeAll(async () => {
    [ddb, s3] = await Promise.all([startDynalite(), startS3rver(['bucket-one'])]);
  });
  afterAll(async () => {
    await Promise.all([ddb.stop(), s3.stop()]);
  });

  test('dynalite serves the real DynamoDB client, including conditional writes', async () => {
    const client = new DynamoDBClient(clientConfig(ddb));
    await client.send(new CreateTableCommand({
      TableName: 'jobs',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }));
    await client.send(new PutItemCommand({ TableName: 'jobs', Item: { pk: { S: 'a' } }, ConditionExpression: 'attribute_not_exists(pk)' }));
    await expect(client.send(new PutItemCommand({ TableName: 'jobs', Item: { pk: { S: 'a' } }, ConditionExpression: 'attribute_not_exists(pk)' })))
      .rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    const got = await client.send(new GetItemCommand({ TableName: 'jobs', Key: { pk: { S: 'a' } } }));
    expect(got.Item).toEqual({ pk: { S: 'a' } });
    client.destroy();
  });

  test('s3rver stores and returns an object byte for byte', async () => {
    const client = new S3Client(s3ClientConfig(s3));
    await client.send(new PutObjectCommand({ Bucket: 'bucket-one', Key: 'in/x.json', Body: '{"a":1}' }));
    const got = await client.send(new GetObjectCommand({ Bucket: 'bucket-one', Key: 'in/x.json' }));
    expect(await got.Body!.transformToString()).toBe('{"a":1}');
    client.destroy();
  });

  test('s3rver reads after writes as S3 does: a GET right after each PUT sees the whole new object', async () => {
    // "any subsequent read request immediately receives the latest version of the object" (https://aws.amazon.com/s3/consistency/)
    const client = new S3Client(s3ClientConfig(s3));
    const seen: number[] = [];
    for (let i = 0; i < 20; i++) {
      const body = String(i).repeat(256 * 1024);
      await client.send(new PutObjectCommand({ Bucket: 'bucket-one', Key: `raw/${i}`, Body: body }));
      const got = await client.send(new GetObjectCommand({ Bucket: 'bucket-one', Key: `raw/${i}` }));
      seen.push((await got.Body!.transformToString()).length);
    }
    expect(seen).toEqual(seen.map((_, i) => String(i).length * 256 * 1024));
    client.destroy();
  });
});
