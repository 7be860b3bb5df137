import { type EmbedDependencies, embedFromEnvironment } from '../composition/embed-dependencies';
import { pageRoutes } from '../embed-host/page-routes';
import { PRODUCT_IMAGE_ROUTE, productImageHandler } from '../embed-host/product-image-route';
import { embedScriptHandler, isEmbedScriptRoute } from '../embed-host/script-routes';
import type { HttpLambda } from '../http/http-context';
import { routeNameOf } from '../route-names';

/**
 * The embed Lambda: the module's pages, the host's sign-in and sign-out, its scripts and the
 * product pictures. The scripts and pictures have no partner and are cached by browsers, so
 * they skip the pages' pipeline (CSP, no-store, HTML errors).
 */
export const createEmbedHandler = (getDependencies: () => Promise<EmbedDependencies>): HttpLambda => {
  const scripts = embedScriptHandler(getDependencies);
  const pictures = productImageHandler(getDependencies);
  const pages = pageRoutes(getDependencies);
  return (event, context) => {
    const name = routeNameOf(event.routeKey);
    if (isEmbedScriptRoute(name)) return scripts(event, context);
    if (name === PRODUCT_IMAGE_ROUTE) return pictures(event, context);
    return pages(event, context);
  };
};

export const handler = createEmbedHandler(embedFromEnvironment);
