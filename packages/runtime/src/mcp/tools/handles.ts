/**
 * Opaque handles for long-running work (async inference jobs, training runs). A handle is the AES-256-GCM sealed JSON
 * of what the follow-up call needs plus its expiry, base64url-encoded: the agent cannot read the ARNs and locations
 * inside it, cannot forge one or extend its life, and a handle sealed by another deployment (another key) is refused
 * like a forged one. Being sealed rather than stored, handles need no table: any instance holding the key opens them
 * (stateless HTTP, Lambda scale-out).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'crypto';
import { DEFAULT_HANDLE_TTL_SECONDS, handleTtlProblems } from '../../contract/mcp';

export { DEFAULT_HANDLE_TTL_SECONDS } from '../../contract/mcp';

/** Version 2 carries an expiry; version 1 handles (which never expired) are refused. */
const VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const toolThatIssues = (kind: string) => (kind === 'async' ? 'start_async_inference' : kind === 'task' ? 'tools/call' : 'start_training');

/** A handle that does not open: forged, truncated, of another kind, or sealed with another key. */
export class InvalidHandleError extends Error {
  public readonly retryable = false;
  constructor(kind: string, reason: string) {
    super(`Unknown or invalid ${kind} handle (${reason}). Pass the exact "handle" string a previous ${toolThatIssues(kind)} call returned.`);
    this.name = 'InvalidHandleError';
  }
}

/** A genuine handle past its expiry. Not retryable: the same handle will never open again. */
export class HandleExpiredError extends Error {
  public readonly retryable = false;
  constructor(kind: string, public readonly expiredAt: string) {
    super(`This ${kind} handle expired at ${expiredAt}. Handles are valid for a limited time; call ${toolThatIssues(kind)} again for a new one.`);
    this.name = 'HandleExpiredError';
  }
}

/** No handle key was configured and a per-process key was not asked for. */
export class MissingHandleKeyError extends Error {
  constructor() {
    super('handleKey: not set, expected the secret that seals tool handles (async jobs, training runs), shared by every '
      + 'instance serving the same clients. For a single local process set ephemeralHandleKey: true instead (a random '
      + 'key: its handles stop opening when the process restarts).');
    this.name = 'MissingHandleKeyError';
  }
}

/** `task`: an MCP task id (../tasks), sealed like a handle and bound to its caller. */
export type HandleKind = 'async' | 'training' | 'task';

/**
 * How far a sealed expiry may lie beyond now + TTL and still open: the clock skew tolerated between the instance that
 * sealed a handle and the one that opens it. A handle claiming more (a clock far ahead, or a TTL since shortened) is
 * refused, so no instance's clock can extend a handle's life.
 */
export const HANDLE_CLOCK_SKEW_MS = 60_000;

export interface HandleCodec {
  /** Seconds each handle stays valid. */
  readonly ttlSeconds: number;
  seal(kind: HandleKind, payload: Record<string, unknown>): string;
  /** Like `seal`, with the handle's expiry (ISO-8601) to tell the agent. */
  issue(kind: HandleKind, payload: Record<string, unknown>): { readonly handle: string; readonly expiresAt: string };
  /** The payload, or InvalidHandleError / HandleExpiredError. */
  open<T>(kind: HandleKind, handle: string): T;
}

export interface HandleCodecOptions {
  /** Seconds a handle stays valid after it is sealed. @default DEFAULT_HANDLE_TTL_SECONDS (7 days) */
  readonly ttlSeconds?: number;
  /**
   * Without a secret, use a random per-process key instead of refusing. Its handles die with the process: right for a
   * local stdio server, wrong for a fleet (an instance would refuse what another sealed).
   * @default false
   */
  readonly ephemeralKey?: boolean;
  /** Milliseconds since the epoch. @default Date.now */
  readonly now?: () => number;
}

/** A codec keyed by `secret` (any string; hashed to 32 bytes). Throws MissingHandleKeyError without one. */
export function createHandleCodec(secret?: string, options: HandleCodecOptions = {}): HandleCodec {
  if (!secret && !options.ephemeralKey) throw new MissingHandleKeyError();
  const ttlProblems = handleTtlProblems('handleTtlSeconds', options.ttlSeconds);
  if (ttlProblems.length > 0) throw new Error(ttlProblems[0]);
  const key = secret ? createHash('sha256').update(`cdk-sagemaker-mcp/handles/v1\0${secret}`).digest() : randomBytes(32);
  const ttlMs = (options.ttlSeconds ?? DEFAULT_HANDLE_TTL_SECONDS) * 1000;
  const now = options.now ?? Date.now;
  const issue = (kind: HandleKind, payload: Record<string, unknown>) => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    // The kind and the version are authenticated: a training handle never opens as an async one.
    cipher.setAAD(Buffer.from(`${VERSION}:${kind}`));
    const expiresAt = now() + ttlMs;
    const sealed = JSON.stringify({ x: expiresAt, p: payload });
    const body = Buffer.concat([cipher.update(sealed, 'utf8'), cipher.final()]);
    const handle = Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]).toString('base64url');
    return { handle, expiresAt: new Date(expiresAt).toISOString() };
  };
  return {
    ttlSeconds: ttlMs / 1000,
    issue,
    seal: (kind, payload) => issue(kind, payload).handle,
    open<T>(kind: HandleKind, handle: string): T {
      if (typeof handle !== 'string' || !/^[A-Za-z0-9_-]+$/.test(handle)) throw new InvalidHandleError(kind, 'not a handle string');
      const raw = Buffer.from(handle, 'base64url');
      if (raw.length >= 1 && raw[0] === 1) throw new InvalidHandleError(kind, 'issued by an earlier version of this server, before handles expired');
      if (raw.length < 1 + IV_BYTES + TAG_BYTES + 2 || raw[0] !== VERSION) throw new InvalidHandleError(kind, 'malformed');
      const iv = raw.subarray(1, 1 + IV_BYTES);
      const tag = raw.subarray(raw.length - TAG_BYTES);
      const body = raw.subarray(1 + IV_BYTES, raw.length - TAG_BYTES);
      let opened: { x?: unknown; p?: unknown };
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAAD(Buffer.from(`${VERSION}:${kind}`));
        decipher.setAuthTag(tag);
        opened = JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8'));
      } catch {
        throw new InvalidHandleError(kind, 'it was not issued by this server');
      }
      if (typeof opened.x !== 'number' || typeof opened.p !== 'object' || opened.p === null) throw new InvalidHandleError(kind, 'malformed');
      const at = now();
      if (at >= opened.x) throw new HandleExpiredError(kind, new Date(opened.x).toISOString());
      if (opened.x > at + ttlMs + HANDLE_CLOCK_SKEW_MS) {
        throw new InvalidHandleError(kind, `its expiry ${new Date(opened.x).toISOString()} lies beyond what this server issues (now + ${ttlMs / 1000} s): `
          + 'sealed by a clock that runs ahead, or before the handle lifetime was shortened');
      }
      return opened.p as T;
    },
  };
}
