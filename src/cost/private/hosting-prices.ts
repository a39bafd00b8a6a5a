/**
 * The price table bundled with the library, in the format `cdk-sagemaker-mcp prices` writes
 * (packages/runtime/src/prices/prices.ts): on-demand Amazon SageMaker AI real-time inference (hosting) prices, USD per
 * instance-hour, by region and instance type.
 *
 * A row belongs here only when it was read from AWS's Price List for `AmazonSageMaker` (the bulk offer file
 * https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonSageMaker/current/index.json, or the Query API's
 * GetProducts), with the offer's publication date and the row's usage type (`<REGION>-Host:ml.*`). No such file was
 * readable when this release was made, so the table is empty (an earlier row quoting a blog was removed): every price
 * is unknown (`priceKnown: false`) until a table of your own is given. To fill it, run
 * `cdk-sagemaker-mcp prices --offer-file index.json > prices.json` and pass `PriceTable.fromFile('prices.json')`
 * (docs/cost.md).
 */

/** The date of the table: when its rows were read (here, when it was emptied). */
export const PRICE_TABLE_DATE = '2026-12-02';

export const PRICE_TABLE_NOTE = 'on-demand SageMaker AI real-time inference (hosting) prices in USD per instance-hour, '
  + 'excluding storage, data transfer and Savings Plans';

export const BUNDLED_PRICES = {
  format: 'cdk-sagemaker-mcp/hosting-prices@1',
  source: 'the bundled price table (empty: refresh it with cdk-sagemaker-mcp prices, see docs/cost.md)',
  asOf: PRICE_TABLE_DATE,
  regions: {} as Record<string, Record<string, { usd: number; usagetype: string }>>,
};

/** Where a serverless row was read, and when (a row belongs here only with an AWS source). */
export interface PriceSource {
  readonly url: string;
  /** The date the source gives for its prices, YYYY-MM-DD. */
  readonly asOf: string;
}

/**
 * Serverless Inference prices, region → memory size (MiB) → USD: `compute` per second of a request, `provisioned`
 * per hour of one unit of provisioned concurrency (https://docs.aws.amazon.com/sagemaker/latest/dg/serverless-endpoints.html
 * says what is billed). Empty: no dated source stating exact figures was readable when the table was made.
 */
export interface ServerlessPriceRow {
  readonly compute?: readonly [number, PriceSource];
  readonly provisioned?: readonly [number, PriceSource];
}

export const SERVERLESS_PRICES: Readonly<Record<string, Readonly<Record<number, ServerlessPriceRow>>>> = {};
