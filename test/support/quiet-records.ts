/**
 * The bundled handlers write their log entries (Powertools Logger) and metrics (Powertools Metrics, CloudWatch embedded
 * metric format) as JSON lines on stdout, and the MCP tool guard its failures on stderr, as Lambda wants: CloudWatch
 * Logs reads them (https://docs.aws.amazon.com/lambda/latest/dg/nodejs-logging.html). In the tests nothing reads them
 * unless a test captures the stream (`jest.spyOn(process.stdout, 'write')`, test/support/emf.ts), and passing tests would
 * print thousands of lines: this setup file (jest `setupFiles`) drops those records from the worker's stdout and stderr.
 * A test that spies on `write` replaces this filter while it spies, so it still sees every record.
 */
const RECORD = /^\{"(level|_aws)":/;
const QUIET = Symbol.for('cdk-sagemaker-mcp.quiet-records');

for (const stream of [process.stdout, process.stderr] as Array<NodeJS.WriteStream & { [QUIET]?: true }>) {
  if (stream[QUIET]) continue; // once per worker: the streams outlive the test files
  const write = stream.write;
  stream.write = function quietWrite(this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : undefined;
    if (text !== undefined && text.split('\n').filter(Boolean).every((line) => RECORD.test(line)) && text.trim() !== '') {
      const callback = rest.find((r): r is () => void => typeof r === 'function');
      callback?.();
      return true;
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof stream.write;
  stream[QUIET] = true;
}
