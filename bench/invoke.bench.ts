/**
 * Overhead of runtime.invokeEndpoint (deadline signal, retry scope, classification, result wrapper) over a raw
 * `client.send(new InvokeEndpointCommand(...))`, both on the SAME client against the local SageMaker runtime server,
 * interleaved call by call.
 */
import { InvokeEndpointCommand } from '@aws-sdk/client-sagemaker-runtime';
import { Bench, BenchRow, interleavedMs } from './harness';
import { createRuntimeClient, invokeEndpoint } from '../packages/runtime/src/invoke/invoke';
import { fail, ok, start } from '@cdk-sagemaker-mcp/test-stand-ins/sagemaker-runtime-server';

const CALLS = 500;
const BURST = 200;

export const bench: Bench = {
  title: 'runtime invokeEndpoint overhead vs raw SDK send',
  async run(): Promise<BenchRow[]> {
    const sm = await start();
    const client = createRuntimeClient(sm.clientConfig({ maxSockets: 16, retry: { maxAttempts: 1 } }));
    sm.setDefault('clf', ok([{ label: 'greeting', score: 0.97 }]));
    sm.setDefault('bad', fail('ModelError', { originalStatusCode: 400 }));
    const body = '{"inputs":"hello there"}';
    const bytes = new TextEncoder().encode(body);
    const ours = (endpointName: string) => () => invokeEndpoint({ endpointName, body, contentType: 'application/json' }, { client }).then(
      (r) => r.json(),
      () => undefined,
    );
    const raw = (endpointName: string) => () => client.send(new InvokeEndpointCommand({ EndpointName: endpointName, Body: bytes, ContentType: 'application/json' })).then(
      (r) => JSON.parse(new TextDecoder().decode(r.Body)),
      () => undefined,
    );
    try {
      const success = await interleavedMs(ours('clf'), raw('clf'), CALLS);
      const errors = await interleavedMs(ours('bad'), raw('bad'), CALLS);
      const burst = await interleavedMs(
        () => Promise.all(Array.from({ length: BURST }, ours('clf'))),
        () => Promise.all(Array.from({ length: BURST }, raw('clf'))),
        10,
      );
      return [
        { name: `one successful call (median of ${CALLS})`, ours: success.a, baseline: success.b, unit: 'ms', baselineLabel: 'raw client.send' },
        { name: `one ModelError call (median of ${CALLS})`, ours: errors.a, baseline: errors.b, unit: 'ms', baselineLabel: 'raw client.send', note: 'ours classifies into ModelInvocationError' },
        { name: `${BURST} concurrent calls (median of 10 bursts)`, ours: burst.a, baseline: burst.b, unit: 'ms', baselineLabel: 'raw client.send', note: 'maxSockets 16' },
      ];
    } finally {
      client.destroy();
      await sm.stop();
    }
  },
};
