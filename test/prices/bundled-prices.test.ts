/**
 * The bundled price table is generated (scripts/refresh-prices.ts, run by the scheduled prices workflow): the committed
 * module is exactly what the generator writes for its own table, and what it writes for a table read from the bulk
 * files' stand-in is a table `PriceTable` accepts with the same prices.
 */
import { readFileSync } from 'fs';
import * as ts from 'typescript';
import { BUNDLED_PRICES_FILE, renderBundledPrices } from '../../scripts/refresh-prices';
import { PriceTable } from '../../src';
import { BUNDLED_PRICES } from '../../src/prices/private/hosting-prices';
import { BULK_VERSION, startBulkFilesServer } from '@cdk-sagemaker-mcp/test-stand-ins/price-bulk-files';
import { PRICE_TABLE_FORMAT, pricesFromBulk } from 'cdk-sagemaker-mcp-runtime/prices';

function evaluate(source: string): any {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
  const module = { exports: {} as any };
  new Function('module', 'exports', js)(module, module.exports);
  return module.exports;
}

test('the committed bundled table is the generator\'s output for that table', () => {
  const format = PRICE_TABLE_FORMAT as typeof PRICE_TABLE_FORMAT;
  const table = { ...BUNDLED_PRICES, format, publicationDate: BUNDLED_PRICES.asOf, regions: BUNDLED_PRICES.regions as any };
  expect(readFileSync(BUNDLED_PRICES_FILE, 'utf8')).toBe(renderBundledPrices(table));
});

test('a table refreshed from the bulk files becomes a bundled table PriceTable reads', async () => {
  const files = await startBulkFilesServer();
  try {
    const table = await pricesFromBulk({ baseUrl: files.url, regions: ['us-east-1'] });
    const generated = evaluate(renderBundledPrices(table));

    expect(generated.PRICE_TABLE_DATE).toBe('2026-11-20');
    expect(generated.BUNDLED_PRICES.source).toContain(`version ${BULK_VERSION}`);
    const prices = PriceTable.fromJson(generated.BUNDLED_PRICES);
    expect(prices.instanceTypes('us-east-1')).toEqual(['ml.g5.12xlarge', 'ml.g5.2xlarge', 'ml.g5.xlarge', 'ml.m5.xlarge']);
    expect(prices.hourlyPriceUsd('us-east-1', 'ml.g5.2xlarge')).toBe(1.515);
  } finally {
    await files.stop();
  }
});
