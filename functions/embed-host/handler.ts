import { type EmbedDependencies, embedFromEnvironment } from '../composition/embed';
import { embeddedModulePath } from '../domain/sessions/iframe-embed-url';
import { clearedSessionCookie, readSessionCookie, sessionCookie, timeZoneCookie } from './session-cookie';
import { canonicalTimeZone } from '../domain/time-zones';
import { type EmbedRequest, embedHandler } from './embed-pipeline';
import { type EmbedScriptRoute, embedScriptHandler, isEmbedScriptRoute } from './script-routes';
import { frameCheck } from './frame-check';
import type { HttpLambda } from '../api/pipeline/api-context';
import { signedOutPage } from './host-pages';
import { changeCartLine, showCart } from './module/cart/actions';
import { showCheckout } from './module/checkout/actions';
import { addToCart, showCatalog, showProduct } from './module/catalog/actions';
import { PRODUCT_IMAGE_ROUTE, productImageHandler } from './product-image-route';
import { assertSameOrigin } from './module/form-token';
import { buyAgain, listOrders, placeOrder, showOrder } from './module/orders/actions';
import { addToOrderGuide, changeOrderGuide, showOrderGuide } from './module/order-guide/actions';
import {
  approveRequest,
  listApprovals,
  rejectRequest,
  showApproval,
  submitForApproval,
  withdrawRequest,
} from './module/approvals/actions';
import { html, type JsonResponse, seeOther } from '../api/pipeline/responses';
import type { FunctionRouteKey } from '../routes';

/**
 * `GET /embedded/{partnerId}?session_key=…`: redeem the handshake token once, set the
 * session cookie and redirect to the same path without the key (so it never stays in
 * the URL, history or a Referer). A `session_key` always takes precedence over a cookie.
 */
async function openOrShow(request: EmbedRequest<EmbedDependencies>): Promise<JsonResponse> {
  const { event, partnerId, deps } = request;
  const sessionKey = event.queryStringParameters?.session_key;
  if (sessionKey !== undefined) {
    const opened = await deps.embeddedSessions.redeem(partnerId, sessionKey);
    // The embed SDK adds the browser's zone (`tz`); without it (no script, or a bare link) the module falls back.
    const zone = canonicalTimeZone(event.queryStringParameters?.tz ?? '');
    return seeOther(embeddedModulePath(partnerId), [
      sessionCookie(opened.cookieValue),
      ...(zone ? [timeZoneCookie(zone)] : []),
    ]);
  }
  return showCatalog(request);
}

/**
 * `POST /embedded/{partnerId}/logout`, from the module's own sign-out form only: a
 * cross-site form could otherwise sign the user out (the cookie is SameSite=None).
 */
async function logout({
  event,
  partnerId,
  deps,
  frameAncestors,
}: EmbedRequest<EmbedDependencies>): Promise<JsonResponse> {
  // A forged sign-out is a forged form post: the module's 403 "Request refused" page, the session kept.
  assertSameOrigin(event, deps.config.EMBED_BASE_URL);
  await deps.embeddedSessions.logout(partnerId, readSessionCookie(event));
  return html(200, signedOutPage(frameAncestors), { cookies: [clearedSessionCookie()] });
}

/** Every embed route's action, by API Gateway's route key; the type makes a route of the table without one a compile error. */
const ACTIONS: Record<
  Exclude<FunctionRouteKey<'embed'>, EmbedScriptRoute | typeof PRODUCT_IMAGE_ROUTE>,
  (request: EmbedRequest<EmbedDependencies>) => Promise<JsonResponse>
> = {
  'GET /embedded/{partnerId}': openOrShow,
  'POST /embedded/{partnerId}/logout': logout,
  'GET /embedded/{partnerId}/products/{productId}': showProduct,
  'GET /embedded/{partnerId}/cart': showCart,
  'POST /embedded/{partnerId}/cart/items': addToCart,
  'POST /embedded/{partnerId}/cart/items/{productId}': changeCartLine,
  'GET /embedded/{partnerId}/checkout': showCheckout,
  'GET /embedded/{partnerId}/orders': listOrders,
  'POST /embedded/{partnerId}/orders': placeOrder,
  'GET /embedded/{partnerId}/orders/{orderId}': showOrder,
  'POST /embedded/{partnerId}/orders/{orderId}/buy-again': buyAgain,
  'POST /embedded/{partnerId}/approvals': submitForApproval,
  'GET /embedded/{partnerId}/approvals': listApprovals,
  'GET /embedded/{partnerId}/approvals/{requestId}': showApproval,
  'POST /embedded/{partnerId}/approvals/{requestId}/approve': approveRequest,
  'POST /embedded/{partnerId}/approvals/{requestId}/reject': rejectRequest,
  'POST /embedded/{partnerId}/approvals/{requestId}/withdraw': withdrawRequest,
  'GET /embedded/{partnerId}/order-guide': showOrderGuide,
  'POST /embedded/{partnerId}/order-guide': changeOrderGuide,
  'POST /embedded/{partnerId}/order-guide/items': addToOrderGuide,
  'GET /embedded/{partnerId}/frame-check': frameCheck,
};

/** The scripts and pictures have no partner and are cached by browsers, so they skip the pages' pipeline (CSP, no-store, HTML errors). */
export const createEmbedHandler = (getDependencies: () => Promise<EmbedDependencies>): HttpLambda => {
  const scripts = embedScriptHandler(getDependencies);
  const pictures = productImageHandler(getDependencies);
  const pages = embedHandler(getDependencies, (request) => {
    const action = ACTIONS[request.event.routeKey as keyof typeof ACTIONS] as
      (typeof ACTIONS)[keyof typeof ACTIONS] | undefined;
    if (!action) throw new Error(`The embed function has no action for route ${request.event.routeKey}`);
    return action(request);
  });
  return (event, context) => {
    if (isEmbedScriptRoute(event.routeKey)) return scripts(event, context);
    if (event.routeKey === PRODUCT_IMAGE_ROUTE) return pictures(event, context);
    return pages(event, context);
  };
};

export const handler = createEmbedHandler(embedFromEnvironment);
