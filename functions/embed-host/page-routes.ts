import type { EmbedDependencies } from '../composition/embed-dependencies';
import { clearedSessionCookie, readSessionCookie, sessionCookie, timeZoneCookie } from './session-cookie';
import { canonicalTimeZone } from '../domain/time-zones';
import { type EmbedRequest, embedHandler } from './embed-pipeline';
import type { EmbedScriptRoute } from './script-routes';
import { frameCheck } from './frame-check';
import type { HttpLambda } from '../http/http-context';
import { modulePaths } from './module/module-paths';
import { signedOutPage } from './host-pages';
import { changeCartLine, showCart } from './module/cart/actions';
import { showCheckout } from './module/checkout/actions';
import { addToCart, showCatalog, showProduct } from './module/catalog/actions';
import type { PRODUCT_IMAGE_ROUTE } from './product-image-route';
import { assertSameOrigin } from './module/form-token';
import { buyAgain, listOrders, placeOrder, showOrder } from './module/orders/actions';
import { listInvoices } from './module/invoices/actions';
import { downloadSpendingCsv, showSpending } from './module/spending/actions';
import { addToOrderGuide, changeOrderGuide, showOrderGuide } from './module/order-guide/actions';
import {
  approveRequest,
  listApprovals,
  rejectRequest,
  showApproval,
  submitForApproval,
  withdrawRequest,
  resubmitRequest,
} from './module/approvals/actions';
import { html, type HttpResponse, seeOther } from '../http/responses';
import { type FunctionRouteName, routeNameOf } from '../route-names';

/**
 * `GET /embedded/{partnerId}?session_key=…`: redeem the handshake token once, set the
 * session cookie and redirect to the same path without the key (so it never stays in
 * the URL, history or a Referer). A `session_key` always takes precedence over a cookie.
 */
async function openOrShow(request: EmbedRequest<EmbedDependencies>): Promise<HttpResponse> {
  const { event, partnerId, deps } = request;
  const sessionKey = event.queryStringParameters?.session_key;
  if (sessionKey !== undefined) {
    const opened = await deps.embeddedSessions.redeem(partnerId, sessionKey);
    // The embed SDK adds the browser's zone (`tz`); without it (no script, or a bare link) the module falls back.
    const zone = canonicalTimeZone(event.queryStringParameters?.tz ?? '');
    return seeOther(modulePaths(partnerId).home, [
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
}: EmbedRequest<EmbedDependencies>): Promise<HttpResponse> {
  // A forged sign-out is a forged form post: the module's 403 "Request refused" page, the session kept.
  assertSameOrigin(event, deps.config.EMBED_BASE_URL);
  await deps.embeddedSessions.logout(partnerId, readSessionCookie(event));
  return html(200, signedOutPage(frameAncestors), { cookies: [clearedSessionCookie()] });
}

/** Every embed page route's action, by its name in the route table; the type makes a route of the table without one a compile error. */
const ACTIONS: Record<
  Exclude<FunctionRouteName<'embed'>, EmbedScriptRoute | typeof PRODUCT_IMAGE_ROUTE>,
  (request: EmbedRequest<EmbedDependencies>) => Promise<HttpResponse>
> = {
  'module-open': openOrShow,
  'module-logout': logout,
  'module-product': showProduct,
  'module-cart': showCart,
  'module-cart-add': addToCart,
  'module-cart-line': changeCartLine,
  'module-checkout': showCheckout,
  'module-orders': listOrders,
  'module-order-place': placeOrder,
  'module-order': showOrder,
  'module-invoices': listInvoices,
  'module-spending': showSpending,
  'module-spending-csv': downloadSpendingCsv,
  'module-buy-again': buyAgain,
  'module-approval-submit': submitForApproval,
  'module-approvals': listApprovals,
  'module-approval': showApproval,
  'module-approval-approve': approveRequest,
  'module-approval-reject': rejectRequest,
  'module-approval-withdraw': withdrawRequest,
  'module-approval-resubmit': resubmitRequest,
  'module-order-guide': showOrderGuide,
  'module-order-guide-change': changeOrderGuide,
  'module-order-guide-add': addToOrderGuide,
  'frame-check': frameCheck,
};

/** The module's pages and the host's own (sign-in, sign-out, frame check): the embed pipeline, then the route's action. */
export const pageRoutes = (getDependencies: () => Promise<EmbedDependencies>): HttpLambda =>
  embedHandler(getDependencies, (request) => {
    const name = routeNameOf(request.event.routeKey);
    const action =
      name !== undefined && Object.hasOwn(ACTIONS, name) ? ACTIONS[name as keyof typeof ACTIONS] : undefined;
    if (!action) throw new Error(`The embed function has no action for route ${request.event.routeKey}`);
    return action(request);
  });
