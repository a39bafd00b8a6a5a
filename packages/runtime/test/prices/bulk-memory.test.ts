/**
 * `cdk-sagemaker-mcp prices --from-bulk` reads a region file many times its heap limit (a slow suite: it serves and reads
 * ~30 MB).
 */
import { spawn } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { BulkFilesServer, startBulkFilesServer } from '@cdk-sagemaker-mcp/test-stand-ins/price-bulk-files';
import { buildSync } from 'esbuild';

const ROOT = join(__dirname, '..', '..', '..', '..');

describe('memory', () => {
  // A region file of ~30 MB: parsed whole it needs several times that (the reason the reader streams). The bundled CLI
  // reads it in a process whose V8 heap is capped at 48 MB, so the test fails if the reader ever holds the file.
  const HEAP_MB = 48;
  let big: BulkFilesServer;
  let dir: string;
  beforeAll(async () => {
    big = await startBulkFilesServer({ filler: 40_000 });
    dir = mkdtempSync(join(tmpdir(), 'bulk-cli-'));
    buildSync({ entryPoints: [join(ROOT, 'packages', 'runtime', 'src', 'cli.ts')], bundle: true, platform: 'node', target: 'node20', outfile: join(dir, 'cli.js'), logLevel: 'error' });
  });
  afterAll(async () => {
    await big.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a region file many times the heap limit is read in bounded memory', async () => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, join(dir, 'cli.js'), 'prices', '--from-bulk', '--bulk-url', big.url, '--region', 'us-east-1']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect({ code, stderr }).toEqual({ code: 0, stderr: 'cdk-sagemaker-mcp prices: 4 hosting prices in 1 regions, as of 2026-11-20\n' });
    expect(Object.keys(JSON.parse(stdout).regions['us-east-1'])).toEqual(['ml.g5.12xlarge', 'ml.g5.2xlarge', 'ml.g5.xlarge', 'ml.m5.xlarge']);
    expect(big.regionFileBytes / 2 ** 20).toBeGreaterThan(HEAP_MB / 2);
  }, 180_000);
});
