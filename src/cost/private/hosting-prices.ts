/**
 * On-demand prices of Amazon SageMaker AI real-time inference (hosting) instances, in USD per instance-hour.
 *
 * Only prices a dated public source states exactly are listed; an unknown price is left out, never estimated. The
 * authoritative figures are the AWS Price List (service code `AmazonSageMaker`, product family "ML Instance",
 * attribute `component` = "Hosting") and https://aws.amazon.com/sagemaker/ai/pricing/ (tab "Real-Time Inference");
 * neither could be read when this table was made, so every row names the page it was read from.
 */

/** Where a row was read, and when. */
export interface PriceSource {
  readonly url: string;
  /** The date the source gives for its prices (or the date it was read when it gives none), YYYY-MM-DD or YYYY-MM. */
  readonly asOf: string;
  /** The source's words for the figure. */
  readonly quote: string;
}

/** The date of the table: when its rows were read. */
export const PRICE_TABLE_DATE = '2026-05-13';

export const PRICE_TABLE_NOTE = 'on-demand SageMaker AI real-time inference (hosting) prices in USD per instance-hour, '
  + 'excluding storage, data transfer and Savings Plans';

const ZIRCON_2025_10: PriceSource = {
  url: 'https://zircon.tech/blog/the-real-cost-of-running-ai-models-on-aws-sagemaker-inference-deep-dive',
  asOf: '2025-10',
  quote: 'A single ml.m5.xlarge instance costs $0.269/hour [...] These prices are for us-east-1 as of October 2025',
};

/** region → instance type → [USD per hour, source]. */
export const HOSTING_PRICES: Readonly<Record<string, Readonly<Record<string, readonly [number, PriceSource]>>>> = {
  'us-east-1': {
    'ml.m5.xlarge': [0.269, ZIRCON_2025_10],
  },
};

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
