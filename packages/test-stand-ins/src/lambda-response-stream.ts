/**
 * A stand-in for the Lambda Node.js runtime's response streaming, for handlers behind a function URL in
 * RESPONSE_STREAM mode (https://docs.aws.amazon.com/lambda/latest/dg/configuration-response-streaming.html):
 *
 * - `installAwsLambdaGlobals()` defines the runtime's `awslambda` global: `streamifyResponse(handler)` marks a handler
 *   `(event, responseStream, context)` as streaming ("wrap your function handler with the streamifyResponse()
 *   decorator", https://docs.aws.amazon.com/lambda/latest/dg/response-streaming-tutorial.html), and
 *   `HttpResponseStream.from(responseStream, { statusCode, headers, cookies })` sets the stream's content type to
 *   `application/vnd.awslambda.http-integration-response` and, before the first body byte, writes the JSON prelude and
 *   8 NUL bytes, as the runtime interface client does (HttpResponseStream.js in
 *   https://github.com/aws/aws-lambda-nodejs-runtime-interface-client).
 * - `invokeStreaming(handler, event)` runs the handler and reads what it writes as the function URL does: the prelude
 *   first (up to the 8 NUL bytes), then each body chunk as soon as it is written (`next()`), so a test sees what left
 *   the function before the handler returned.
 */
import { Writable } from 'stream';

export const HTTP_INTEGRATION_RESPONSE = 'application/vnd.awslambda.http-integration-response';
const DELIMITER = Buffer.alloc(8);
const STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');

export interface Prelude {
  readonly statusCode?: number;
  readonly headers?: Record<string, string>;
  readonly cookies?: string[];
}

/** The response stream the runtime hands a streaming handler: every write is queued for the reader at once. */
export class StandInResponseStream extends Writable {
  public contentType = 'application/octet-stream';
  /** Set by HttpResponseStream.from: runs before the first write. */
  public onBeforeFirstWrite?: (write: (chunk: Uint8Array | string) => void) => void;
  private readonly chunks: Buffer[] = [];
  private waiter?: () => void;
  private ended = false;
  private first = true;

  setContentType(type: string): void {
    this.contentType = type;
  }

  _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.first) {
      this.first = false;
      this.onBeforeFirstWrite?.((c) => this.push(Buffer.from(c)));
    }
    if (chunk.length) this.push(chunk);
    callback();
  }

  _final(callback: (error?: Error | null) => void): void {
    if (this.first) {
      this.first = false;
      this.onBeforeFirstWrite?.((c) => this.push(Buffer.from(c)));
    }
    this.ended = true;
    this.waiter?.();
    callback();
  }

  private push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.waiter?.();
  }

  /** The next chunk written, or undefined once the stream ended and everything was read. */
  async next(): Promise<Buffer | undefined> {
    while (this.chunks.length === 0 && !this.ended && !this.destroyed) await new Promise<void>((resolve) => { this.waiter = resolve; });
    this.waiter = undefined;
    return this.chunks.shift();
  }
}

export function installAwsLambdaGlobals(): () => void {
  const previous = (globalThis as any).awslambda;
  (globalThis as any).awslambda = {
    streamifyResponse: <H extends (...args: any[]) => unknown>(handler: H): H => Object.assign(handler, { [STREAMING]: true }),
    HttpResponseStream: {
      from(stream: StandInResponseStream, prelude: Prelude): StandInResponseStream {
        stream.setContentType(HTTP_INTEGRATION_RESPONSE);
        const json = JSON.stringify(prelude);
        stream.onBeforeFirstWrite = (write) => {
          write(json);
          write(DELIMITER);
        };
        return stream;
      },
    },
  };
  return () => {
    (globalThis as any).awslambda = previous;
  };
}

export function isStreamingHandler(handler: unknown): boolean {
  return typeof handler === 'function' && (handler as any)[STREAMING] === true;
}

export interface StreamingInvocation {
  readonly stream: StandInResponseStream;
  /** Settles when the handler returns. */
  readonly done: Promise<void>;
  /** The prelude (read off the stream up to the 8 NUL bytes); for a stream without one, undefined. */
  prelude(): Promise<Prelude | undefined>;
  /** The next body chunk as text, as soon as the handler wrote it; undefined at the end. */
  nextText(): Promise<string | undefined>;
  /** Everything that is still to come, as text. */
  rest(): Promise<string>;
}

export function invokeStreaming(
  handler: (event: unknown, stream: Writable, context?: unknown) => Promise<void>,
  event: unknown,
  context?: unknown,
): StreamingInvocation {
  if (!isStreamingHandler(handler)) throw new Error('not a streaming handler: wrap it in awslambda.streamifyResponse');
  const stream = new StandInResponseStream();
  const done = Promise.resolve(handler(event, stream, context));
  done.catch(() => undefined);
  let pending: Buffer = Buffer.alloc(0);
  let preludeRead = false;
  const nextText = async (): Promise<string | undefined> => {
    if (pending.length) {
      const text = pending.toString('utf8');
      pending = Buffer.alloc(0);
      return text;
    }
    return (await stream.next())?.toString('utf8');
  };
  return {
    stream,
    done,
    async prelude() {
      if (preludeRead) throw new Error('prelude already read');
      preludeRead = true;
      if (stream.contentType !== HTTP_INTEGRATION_RESPONSE) {
        // Not an HTTP integration response: whatever arrives is body.
        const first = await stream.next();
        if (stream.contentType !== HTTP_INTEGRATION_RESPONSE) {
          pending = first ?? Buffer.alloc(0);
          return undefined;
        }
        pending = first ?? Buffer.alloc(0);
      }
      for (;;) {
        const at = pending.indexOf(DELIMITER);
        if (at >= 0) {
          const prelude = JSON.parse(pending.subarray(0, at).toString('utf8')) as Prelude;
          pending = pending.subarray(at + DELIMITER.length);
          return prelude;
        }
        const more = await stream.next();
        if (!more) throw new Error(`stream ended before the prelude delimiter: ${pending.toString('utf8')}`);
        pending = Buffer.concat([pending, more]);
      }
    },
    nextText,
    async rest() {
      let text = '';
      for (let chunk = await nextText(); chunk !== undefined; chunk = await nextText()) text += chunk;
      return text;
    },
  };
}
