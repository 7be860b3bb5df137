import { ValidationFailed } from '../../../domain/errors';
import { ORDER_STATUSES, OrderStatus } from '../../../domain/orders/order';
import { organizationTimeZone } from '../../../domain/spending/monthly-spend';
import { parseOrderSearch } from '../../../domain/orders/order-search';
import { html, type HttpResponse, seeOther } from '../../../http/responses';
import { orderPage } from './order-page';
import { ordersPage } from './page';
import { RECENT_REQUESTS_MS } from '../approvals/actions';
import { picturesOf } from '../parts/product-picture';
import { checkoutPost } from '../checkout/actions';
import { type ModuleRequest, moduleFrame, moduleSession, verifiedFormPost } from '../module-session';

const ORDERS_PER_PAGE = 20;

/**
 * `POST /embedded/{partnerId}/orders` (`location`): places the cart as an order for the
 * session's organization, then shows it as placed. A second submit of the same cart
 * finds it consumed (ConcurrentModification or EmptyCart): one order, and a page saying so.
 */
export const placeOrder = (request: ModuleRequest): Promise<HttpResponse> =>
  checkoutPost(request, async (input, session) => {
    const order = await request.deps.orderService.placeOrder(input);
    return seeOther(`${session.paths.order(order.id)}?placed=1`);
  });

/**
 * `GET /embedded/{partnerId}/orders[?status=…&q=…&from=…&to=…&after=…]`: the
 * organization's orders, newest first, optionally of one status (blank means all;
 * anything else is the 400 page), created within days `from`-`to` of the organization's
 * zone, and matching the search text `q` (a short order id, PO number or product name,
 * any case; read as a bounded search, not paged). Its first, unfiltered page also lists
 * the user's own approval requests of the last 30 days.
 */
export async function listOrders(request: ModuleRequest): Promise<HttpResponse> {
  const session = await moduleSession(request);
  const query = request.event.queryStringParameters ?? {};
  const cursor = query.after;
  const status = statusFilter(query.status);
  const { view } = session;
  const search = parseOrderSearch(query, organizationTimeZone(view));
  const range = {
    ...(search.createdGte === undefined ? {} : { createdGte: search.createdGte }),
    ...(search.createdLt === undefined ? {} : { createdLt: search.createdLt }),
  };
  const searching = search.text !== undefined || search.createdGte !== undefined || search.createdLt !== undefined;
  const now = request.deps.clock.now();
  const withRequests = !cursor && !status && !searching;
  const [frame, page, requests] = await Promise.all([
    moduleFrame(request.deps, session),
    search.text === undefined
      ? request.deps.orderService.listForOrganization(view.organization, session.scope, {
          limit: ORDERS_PER_PAGE,
          ...(cursor ? { cursor } : {}),
          ...(status ? { status } : {}),
          ...range,
        })
      : request.deps.orderService
          .searchOrganization(view.organization, session.scope, search.text, {
            ...(status ? { status } : {}),
            ...range,
          })
          .then((found) => ({ orders: found.orders, complete: found.complete })),
    withRequests
      ? request.deps.approvalService.listForOrganization(session.view.organization, {
          profileId: session.view.profile.id,
          since: new Date(now.getTime() - RECENT_REQUESTS_MS).toISOString(),
          limit: 20,
        })
      : Promise.resolve({ requests: [] }),
  ]);
  return html(
    200,
    ordersPage(frame, {
      orders: page.orders,
      requests: { list: requests.requests, now },
      ...(status ? { status } : {}),
      ...(searching ? { search: { q: query.q, from: query.from, to: query.to } } : {}),
      ...('complete' in page ? { searchComplete: page.complete } : {}),
      ...('nextCursor' in page && page.nextCursor
        ? {
            olderHref: session.paths.orderList({
              status,
              after: page.nextCursor,
              from: query.from || undefined,
              to: query.to || undefined,
            }),
          }
        : {}),
    }),
  );
}

function statusFilter(value: string | undefined): OrderStatus | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = OrderStatus.safeParse(value);
  if (!parsed.success) {
    throw new ValidationFailed([
      {
        code: 'INVALID_VALUE',
        message: `Choose a status from the list (${ORDER_STATUSES.join(', ')})`,
        path: ['status'],
      },
    ]);
  }
  return parsed.data;
}

/**
 * `POST /embedded/{partnerId}/orders/{orderId}/buy-again`: every line of one of the
 * organization's orders into the user's cart at today's prices (added to what the cart
 * holds, at most 999 a line), skipping products no longer sold; then the cart, saying
 * how many were added and which were skipped.
 */
export async function buyAgain(request: ModuleRequest): Promise<HttpResponse> {
  const { session } = await verifiedFormPost(request);
  const order = await request.deps.orderService.get(request.event.pathParameters?.orderId ?? '', session.scope);
  const result = await request.deps.cartService.addLines(
    session.view.profile.id,
    order.items.map((item) => ({ productId: item.productId, quantity: item.quantity })),
  );
  return seeOther(session.paths.cartAfterAdding(result.added.length, result.skipped));
}

/** `GET /embedded/{partnerId}/orders/{orderId}[?placed=1]`: one order of the organization (else the not-found page). */
export async function showOrder(request: ModuleRequest): Promise<HttpResponse> {
  const session = await moduleSession(request);
  const [frame, order] = await Promise.all([
    moduleFrame(request.deps, session),
    request.deps.orderService.get(request.event.pathParameters?.orderId ?? '', session.scope),
  ]);
  // Only a shipped order is invoiced: before that there is no invoice to read.
  const [pictures, invoice] = await Promise.all([
    picturesOf(request.deps.catalog, order.items),
    order.shipment ? request.deps.invoices.forOrder(order.id) : Promise.resolve(undefined),
  ]);
  return html(200, orderPage(frame, order, request.event.queryStringParameters?.placed === '1', pictures, invoice));
}
