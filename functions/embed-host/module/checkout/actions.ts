import { html, type JsonResponse, seeOther } from '../../../api/pipeline/responses';
import { checkoutPage, emptyCheckoutPage, noShippingLocationPage } from './page';
import { frameWithCart, type ModuleRequest, moduleSession } from '../module-session';

/**
 * `GET /embedded/{partnerId}/checkout[?location=…]`: the cart priced for a shipping
 * location (the one chosen, else the default, else the first active one).
 */
export async function showCheckout(request: ModuleRequest): Promise<JsonResponse> {
  const session = await moduleSession(request);
  const { locations } = session.view;
  const wanted = request.event.queryStringParameters?.location;
  const chosen = locations.find((l) => l.id === wanted) ?? locations.find((l) => l.isDefault) ?? locations[0];
  const cart = await request.deps.cartService.view(session.view.profile.id, chosen?.address.province);
  const frame = await frameWithCart(request.deps, session, cart);
  if (cart.lines.length === 0) return html(200, emptyCheckoutPage(frame));
  if (cart.unavailable.length > 0) return seeOther(session.paths.cart);
  if (!chosen) return html(200, noShippingLocationPage(frame));
  return html(200, checkoutPage(frame, { cart, locations, chosen }));
}
