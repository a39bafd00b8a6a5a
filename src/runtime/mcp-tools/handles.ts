/**
 * Opaque handles for long-running work (async inference jobs, training runs). A handle is the AES-256-GCM sealed JSON
 * of what the follow-up call needs, base64url-encoded: the agent cannot read the ARNs and locations inside it, cannot
 * forge one, and a handle sealed by another deployment (another key) is refused like a forged one. Being sealed rather
 * than stored, handles need no table: any instance holding the key opens them (stateless HTTP, Lambda scale-out).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A handle that does not open: forged, truncated, of another kind, or sealed with another key. */
export class InvalidHandleError extends Error {
  public readonly retryable = false;
  constructor(kind: string, reason: string) {
    super(`Unknown or invalid ${kind} handle (${reason}). Pass the exact "handle" string a previous ${kind === 'async' ? 'start_async_inference' : 'start_training'} call returned.`);
    this.name = 'InvalidHandleError';
  }
}

export type HandleKind = 'async' | 'training';

export interface HandleCodec {
  seal(kind: HandleKind, payload: Record<string, unknown>): string;
  /** The payload, or InvalidHandleError. */
  open<T>(kind: HandleKind, handle: string): T;
}

/**
 * A codec keyed by `secret` (any string; hashed to 32 bytes). Without a secret a random per-process key is used: its
 * handles die with the process, which suits a local stdio server but not a fleet.
 */
export function createHandleCodec(secret?: string): HandleCodec {
  const key = secret ? createHash('sha256').update(`cdk-sagemaker-mcp/handles/v1\0${secret}`).digest() : randomBytes(32);
  return {
    seal(kind, payload) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(kind));
      const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]).toString('base64url');
    },
    open<T>(kind: HandleKind, handle: string): T {
      if (typeof handle !== 'string' || !/^[A-Za-z0-9_-]+$/.test(handle)) throw new InvalidHandleError(kind, 'not a handle string');
      const raw = Buffer.from(handle, 'base64url');
      if (raw.length < 1 + IV_BYTES + TAG_BYTES + 2 || raw[0] !== VERSION) throw new InvalidHandleError(kind, 'malformed');
      const iv = raw.subarray(1, 1 + IV_BYTES);
      const tag = raw.subarray(raw.length - TAG_BYTES);
      const body = raw.subarray(1 + IV_BYTES, raw.length - TAG_BYTES);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAAD(Buffer.from(kind));
        decipher.setAuthTag(tag);
        const text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
        return JSON.parse(text) as T;
      } catch {
        throw new InvalidHandleError(kind, 'it was not issued by this server');
      }
    },
  };
}
