/**
 * Real protocol stand-ins for AWS storage services, started in-process on 127.0.0.1 with random ports:
 * dynalite (DynamoDB) and s3rver (S3). Point the real AWS SDK v3 clients at them with `clientConfig()`.
 */
import { mkdtempSync, rmSync, statSync } from 'fs';
import { AddressInfo, Server } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

/** Dummy credentials accepted by every local server here (s3rver insists on exactly S3RVER/S3RVER). */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const LOCAL_REGION = 'us-east-1';

export interface LocalService {
  /** e.g. http://127.0.0.1:41234 */
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** Client config for an SDK v3 client talking to a local service. */
export function clientConfig(service: LocalService, extra: Record<string, unknown> = {}) {
  return { endpoint: service.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, ...extra };
}

/** Client config for an S3 client talking to s3rver (path style, no streaming checksums: see TOOLCHAIN.md). */
export function s3ClientConfig(service: LocalService, extra: Record<string, unknown> = {}) {
  return clientConfig(service, { forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', ...extra });
}

function endpointOf(server: Server): string {
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Starts an in-memory dynalite (DynamoDB protocol). Table names need >= 3 characters. */
export async function startDynalite(opts: { createTableMs?: number } = {}): Promise<LocalService> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const dynalite = require('dynalite');
  const server: Server = dynalite({ createTableMs: opts.createTableMs ?? 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: endpointOf(server),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Starts s3rver on a fresh temp directory with the given buckets (names need >= 3 characters). */
export async function startS3rver(buckets: string[] = []): Promise<LocalService> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver');
  readAfterWrite();
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const s3rver = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await s3rver.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await s3rver.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

let readAfterWritePatched = false;

/**
 * S3 "delivers strong read-after-write consistency automatically": "After a successful write of a new object ... any
 * subsequent read request immediately receives the latest version of the object" (https://aws.amazon.com/s3/consistency/).
 * s3rver 3's filesystem store answers a PUT once the body has passed through its hash transform, before the file's
 * write stream has finished, so under load a GET right after the PUT can miss the object. Its `putObject` then waits,
 * bounded, until the file on disk holds every byte it was given.
 */
function readAfterWrite(): void {
  if (readAfterWritePatched) return;
  readAfterWritePatched = true;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const FilesystemStore = require('s3rver/lib/stores/filesystem');
  const putObject = FilesystemStore.prototype.putObject;
  FilesystemStore.prototype.putObject = async function (this: any, object: { bucket: string; key: string }) {
    const result = await putObject.call(this, object);
    const file = this.getResourcePath(object.bucket, object.key, 'object');
    for (let i = 0; i < 200 && sizeOf(file) !== result.size; i++) await new Promise((r) => setTimeout(r, 5));
    return result;
  };
}

function sizeOf(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}
