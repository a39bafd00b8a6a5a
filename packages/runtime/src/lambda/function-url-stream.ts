/**
 * A web Response written to a Lambda response stream (function URL with InvokeMode RESPONSE_STREAM), so that an MCP
 * SSE answer leaves the function frame by frame, as the server writes it, instead of whole once the handler returns.
 * Internal: not part of the jsii API.
 *
 * The Node.js runtime gives a streaming handler `(event, responseStream, context)` when it is wrapped in
 * `awslambda.streamifyResponse`, and `awslambda.HttpResponseStream.from(responseStream, { statusCode, headers, cookies })`
 * sends the status and headers to the function URL before the first body byte
 * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-response-streaming.html,
 * https://docs.aws.amazon.com/lambda/latest/dg/response-streaming-tutorial.html). Both are globals of the Lambda
 * runtime, not modules: `awsLambdaStreaming()` finds them (packages/test-stand-ins/src/lambda-response-stream.ts stands in for them).
 */
import { Readable, Writable } from 'stream';
import { pipeline } from 'stream/promises';

/** The HTTP metadata prelude `HttpResponseStream.from` sends ahead of the body. */
export interface HttpResponsePrelude {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly cookies?: string[];
}

/** The part of the runtime's `awslambda` global used here. */
export interface AwsLambdaStreaming {
  readonly HttpResponseStream: { from(responseStream: Writable, prelude: HttpResponsePrelude): Writable };
  streamifyResponse<E, C>(handler: (event: E, responseStream: Writable, context: C) => Promise<void>): unknown;
}

/** The runtime's `awslambda` global, when the code runs in the Lambda Node.js runtime (or a stand-in set it). */
export function awsLambdaStreaming(): AwsLambdaStreaming | undefined {
  const global = (globalThis as unknown as { awslambda?: Partial<AwsLambdaStreaming> }).awslambda;
  return global?.streamifyResponse && global.HttpResponseStream ? global as AwsLambdaStreaming : undefined;
}

/**
 * Writes `response` to the function URL's response stream: status, headers and cookies as the prelude, then the body
 * chunk by chunk as the Response produces it; resolves when the stream has ended. A client that disconnects does not
 * end it: "streamed responses are not interrupted or stopped when the invoking client connection is broken", and the
 * function is billed for its full duration (https://docs.aws.amazon.com/lambda/latest/dg/configuration-response-streaming.html).
 * The exchange runs on to its result, bounded by the tools' deadlines and the function timeout. Only a failure of the
 * response stream itself ends the pipeline with an error, which cancels the Response body.
 */
export async function writeResponseToStream(response: Response, responseStream: Writable, lambda: AwsLambdaStreaming): Promise<void> {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') cookies.push(value);
    else headers[name] = value;
  });
  const out = lambda.HttpResponseStream.from(responseStream, { statusCode: response.status, headers, ...(cookies.length ? { cookies } : {}) });
  if (!response.body) {
    // The prelude is sent with the first write: an empty one, so that a body-less answer (202) still carries it.
    out.write('');
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    return;
  }
  await pipeline(Readable.fromWeb(response.body as import('stream/web').ReadableStream<Uint8Array>), out);
}
