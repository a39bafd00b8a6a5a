import { readFileSync } from 'fs';
import { BUNDLED_PRICES } from './private/hosting-prices';

/**
 * The `format` of a price table file, as `cdk-sagemaker-mcp prices` writes it (packages/runtime/src/prices/prices.ts
 * `PRICE_TABLE_FORMAT`; test/prices/endpoint-cost.test.ts reads the generator's output from a file).
 */
const FORMAT = 'cdk-sagemaker-mcp/hosting-prices@1';

/** One row of a price table: USD per instance-hour and the Price List usage type it was read from. */
interface Row {
  readonly usd: number;
  readonly usagetype: string;
}

/** A price table file's content. */
interface PriceTableData {
  readonly format: string;
  readonly source: string;
  readonly asOf: string;
  readonly regions: { readonly [region: string]: { readonly [instanceType: string]: Row } };
}

/**
 * On-demand SageMaker AI real-time inference (hosting) prices in USD per instance-hour, by region and instance type,
 * from AWS's Price List: what an endpoint's cost estimate multiplies capacities by. Build a current one with
 * `cdk-sagemaker-mcp prices --offer-file <file> > prices.json` (or `--from-api`) and pass
 * the table read from that file as the price table option; see https://github.com/cdk-sagemaker-mcp/cdk-sagemaker-mcp/blob/main/docs/cost.md.
 */
export class PriceTable {
  /**
   * The table bundled with the library (see `EndpointCost.PRICE_TABLE_DATE`). It holds only rows read from AWS's Price
   * List, and is empty in this release: every price is unknown until you give a table or prices of your own.
   */
  public static bundled(): PriceTable {
    return new PriceTable(BUNDLED_PRICES, 'the bundled price table');
  }

  /**
   * A table written by `cdk-sagemaker-mcp prices` (read at synth). Throws naming the file and each problem when it is
   * not such a table.
   */
  public static fromFile(path: string): PriceTable {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new Error(`Invalid PriceTable.fromFile: path: got '${path}', expected a readable file (${(err as Error).message})`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Error(`Invalid PriceTable.fromFile: '${path}' is not JSON (${(err as Error).message}); expected the output of cdk-sagemaker-mcp prices`);
    }
    return PriceTable.fromData(data, `PriceTable.fromFile '${path}'`);
  }

  /** A table from the parsed content of a price table file (what reading the file gives). */
  public static fromJson(data: any): PriceTable {
    return PriceTable.fromData(data, 'PriceTable.fromJson');
  }

  private static fromData(data: unknown, subject: string): PriceTable {
    const problems: string[] = [];
    const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, any>;
    if (d.format !== FORMAT) problems.push(`format: got ${JSON.stringify(d.format)}, expected '${FORMAT}' (the output of cdk-sagemaker-mcp prices)`);
    if (typeof d.source !== 'string' || d.source === '') problems.push(`source: got ${JSON.stringify(d.source)}, expected where the prices come from`);
    if (typeof d.asOf !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(d.asOf)) problems.push(`asOf: got ${JSON.stringify(d.asOf)}, expected a date YYYY-MM-DD`);
    if (typeof d.regions !== 'object' || d.regions === null || Array.isArray(d.regions)) {
      problems.push(`regions: got ${JSON.stringify(d.regions)}, expected region -> instance type -> { usd, usagetype }`);
    } else {
      for (const [region, rows] of Object.entries(d.regions as Record<string, any>)) {
        for (const [type, row] of Object.entries((rows ?? {}) as Record<string, any>)) {
          // JSON.parse reads 1e999 as Infinity (which JSON.stringify then writes as null), so the row names the value itself.
          const usd = row?.usd;
          if (typeof usd !== 'number' || !Number.isFinite(usd) || !(usd > 0) || typeof row?.usagetype !== 'string') {
            problems.push(`regions['${region}']['${type}']: got { usd: ${typeof usd === 'number' ? String(usd) : JSON.stringify(usd)}, usagetype: ${JSON.stringify(row?.usagetype)} }, `
              + `expected { usd: <finite number of USD per hour > 0>, usagetype: '<REGION>-Host:${type}' }`);
          }
        }
      }
    }
    if (problems.length > 0) throw new Error(`Invalid ${subject}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    return new PriceTable(d as PriceTableData, subject);
  }

  /** The date of the prices (the Price List publication date, YYYY-MM-DD). */
  public readonly asOf: string;
  /** Where the prices come from. */
  public readonly source: string;

  /** What the table is, for messages: 'the bundled price table' or the file it was read from. */
  public readonly description: string;

  private constructor(private readonly data: PriceTableData, description: string) {
    this.description = description;
    this.asOf = data.asOf;
    this.source = data.source;
  }

  /** The regions the table has prices for. */
  public get regions(): string[] {
    return Object.keys(this.data.regions).sort();
  }

  /** The instance types the table has prices for in `region` (empty when it has none there). */
  public instanceTypes(region: string): string[] {
    return Object.keys(this.data.regions[region] ?? {}).sort();
  }

  /** USD per instance-hour of the instance type in the region, or no value when the table lacks it. */
  public hourlyPriceUsd(region: string, instanceType: string): number | undefined {
    return this.data.regions[region]?.[instanceType]?.usd;
  }

  /** The Price List usage type a price was read from (e.g. `USE1-Host:ml.m5.xlarge`), or no value. */
  public usageType(region: string, instanceType: string): string | undefined {
    return this.data.regions[region]?.[instanceType]?.usagetype;
  }
}
