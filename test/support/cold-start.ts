/**
 * A Lambda cold start, locally: a fresh `node` process requires a bundled handler (what Lambda's Node.js runtime does
 * in the init phase), then invokes its `handler` with each event in turn on that one container. It reports how long
 * the `require` and each invocation took, and which modules were required at load and during each invocation (every
 * `require` request, through a `Module._load` hook installed before the bundle loads). Used by
 * test/mcp/cold-load.test.ts (which modules, no timing) and bench/mcp.bench.ts (timing).
 */
import { execFile } from 'child_process';

export interface ColdStartOptions {
  /** Absolute path of the bundled handler (its `handler` export is invoked). */
  readonly bundle: string;
  /** The events to invoke the handler with, in order, on the same container. */
  readonly events: readonly unknown[];
  /**
   * Modules to require right after the bundle, timed as part of its `require` (e.g. to time what loading them at
   * module load would cost). @default - none
   */
  readonly alsoRequire?: readonly string[];
  /** Environment of the process (added to this process's). */
  readonly env?: Record<string, string>;
  /** Working directory (external packages, e.g. the AWS SDK, resolve from here). @default - this process's */
  readonly cwd?: string;
}

export interface ColdInvocation {
  readonly ms: number;
  readonly result: unknown;
  /** Every module id requested while this invocation ran (first requests and cached ones alike). */
  readonly required: string[];
}

export interface ColdStart {
  /** Wall time of `require(bundle)`. */
  readonly requireMs: number;
  /**
   * CPU time (user + system, all threads of the process) spent during `require(bundle)`: the work itself, which a
   * loaded machine stretches less than the wall time.
   */
  readonly requireCpuMs: number;
  /** Every module id the bundle requested while it loaded. */
  readonly requiredAtLoad: string[];
  readonly invocations: ColdInvocation[];
}

const MARK = 'COLD_START_RESULT ';

// Plain JavaScript run by `node -e`: nothing of this process (jest's module registry, ts-node) is in the child.
const CHILD = `
const Module = require('module');
const load = Module._load;
let required = [];
Module._load = function (request) { required.push(request); return load.apply(this, arguments); };
const input = JSON.parse(process.env.COLD_START_INPUT);
const since = (t) => Number(process.hrtime.bigint() - t) / 1e6;
(async () => {
  const cpu = process.cpuUsage();
  let t = process.hrtime.bigint();
  const bundle = require(input.bundle);
  for (const id of input.alsoRequire) require(id);
  const requireMs = since(t);
  const cpuUsed = process.cpuUsage(cpu);
  const requireCpuMs = (cpuUsed.user + cpuUsed.system) / 1e3;
  const requiredAtLoad = required;
  const invocations = [];
  for (const event of input.events) {
    required = [];
    t = process.hrtime.bigint();
    const result = await bundle.handler(event, undefined);
    invocations.push({ ms: since(t), result, required });
  }
  process.stdout.write('\\n${MARK}' + JSON.stringify({ requireMs, requireCpuMs, requiredAtLoad, invocations }) + '\\n');
})().catch((err) => { console.error(err); process.exit(1); });
`;

/** Runs one cold start in a new process; rejects with its stderr when the process fails. */
export function coldStart(options: ColdStartOptions): Promise<ColdStart> {
  const input = { bundle: options.bundle, events: options.events, alsoRequire: options.alsoRequire ?? [] };
  const env = { ...process.env, ...options.env, COLD_START_INPUT: JSON.stringify(input) };
  return new Promise((resolve, reject) => {
    // Asynchronous on purpose: the local AWS stand-ins the handler calls run in this process's event loop.
    execFile(process.execPath, ['-e', CHILD], { cwd: options.cwd, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const line = stdout.split('\n').find((l) => l.startsWith(MARK));
      if (err || !line) {
        // The last of stderr: a minified bundle's error frames quote whole lines.
        reject(new Error(`cold start of ${options.bundle} failed (${err ? `exit ${err.code}` : 'no result line'}):\n${stderr.slice(-4000)}`));
        return;
      }
      resolve(JSON.parse(line.slice(MARK.length)) as ColdStart);
    });
  });
}
