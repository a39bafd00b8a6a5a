/**
 * What every local stand-in for an AWS JSON-protocol service shares (awsJson1_1, as the SDK's Secrets Manager and Pricing
 * clients speak it: `POST /` with `X-Amz-Target: <Service>.<Operation>` and a JSON body; answers in
 * `application/x-amz-json-1.1` with an `x-amzn-RequestId`, errors as `{ "__type": ... }`). The stand-in says only what
 * its operations answer; a body that is not JSON gets the service's SerializationException (`notJson`).
 */
import { randomUUID } from 'crypto';
import { createServer, IncomingMessage } from 'http';
import { AddressInfo } from 'net';

/** An HTTP status and the JSON body to send with it. */
export type JsonAnswer = readonly [status: number, body: unknown];

export interface JsonProtocolServer {
  /** `http://127.0.0.1:<port>`, for the SDK client's `endpoint`. */
  readonly endpoint: string;
  stop(): Promise<void>;
}

export async function startJsonProtocolServer(
  answer: (target: string, body: Record<string, any>, req: IncomingMessage) => JsonAnswer,
  notJson: JsonAnswer,
): Promise<JsonProtocolServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let parsed: Record<string, any> | undefined;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        parsed = undefined;
      }
      const [status, body] = parsed === undefined ? notJson : answer(String(req.headers['x-amz-target'] ?? ''), parsed, req);
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
