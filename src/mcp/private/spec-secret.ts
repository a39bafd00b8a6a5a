import { gzipSync } from 'zlib';
import { Stack, Token, Tokenization } from 'aws-cdk-lib';
import { LAMBDA_ENV_LIMIT_BYTES, McpPackedSpec, MCP_PACKED_SPEC_SLOT, McpServerSpec, MCP_SPEC_SECRET_LIMIT_BYTES } from '../../private/contract.generated';

// How an McpToolServer's spec is written into its secret (the runtime's McpPackedSpec), and the limits of the two stores
// of its configuration, checked at synth. A deploy-time name (a token) counts as nothing: the checks refuse only what is
// over the limit whatever the names turn out to be.

/** The spec as its secret holds it, and the bytes it takes before any deploy-time value. */
export interface PackedServerSpec {
  /** The secret's text: JSON with the deploy-time values as tokens, for CloudFormation to resolve. */
  readonly secretText: string;
  /** The size of `secretText` with every deploy-time value left empty: a lower bound of what the secret will hold. */
  readonly lowerBoundBytes: number;
}

const literalPart = (value: string): string =>
  Tokenization.reverseString(value).mapTokens({ mapToken: () => '' }).join({ join: (l, r) => `${l ?? ''}${r ?? ''}` }) ?? '';

/**
 * Packs `spec`: each value holding a deploy-time name becomes a slot (`{"$deployTimeValue": i}`) and goes to `values`;
 * the rest, static and repetitive (descriptions, feature schemas), is gzipped at synth, which JSON with tokens in it
 * could not be. Deterministic: the same spec gives the same text (gzip writes no timestamp from a buffer).
 */
export function packServerSpec(stack: Stack, spec: McpServerSpec): PackedServerSpec {
  const values: string[] = [];
  const staticText = JSON.stringify(spec, (_key, value: unknown) => {
    if (typeof value === 'string' && Token.isUnresolved(value)) {
      values.push(value);
      return { [MCP_PACKED_SPEC_SLOT.STRING]: values.length - 1 };
    }
    if (typeof value === 'number' && Token.isUnresolved(value)) {
      values.push(Token.asString(value));
      return { [MCP_PACKED_SPEC_SLOT.NUMBER]: values.length - 1 };
    }
    return value;
  });
  const specGzipBase64 = gzipSync(Buffer.from(staticText, 'utf8'), { level: 9 }).toString('base64');
  const packed: McpPackedSpec = { specGzipBase64, values };
  const lowerBound: McpPackedSpec = { specGzipBase64, values: values.map(literalPart) };
  return { secretText: stack.toJsonString(packed), lowerBoundBytes: Buffer.byteLength(JSON.stringify(lowerBound), 'utf8') };
}

/** Why the packed spec cannot fit its secret, or undefined. */
export function specSizeProblem(packed: PackedServerSpec): string | undefined {
  if (packed.lowerBoundBytes <= MCP_SPEC_SECRET_LIMIT_BYTES) return undefined;
  return `the server spec (what it exposes): got at least ${packed.lowerBoundBytes} bytes packed (gzipped, deploy-time names apart), expected at most `
    + `${MCP_SPEC_SECRET_LIMIT_BYTES} bytes (the largest secret Secrets Manager stores): split the entries over two servers`;
}

/** The literal bytes of a resolved template value (an intrinsic's references count as nothing). */
function literalBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + literalBytes(v), 0);
  if (value && typeof value === 'object') {
    const join = (value as Record<string, unknown>)['Fn::Join'];
    if (Array.isArray(join) && Array.isArray(join[1])) return literalBytes(join[1]) + Buffer.byteLength(String(join[0]), 'utf8') * Math.max(0, join[1].length - 1);
  }
  return 0;
}

/**
 * Why a function's environment (its resolved `environment` property) cannot deploy, or undefined: Lambda counts the
 * names and values of all its variables together against 4 KB.
 */
export function environmentSizeProblem(environment: unknown): string | undefined {
  // The L1 property (`CfnFunction.environment`) spells it `variables`; the template, `Variables`.
  const env = environment as { variables?: Record<string, unknown>; Variables?: Record<string, unknown> } | undefined;
  const variables = env?.variables ?? env?.Variables ?? {};
  const sizes = Object.entries(variables).map(([name, value]) => ({ name, bytes: Buffer.byteLength(name, 'utf8') + literalBytes(value) }));
  const total = sizes.reduce((n, s) => n + s.bytes, 0);
  if (total <= LAMBDA_ENV_LIMIT_BYTES) return undefined;
  const largest = sizes.sort((a, b) => b.bytes - a.bytes).slice(0, 3).map((s) => `${s.name} ${s.bytes} bytes`).join(', ');
  return `the server function's environment variables: got at least ${total} bytes of names and values (largest: ${largest}), `
    + `expected at most ${LAMBDA_ENV_LIMIT_BYTES} bytes in total (Lambda's limit for all variables of a function)`;
}
