/**
 * The price table bundled with the library, in the format `cdk-sagemaker-mcp prices` writes
 * (packages/runtime/src/prices/prices.ts): on-demand Amazon SageMaker AI real-time inference (hosting) prices, USD per
 * instance-hour, by region and instance type.
 *
 * A row belongs here only when it was read from AWS's Price List for `AmazonSageMaker` (the bulk offer file
 * https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonSageMaker/current/index.json, or the Query API's
 * GetProducts, or the public bulk files), with the publication date and the row's usage type (`<REGION>-Host:ml.*`).
 * The rows are generated (hosting-prices.generated.ts) by `npx projen prices:refresh`, which the scheduled workflow
 * .github/workflows/prices.yml runs; until its first run the table is empty and every price is unknown
 * (`priceKnown: false`) unless a table of your own is given: `cdk-sagemaker-mcp prices --from-bulk > prices.json`, then
 * `PriceTable.fromFile('prices.json')` (docs/cost.md).
 */

export { BUNDLED_PRICES, PRICE_TABLE_DATE } from './hosting-prices.generated';

export const PRICE_TABLE_NOTE = 'on-demand SageMaker AI real-time inference (hosting) prices in USD per instance-hour, '
  + 'excluding storage, data transfer and Savings Plans';

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
