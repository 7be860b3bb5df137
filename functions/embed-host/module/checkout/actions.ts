import type { EmbeddedModuleView } from '../../../domain/sessions/embedded-sessions';
import { html, type HttpResponse, seeOther } from '../../../http/responses';
import {
  checkoutPage,
  emptyCheckoutPage,
  type LocationQuote,
  noShippingLocationPage,
  type OrderReferences,
} from './page';
import {
  frameWithCart,
  type ModuleRequest,
  type ModuleSession,
  moduleSession,
  verifiedFormPost,
} from '../module-session';
import { parseOrderReferences } from '../../../domain/orders/order-references';
import type { PlaceOrderInput } from '../../../domain/orders/order-quote';
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

/** What Place order and Submit for approval both take from checkout's form: the cart, where it goes, its references. */
export type CheckoutInput = Pick<
  PlaceOrderInput,
  'partner' | 'profile' | 'organization' | 'shippingLocationId' | 'references'
>;

/**
 * Checkout's form, as Place order and Submit for approval both post it (`location`, `quoted`, `po_number`,
 * `notes`), handed to `act` as the signed-in user's cart for their organization. When the location selected is not
 * the one the page's totals were `quoted` for (another radio chosen without script), the buyer has not seen what the
 * order costs there: the answer is checkout re-quoted for the selected location, their PO number and notes kept,
 * and `act` is not called.
 */
export async function checkoutPost(
  request: ModuleRequest,
  act: (input: CheckoutInput, session: ModuleSession) => Promise<HttpResponse>,
): Promise<HttpResponse> {
  const { session, form } = await verifiedFormPost(request);
  const location = form.get('location');
  const quoted = form.get('quoted');
  if (location !== undefined && quoted !== undefined && location !== quoted)
    return checkoutFor(request, session, location, {
      poNumber: form.get('po_number') ?? '',
      notes: form.get('notes') ?? '',
    });
  const { view } = session;
  // A textarea's line breaks are the browser's, not the buyer's intent: notes are one line like every stored text.
  const references = parseOrderReferences({
    po_number: form.get('po_number'),
    notes: form.get('notes')?.replace(/\r?\n|\r/g, ' '),
  });
  return act(
    {
      partner: { id: request.partnerId },
      profile: view.profile,
      organization: { organization: view.organization, profiles: [view.profile], locations: view.locations },
      ...(location ? { shippingLocationId: location } : {}),
      references,
    },
    session,
  );
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
