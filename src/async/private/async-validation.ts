import { Duration, Token } from 'aws-cdk-lib';
import { instanceSpecs } from '../../private/instance-table';
import { variantInstanceTypes } from '../../private/render-variant';
import { PropValidator } from '../../private/validation';
import { AsyncWorkload } from '../async-endpoint-options';
import { AsyncEndpointProps } from '../async-endpoint-props';

export const WORKLOAD_RANGES: Record<AsyncWorkload, { min: number; max: number; default: number; label: string }> = {
  [AsyncWorkload.GPU_LLM]: { min: 1, max: 2, default: 1, label: 'GPU LLM' },
  [AsyncWorkload.CPU_PROCESSING]: { min: 4, max: 8, default: 4, label: 'CPU processing' },
};

/** Default lifecycle expirations. */
export const DEFAULT_EXPIRATION = { input: Duration.days(7), output: Duration.days(30), failure: Duration.days(30) };

export function defaultWorkload(props: AsyncEndpointProps): AsyncWorkload {
  // The priority-1 instance type (none when the props are invalid: validation then says so).
  const [type] = variantInstanceTypes(props);
  if (!type || type.isUnresolved) return AsyncWorkload.CPU_PROCESSING;
  const spec = instanceSpecs(type.name);
  const accelerated = spec ? spec.accelerators > 0 : /^(g|p|inf|trn)\d/.test(type.family ?? '');
  return accelerated ? AsyncWorkload.GPU_LLM : AsyncWorkload.CPU_PROCESSING;
}

const PREFIX = /^[a-zA-Z0-9!_.*'()-][a-zA-Z0-9!_.*'()/-]*\/$/;

/** Checks the three prefixes; `path` leads each name in messages ('storage.' for the props, '' for attributes). */
export function validatePrefixes(v: PropValidator, path: string, input: string, output: string, failure: string): void {
  const named: Array<[string, string]> = [[`${path}inputPrefix`, input], [`${path}outputPrefix`, output], [`${path}failurePrefix`, failure]];
  for (const [name, prefix] of named) {
    v.pattern(name, prefix, PREFIX, "a key prefix of safe characters ending with '/' and not starting with '/', e.g. 'inputs/'", 400);
  }
  for (let i = 0; i < named.length; i++) {
    for (let j = i + 1; j < named.length; j++) {
      const [a, pa] = named[i];
      const [b, pb] = named[j];
      if (Token.isUnresolved(pa) || Token.isUnresolved(pb)) continue;
      v.check(!pa.startsWith(pb) && !pb.startsWith(pa), b, pb, `a prefix that does not overlap ${a} ('${pa}'): grants and lifecycle rules are per prefix`);
    }
  }
}
