import type { EmbeddedModuleView } from '../../../domain/sessions/embedded-sessions';
import { html, type HttpResponse, seeOther } from '../../../http/responses';
import {
  checkoutPage,
  emptyCheckoutPage,
  type LocationQuote,
  noShippingLocationPage,
  type OrderReferences,
} from './page';
import { frameWithCart, type ModuleRequest, type ModuleSession, moduleSession } from '../module-session';
import type { OrderPricing } from '../../../domain/orders/order-pricing';
import type { ShippingLocation } from '../../../domain/organizations/organization';
import { limitPassedBy, type MonthSpend } from '../../../domain/spending/monthly-spend';

/**
 * `GET /embedded/{partnerId}/checkout[?location=…]`: the cart priced for every active shipping location, each with
 * Stripe Tax's tax for its address (one calculation per cart contents and address, remembered for placing the order;
 * when Stripe Tax cannot answer, the module's page says so and nothing can be placed), the totals shown for the one
 * chosen (else the default, else the first).
 */
export async function showCheckout(request: ModuleRequest): Promise<HttpResponse> {
  const session = await moduleSession(request);
  return checkoutFor(request, session, request.event.queryStringParameters?.location);
}

/**
 * Place order and Submit for approval post the location selected and the one the page's totals were `quoted` for.
 * When they differ (another radio chosen without script), the buyer has not seen what the order costs there: the
 * answer is checkout re-quoted for the selected location, their PO number and notes kept, and nothing placed.
 */
export async function requoteIfMoved(
  request: ModuleRequest,
  session: ModuleSession,
  form: ReadonlyMap<string, string>,
): Promise<HttpResponse | undefined> {
  const location = form.get('location');
  const quoted = form.get('quoted');
  if (location === undefined || quoted === undefined || location === quoted) return undefined;
  return checkoutFor(request, session, location, {
    poNumber: form.get('po_number') ?? '',
    notes: form.get('notes') ?? '',
  });
}

async function checkoutFor(
  request: ModuleRequest,
  session: ModuleSession,
  wanted: string | undefined,
  requoted?: OrderReferences,
): Promise<HttpResponse> {
  const { locations, profile } = session.view;
  const chosen = locations.find((l) => l.id === wanted) ?? locations.find((l) => l.isDefault) ?? locations[0];
  const cart = await request.deps.cartService.view(profile.id);
  const frame = await frameWithCart(request.deps, session, cart);
  if (cart.lines.length === 0) return html(200, emptyCheckoutPage(frame));
  if (cart.unavailable.length > 0) return seeOther(session.paths.cart);
  if (!chosen) return html(200, noShippingLocationPage(frame));
  const { view } = session;
  const [month, priced] = await Promise.all([
    request.deps.orderService.monthSpend(profile, view),
    request.deps.orderService.quoteEach(
      {
        partner: { id: request.partnerId },
        profile,
        organization: { organization: view.organization, profiles: [profile], locations: view.locations },
      },
      locations.map((location) => location.id),
    ),
  ]);
  const pricingOf = (location: ShippingLocation): OrderPricing => {
    const pricing = priced[locations.indexOf(location)]?.pricing;
    if (!pricing) throw new RangeError('checkout prices the cart for every location');
    return pricing;
  };
  const quotes = locations.map((location) => quoteOf(session.view, location, pricingOf(location), month));
  const quote = quoteOf(session.view, chosen, pricingOf(chosen), month);
  const references = requoted ? undefined : await resubmittedReferences(request, session, cart.resubmits);
  return html(
    200,
    checkoutPage(frame, {
      cart,
      quotes,
      chosen: quote,
      month,
      ...(requoted ? { requoted } : {}),
      ...(references ? { references } : {}),
    }),
  );
}

/** `Edit and resubmit` changes the lines, not the buyer's references: the request's PO number and notes come back. */
async function resubmittedReferences(
  request: ModuleRequest,
  session: ModuleSession,
  requestId: string | undefined,
): Promise<OrderReferences | undefined> {
  if (requestId === undefined) return undefined;
  const resubmitted = await request.deps.approvalService.get(requestId, {
    partnerId: request.partnerId,
    organizationId: session.view.organization.id,
  });
  return { poNumber: resubmitted.poNumber ?? '', notes: resubmitted.notes ?? '' };
}

function quoteOf(
  view: EmbeddedModuleView,
  location: ShippingLocation,
  pricing: OrderPricing,
  month: MonthSpend,
): LocationQuote {
  // As placing the order weighs them (OrderService.placeOrder), with the month's figures the page shows.
  const limitPassed = limitPassedBy(
    {
      ...(view.profile.orderLimitCents === undefined ? {} : { orderLimitCents: view.profile.orderLimitCents }),
      ...(month.limitCents === undefined ? {} : { monthlyLimitCents: month.limitCents }),
    },
    month.spentCents,
    pricing.totalCents,
  );
  return { location, pricing, needsApproval: limitPassed !== undefined, ...(limitPassed ? { limitPassed } : {}) };
}
