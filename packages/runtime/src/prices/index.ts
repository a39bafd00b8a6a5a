/** The hosting price table the constructs' cost estimates read, from AWS's Price List (bulk files, offer file or Query API). */
export { PRICE_TABLE_FORMAT, SAGEMAKER_OFFER_URL, PriceDataError, pricesFromOfferFile, pricesFromPriceList, pricesFromApi } from './prices';
export type { HostingPriceRow, HostingPriceTable, PriceFilter, PricesFromApiOptions } from './prices';
export { BULK_PRICING_URL, BULK_SERVICE_INDEX_PATH, pricesFromBulk } from './bulk';
export type { PricesFromBulkOptions } from './bulk';
