/**
 * On-demand prices the cost model assumes (us-east-1, USD, list prices without free tier
 * or savings plans). docs/performance.md states where they come from; change them here.
 */
import type { CapacityCount } from './capacity';

export const PRICES = {
  region: 'us-east-1',
  /** DynamoDB on-demand, Standard table class, per million read / write request units. */
  dynamoReadPerMillionUnits: 0.125,
  dynamoWritePerMillionUnits: 0.625,
  /** SQS standard queues, per million requests (each up to 64 KB). */
  sqsPerMillionRequests: 0.4,
} as const;

/** DynamoDB dollars per million requests that each consume `capacity`. */
export const dynamoDollarsPerMillion = (capacity: CapacityCount): number =>
  capacity.read * PRICES.dynamoReadPerMillionUnits + capacity.write * PRICES.dynamoWritePerMillionUnits;
