/**
 * Responses several order API routes share in the partner API document: an unknown
 * order, and our failure. Each route adds its own; `standard-responses.ts` has the
 * authentication, scope and rate-limit ones.
 */
import { OrderNotFoundBody } from '../pipeline/error-bodies';
import type { ResponseDocument } from '../openapi/route-document';
import { AUTHENTICATED_HEADERS } from '../openapi/standard-responses';
import { EXAMPLE_ORDER_ID } from './order-examples';

export const orderNotFoundResponse: ResponseDocument = {
  description: 'No order with this id (an id that is not a UUID names none).',
  body: { name: 'OrderNotFoundError', schema: OrderNotFoundBody },
  examples: {
    orderNotFound: {
      summary: 'Unknown order',
      value: { error: 'Not Found', message: `No order ${EXAMPLE_ORDER_ID}`, code: 'ORDER_NOT_FOUND', details: [] },
    },
  },
  headers: AUTHENTICATED_HEADERS,
};
