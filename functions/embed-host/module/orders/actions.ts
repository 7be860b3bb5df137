import { parseOrderReferences } from '../../../domain/orders/order-references';
import { html, type JsonResponse, seeOther } from '../../../api/pipeline/responses';
import { orderPage, ordersPage } from './page';
import { type ModuleRequest, moduleFrame, moduleSession, verifiedFormPost } from '../module-session';

const ORDERS_PER_PAGE = 20;

/**
 * `POST /embedded/{partnerId}/orders` (`location`): places the cart as an order for the
 * session's organization, then shows it as placed. A second submit of the same cart
 * finds it consumed (ConcurrentModification or EmptyCart): one order, and a page saying so.
 */
export async function placeOrder(request: ModuleRequest): Promise<JsonResponse> {
  const { session, form } = await verifiedFormPost(request);
  const { view } = session;
  const location = form.get('location');
  // A textarea's line breaks are the browser's, not the buyer's intent: notes are one line like every stored text.
  const references = parseOrderReferences({ po_number: form.get('po_number'), notes: form.get('notes')?.replace(/\r?\n|\r/g, ' ') });
  const order = await request.deps.orderService.placeOrder({
    partner: { id: request.partnerId },
    profile: view.profile,
    organization: { organization: view.organization, profiles: [view.profile], locations: view.locations },
    ...(location ? { shippingLocationId: location } : {}),
    references,
  });
  return seeOther(`${session.paths.order(order.id)}?placed=1`);
}

/** `GET /embedded/{partnerId}/orders[?after=…]`: the organization's orders, newest first. */
export async function listOrders(request: ModuleRequest): Promise<JsonResponse> {
  const session = await moduleSession(request);
  const cursor = request.event.queryStringParameters?.after;
  const [frame, page] = await Promise.all([
    moduleFrame(request.deps, session),
    request.deps.orderService.listForOrganization(session.view.organization, session.scope, {
      limit: ORDERS_PER_PAGE,
      ...(cursor ? { cursor } : {}),
    }),
  ]);
  return html(
    200,
    ordersPage(frame, {
      orders: page.orders,
      ...(page.nextCursor ? { olderHref: `${session.paths.orders}?after=${encodeURIComponent(page.nextCursor)}` } : {}),
    }),
  );
}

/** `GET /embedded/{partnerId}/orders/{orderId}[?placed=1]`: one order of the organization (else the not-found page). */
export async function showOrder(request: ModuleRequest): Promise<JsonResponse> {
  const session = await moduleSession(request);
  const [frame, order] = await Promise.all([
    moduleFrame(request.deps, session),
    request.deps.orderService.get(request.event.pathParameters?.orderId ?? '', session.scope),
  ]);
  return html(200, orderPage(frame, order, request.event.queryStringParameters?.placed === '1'));
}
