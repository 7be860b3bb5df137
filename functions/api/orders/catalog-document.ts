/**
 * GET /v1/catalog/products in the partner API document: the body the handler answers
 * with (`CatalogProductListBody`) and the errors `functions/error-outcomes/` makes for it.
 */
import { CatalogProductListBody } from './catalog-response';
import { apiRoute } from '../../routes';
import type { RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  READ_RETRY,
  internalErrorResponse,
} from '../openapi/standard-responses';

const CATALOG_PRODUCTS_ROUTE_ROW = apiRoute('catalog-products');

export const LIST_CATALOG_PRODUCTS_ROUTE: RouteDocument = {
  operationId: 'listCatalogProducts',
  tag: 'Catalog',
  summary: 'List the products a user can order',
  description: [
    "Every active product of the environment's catalog, in catalog order, on one page (`has_more` is `false`). `product_id` is what a sandbox order's `items[].product_id` names; `price` is in US dollars; `category` is a name people read (the catalog defines the categories); `image_url` is the product's picture on the embed host, at an address that never changes content (cache it as long as you like).",
    '',
    'The catalog changes rarely: cache it rather than asking per page view (the limit is low for that reason). Unknown query parameters are ignored.',
  ].join('\n'),
  responses: {
    200: {
      description: 'The active products.',
      body: { name: 'CatalogProductList', schema: CatalogProductListBody },
      examples: {
        products: {
          summary: 'Two products',
          value: {
            data: [
              {
                product_id: 'GLV-NIT-M-100',
                name: 'Nitrile Exam Gloves, Medium',
                description: 'Powder-free nitrile examination gloves, medium.',
                category: 'Gloves & PPE',
                price: 12.49,
                unit: 'box of 100',
                image_url:
                  'https://embed.example-procurement.com/embedded/assets/products/0c5e3b0b6f3c2d8a4f1e9b7a6d5c4b3a29180f7e6d5c4b3a2918f7e6d5c4b3a2.svg',
              },
              {
                product_id: 'CTN-ROLL-2000',
                name: 'Cotton Rolls #2',
                description: 'Non-sterile cotton rolls, 1.5 inch.',
                category: 'Clinical Disposables',
                price: 8.75,
                unit: 'bag of 2000',
                image_url:
                  'https://embed.example-procurement.com/embedded/assets/products/9a1f4c7e2b8d5a3c6e9f1b4d7a2c5e8f0b3d6a9c2e5f8b1d4a7c0e3f6b9d2a5c.png',
              },
            ],
            has_more: false,
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(CATALOG_PRODUCTS_ROUTE_ROW.scope),
    429: rateLimitedResponse(CATALOG_PRODUCTS_ROUTE_ROW.limitPerMinute),
    500: internalErrorResponse(CATALOG_PRODUCTS_ROUTE_ROW, READ_RETRY),
  },
};
