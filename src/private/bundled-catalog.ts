import { readFileSync } from 'fs';
import { join } from 'path';
import { gunzipSync } from 'zlib';

/**
 * Internal (not exported from the package): the one loader of the generated catalogs under data/ (the JumpStart
 * catalog, data/jumpstart/catalog.json.gz, and the image catalog, data/images/catalog.json.gz).
 *
 * data/ sits outside src/ because jsii copies only .ts output into lib/; from both src/private (ts-jest) and lib/private
 * (compiled) it is two levels up, and it ships in the npm tarball (data/ is not npm-ignored).
 */
export function dataFile(...parts: string[]): string {
  return join(__dirname, '..', '..', 'data', ...parts);
}

/** What every catalog file starts with: the version of its shape, which the reader must know. */
export interface CatalogFile {
  readonly schema: number;
}

/**
 * A gzipped JSON catalog, read, inflated, parsed and checked against the schema version the library reads on the first
 * lookup, then kept for the life of the process.
 */
export class BundledCatalog<T extends CatalogFile> {
  private data?: T;
  private reads = 0;

  /**
   * @param name what messages call it (`JumpStart catalog`)
   * @param path the gzipped JSON file (`dataFile('jumpstart', 'catalog.json.gz')`)
   * @param schema the schema version this library reads
   * @param task the projen task that regenerates the file, named in the schema mismatch error
   */
  constructor(
    private readonly name: string,
    public readonly path: string,
    private readonly schema: number,
    private readonly task: string,
  ) {}

  /** The parsed catalog: read on the first call, the same object on every later one. */
  public load(): T {
    if (!this.data) {
      const data = JSON.parse(gunzipSync(readFileSync(this.path)).toString('utf8')) as T;
      if (data.schema !== this.schema) {
        throw new Error(`${this.name} ${this.path} has schema ${data.schema}, expected ${this.schema}: regenerate it (npx projen ${this.task})`);
      }
      this.data = data;
      this.reads++;
    }
    return this.data;
  }

  /** How many times the file has been read and inflated in this process (tests and benchmarks). */
  public get loadCount(): number {
    return this.reads;
  }
}
