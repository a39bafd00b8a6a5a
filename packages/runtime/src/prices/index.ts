/** The hosting price table the constructs' cost estimates read. */
export * from './prices';
