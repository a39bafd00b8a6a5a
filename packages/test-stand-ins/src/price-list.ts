/**
 * AWS Price List data for tests, made to AWS's documented formats:
 * - `sageMakerOfferFile()`: a bulk offer file as
 *   https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/reading-an-offer.html describes it (formatVersion,
 *   offerCode, version, publicationDate; `products` keyed by SKU, each with `sku`, `productFamily` and `attributes`;
 *   `terms.OnDemand` keyed by SKU, then by `<sku>.<offerTermCode>`, with `priceDimensions` keyed by
 *   `<sku>.<offerTermCode>.<rateCode>`, each with `unit` and `pricePerUnit.USD` as a decimal string). The products are
 *   the kinds SageMaker's offer holds: real-time hosting instances, training, notebooks, batch transform, serverless
 *   inference; only hosting is a price table row. The prices are test values, not AWS's (except where marked).
 * - `startPricingServer(offer)`: a stand-in for the Price List Query API's GetProducts that the REAL
 *   `@aws-sdk/client-pricing` talks to (awsJson1_1, `X-Amz-Target: AWSPriceListService.GetProducts`), answering from an
 *   offer file as https://docs.aws.amazon.com/aws-cost-management/latest/APIReference/API_pricing_GetProducts.html says.
 */
import { startJsonProtocolServer } from './json-protocol-server';

export interface OfferProduct {
  readonly sku: string;
  readonly productFamily: string;
  readonly usagetype: string;
  readonly regionCode: string;
  readonly instanceType?: string;
  readonly component?: string;
  /** USD per unit, as the offer writes it (a decimal string). */
  readonly usd: string;
  /** @default 'Hrs' */
  readonly unit?: string;
}

export const OFFER_PUBLICATION_DATE = '2026-11-20T22:01:56Z';

/** The products of the test offer: two regions' hosting rows among the other families. */
export const OFFER_PRODUCTS: OfferProduct[] = [
  // USE1-Host:ml.m5.xlarge at $0.23/h is AWS's figure (dated Price List data); the other prices are test values.
  { sku: 'H1M5XL', productFamily: 'ML Instance', usagetype: 'USE1-Host:ml.m5.xlarge', regionCode: 'us-east-1', instanceType: 'ml.m5.xlarge', component: 'Hosting', usd: '0.2300000000' },
  { sku: 'H1G52XL', productFamily: 'ML Instance', usagetype: 'USE1-Host:ml.g5.2xlarge', regionCode: 'us-east-1', instanceType: 'ml.g5.2xlarge', component: 'Hosting', usd: '1.5150000000' },
  { sku: 'H1G512XL', productFamily: 'ML Instance', usagetype: 'USE1-Host:ml.g5.12xlarge', regionCode: 'us-east-1', instanceType: 'ml.g5.12xlarge', component: 'Hosting', usd: '7.0890000000' },
  { sku: 'H1G5XL', productFamily: 'ML Instance', usagetype: 'USE1-Host:ml.g5.xlarge', regionCode: 'us-east-1', instanceType: 'ml.g5.xlarge', component: 'Hosting', usd: '1.4080000000' },
  { sku: 'H2M5XL', productFamily: 'ML Instance', usagetype: 'EU-Host:ml.m5.xlarge', regionCode: 'eu-west-1', instanceType: 'ml.m5.xlarge', component: 'Hosting', usd: '0.2580000000' },
  { sku: 'T1M5XL', productFamily: 'ML Instance', usagetype: 'USE1-Train:ml.m5.xlarge', regionCode: 'us-east-1', instanceType: 'ml.m5.xlarge', component: 'Training', usd: '0.2300000000' },
  { sku: 'N1T3M', productFamily: 'ML Instance', usagetype: 'USE1-Notebk:ml.t3.medium', regionCode: 'us-east-1', instanceType: 'ml.t3.medium', component: 'Notebook', usd: '0.0500000000' },
  { sku: 'B1M5XL', productFamily: 'ML Instance', usagetype: 'USE1-Tsform:ml.m5.xlarge', regionCode: 'us-east-1', instanceType: 'ml.m5.xlarge', component: 'Batch Transform', usd: '0.2300000000' },
  { sku: 'S1INF', productFamily: 'Serverless Inference', usagetype: 'USE1-ServerlessInf:Mem-4GB', regionCode: 'us-east-1', usd: '0.0000800000', unit: 'Second' },
  { sku: 'H1STOR', productFamily: 'Storage', usagetype: 'USE1-Host:VolumeUsage.gp2', regionCode: 'us-east-1', component: 'Hosting', usd: '0.1400000000', unit: 'GB-Mo' },
];

/** The hosting price table `OFFER_PRODUCTS` make: what every reader of this data must produce from it. */
export const OFFER_HOSTING_TABLE = {
  'eu-west-1': { 'ml.m5.xlarge': { usd: 0.258, usagetype: 'EU-Host:ml.m5.xlarge', sku: 'H2M5XL' } },
  'us-east-1': {
    'ml.g5.12xlarge': { usd: 7.089, usagetype: 'USE1-Host:ml.g5.12xlarge', sku: 'H1G512XL' },
    'ml.g5.2xlarge': { usd: 1.515, usagetype: 'USE1-Host:ml.g5.2xlarge', sku: 'H1G52XL' },
    'ml.g5.xlarge': { usd: 1.408, usagetype: 'USE1-Host:ml.g5.xlarge', sku: 'H1G5XL' },
    'ml.m5.xlarge': { usd: 0.23, usagetype: 'USE1-Host:ml.m5.xlarge', sku: 'H1M5XL' },
  },
};

export function attributes(p: OfferProduct): Record<string, string> {
  return {
    servicecode: 'AmazonSageMaker',
    servicename: 'Amazon SageMaker',
    location: p.regionCode === 'us-east-1' ? 'US East (N. Virginia)' : 'EU (Ireland)',
    locationType: 'AWS Region',
    regionCode: p.regionCode,
    usagetype: p.usagetype,
    operation: 'RunInstance',
    ...(p.instanceType ? { instanceType: p.instanceType, instanceName: p.instanceType } : {}),
    ...(p.component ? { component: p.component } : {}),
  };
}

export function onDemand(p: OfferProduct) {
  const term = `${p.sku}.JRTCKXETXF`;
  return {
    [term]: {
      offerTermCode: 'JRTCKXETXF',
      sku: p.sku,
      effectiveDate: '2026-11-01T00:00:00Z',
      priceDimensions: {
        [`${term}.6YS6EN2CT7`]: {
          rateCode: `${term}.6YS6EN2CT7`,
          description: `$${Number(p.usd)} per ${p.unit ?? 'Hrs'} for ${p.usagetype}`,
          beginRange: '0',
          endRange: 'Inf',
          unit: p.unit ?? 'Hrs',
          pricePerUnit: { USD: p.usd },
          appliesTo: [],
        },
      },
      termAttributes: {},
    },
  };
}

/** A bulk offer file of `products`. */
export function sageMakerOfferFile(products: OfferProduct[] = OFFER_PRODUCTS): any {
  return {
    formatVersion: 'v1.0',
    disclaimer: 'This pricing list is for informational purposes only.',
    offerCode: 'AmazonSageMaker',
    version: '20261120220156',
    publicationDate: OFFER_PUBLICATION_DATE,
    products: Object.fromEntries(products.map((p) => [p.sku, { sku: p.sku, productFamily: p.productFamily, attributes: attributes(p) }])),
    terms: { OnDemand: Object.fromEntries(products.map((p) => [p.sku, onDemand(p)])) },
  };
}

export interface PricingServer {
  readonly endpoint: string;
  /** Every GetProducts request body. */
  readonly requests: Record<string, any>[];
  stop(): Promise<void>;
}

export interface PricingServerOptions {
  /** Products per page when the request gives no MaxResults (API default 100). @default 100 */
  readonly pageSize?: number;
  /** Always answer the first page's NextToken again (a service whose pagination never ends). @default false */
  readonly neverEnds?: boolean;
}

/** A GetProducts stand-in answering from `products`. */
export async function startPricingServer(products: OfferProduct[] = OFFER_PRODUCTS, options: PricingServerOptions = {}): Promise<PricingServer> {
  const requests: Record<string, any>[] = [];
  const items = products.map((p) => ({
    product: { productFamily: p.productFamily, attributes: attributes(p), sku: p.sku },
    serviceCode: 'AmazonSageMaker',
    terms: { OnDemand: onDemand(p) },
    version: '20261120220156',
    publicationDate: OFFER_PUBLICATION_DATE,
  }));
  const server = await startJsonProtocolServer((target, body) => {
    if (target !== 'AWSPriceListService.GetProducts') {
      return [400, { __type: 'UnknownOperationException', Message: `${target} is not implemented by the local Pricing stand-in` }];
    }
    requests.push(body);
    // API_pricing_GetProducts.html: ServiceCode "Required: Yes"; MaxResults "Valid Range: Minimum value of 1. Maximum
    // value of 100."; errors InvalidParameterException (400) and InvalidNextTokenException (400).
    if (typeof body.ServiceCode !== 'string') return [400, { __type: 'InvalidParameterException', Message: 'ServiceCode is required' }];
    const max = body.MaxResults ?? options.pageSize ?? 100;
    if (!Number.isInteger(max) || max < 1 || max > 100) return [400, { __type: 'InvalidParameterException', Message: 'MaxResults must be between 1 and 100' }];
    // Filters: "only products that match all filters are returned"; TERM_MATCH / EQUALS: the field's value is the
    // value; CONTAINS: the value is a substring of the field's.
    const matches = (item: typeof items[number]) => (body.Filters ?? []).every((f: { Type: string; Field: string; Value: string }) => {
      const actual = f.Field === 'ServiceCode' ? item.serviceCode : (item.product.attributes as Record<string, string>)[f.Field];
      if (f.Type === 'CONTAINS') return typeof actual === 'string' && actual.includes(f.Value);
      return actual === f.Value;
    });
    const selected = body.ServiceCode === 'AmazonSageMaker' ? items.filter(matches) : [];
    let start = 0;
    if (body.NextToken !== undefined) {
      start = Number(Buffer.from(String(body.NextToken), 'base64url').toString('utf8').replace(/^page:/, ''));
      if (!Number.isInteger(start) || start < 0 || start > selected.length) return [400, { __type: 'InvalidNextTokenException', Message: 'The pagination token is invalid.' }];
    }
    const end = Math.min(start + max, selected.length);
    // Response syntax: FormatVersion, NextToken, PriceList ("Array of strings", each one product as JSON).
    return [200, {
      FormatVersion: body.FormatVersion ?? 'aws_v1',
      PriceList: selected.slice(start, end).map((x) => JSON.stringify(x)),
      ...(options.neverEnds ? { NextToken: Buffer.from(`page:${max}`).toString('base64url') } : end < selected.length ? { NextToken: Buffer.from(`page:${end}`).toString('base64url') } : {}),
    }];
  }, [400, { __type: 'SerializationException', Message: 'Request body is not JSON' }]);
  return { endpoint: server.endpoint, requests, stop: server.stop };
}
