import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';
import { gzipSync } from 'zlib';
import { BundledCatalog, dataFile } from '../../src/private/bundled-catalog';

/** The one loader of the generated catalogs under data/ (JumpStart and images): read, inflate, parse, check, cache. */

const ROOT = join(__dirname, '..', '..');
let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'bundled-catalog-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeCatalog(name: string, body: object): string {
  const path = join(dir, name);
  writeFileSync(path, gzipSync(JSON.stringify(body)));
  return path;
}

test('reads and parses the file once, on the first load, and returns the same object after', () => {
  // GIVEN a catalog file of the schema the reader knows
  const catalog = new BundledCatalog<{ schema: number; models: string[] }>('Test catalog', writeCatalog('c.json.gz', { schema: 3, models: ['a'] }), 3, 'test:catalog');
  expect(catalog.loadCount).toBe(0);

  // WHEN it is loaded several times
  const first = catalog.load();
  const again = catalog.load();

  // THEN it was read once, and every load gives that object
  expect(first.models).toEqual(['a']);
  expect(again).toBe(first);
  expect(catalog.loadCount).toBe(1);
});

test('fails if the file has another schema: the message names the file, both versions and the task that regenerates it', () => {
  const path = writeCatalog('old.json.gz', { schema: 1 });
  const catalog = new BundledCatalog('Test catalog', path, 2, 'test:catalog');
  expect(() => catalog.load()).toThrow(`Test catalog ${path} has schema 1, expected 2: regenerate it (npx projen test:catalog)`);
  expect(catalog.loadCount).toBe(0);
});

test('dataFile points at the package\'s data/ folder, where both generated catalogs are', () => {
  expect(statSync(dataFile('jumpstart', 'catalog.json.gz')).isFile()).toBe(true);
  expect(statSync(dataFile('images', 'catalog.json.gz')).isFile()).toBe(true);
});

test('no other file of src/ inflates a catalog: both catalogs load through src/private/bundled-catalog.ts', () => {
  const files = (d: string): string[] => readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
  const readers = files(join(ROOT, 'src')).filter((f) => /\bgunzipSync\b/.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
  expect(readers).toEqual(['src/private/bundled-catalog.ts']);
});
