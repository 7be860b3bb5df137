import middy from '@middy/core';
import { type HttpContext, type HttpEvent, type HttpResult, filledIn, type HttpLambda } from '../http/http-context';
import { requestContext } from '../http/request-context';
import { requestLog } from '../http/request-log';
import type { EmbedHostDependencies } from './embed-pipeline';
import { contentTypeOf, isProductImageKey, type ProductImageStore } from '../domain/catalog/product-image';
import { checkProductImage } from '../domain/catalog/product-image-check';

/** The pictures' route, by its name in the route table. */
export const PRODUCT_IMAGE_ROUTE = 'product-image';

export interface ProductImageDependencies extends EmbedHostDependencies {
  readonly productImages: Pick<ProductImageStore, 'get'>;
}

/**
 * What every picture response carries. A key names one content forever, so browsers keep
 * it a year without asking again. An SVG opened on its own is a document: its CSP lets it
 * style itself and nothing else (no script, no loads), and `sandbox` with `form-action
 * 'none'` keeps it from scripting, submitting a form or navigating the page even if the
 * check at import missed something. nosniff keeps every picture the type we say. Only our
 * own pages may embed them (CORP).
 */
const PICTURE_HEADERS = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; sandbox",
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

const notFound = (): HttpResult => ({
  statusCode: 404,
  headers: {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'",
  },
  body: 'Not found\n',
});

/**
 * `GET /embedded/assets/products/{imageKey}`: a product picture from the stack's private
 * bucket, served from the embed origin (so the pages' CSP stays `img-src 'self'`). No
 * partner and no session: pictures are the catalog's, the same for everyone.
 */
export function productImageHandler<D extends ProductImageDependencies>(getDependencies: () => Promise<D>): HttpLambda {
  return middy<HttpEvent, HttpResult, Error, HttpContext<D>>()
    .use(requestContext(getDependencies))
    .use(requestLog<D>('embed'))
    .handler(async (event, context) => {
      const key = event.pathParameters?.imageKey ?? '';
      if (!isProductImageKey(key)) return notFound();
      const picture = await filledIn(context.deps, 'deps').productImages.get(key);
      // An SVG is checked again as served: one put in the bucket around the import is not served.
      if (!picture || !(await checkProductImage(picture.bytes)).ok) return notFound();
      return {
        statusCode: 200,
        headers: { 'Content-Type': contentTypeOf(key), ...PICTURE_HEADERS },
        body: Buffer.from(picture.bytes).toString('base64'),
        isBase64Encoded: true,
      };
    });
}
