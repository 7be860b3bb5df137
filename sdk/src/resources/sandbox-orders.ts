import type { HttpTransport } from '../http-transport.js';
import type { OrderResponse, SandboxOrderInput, ShipInput } from '../order-types.js';

type Action = 'confirm' | 'ship' | 'deliver' | 'cancel' | 'refund';

/**
 * The sandbox's order routes (production answers 404): place an order as one of your
 * users would, and move it through its lifecycle, so your CI sees every webhook kind.
 * They change state without an `Idempotency-Key`, so only a 429 (answered before
 * anything happens) is retried: a retry after a lost answer could place a second order.
 */
export class SandboxOrders {
  constructor(private readonly transport: HttpTransport) {}

  create(input: SandboxOrderInput): Promise<OrderResponse> {
    return this.transport.request({
      method: 'POST',
      path: '/v1/sandbox/orders',
      credential: 'bearer',
      body: {
        ...('profileId' in input ? { profile_id: input.profileId } : { internal_user_id: input.internalUserId }),
        ...(input.internalOrgId === undefined ? {} : { internal_org_id: input.internalOrgId }),
        items: input.items.map((item) => ({ product_id: item.productId, quantity: item.quantity })),
        ...(input.internalShippingLocationId === undefined ? {} : { internal_shipping_location_id: input.internalShippingLocationId }),
      },
      retryable: 'on-rate-limit',
    });
  }

  confirm(orderId: string): Promise<OrderResponse> {
    return this.transition(orderId, 'confirm', {});
  }

  ship(orderId: string, input: ShipInput = {}): Promise<OrderResponse> {
    return this.transition(orderId, 'ship', {
      tracking_number: input.trackingNumber,
      carrier: input.carrier,
      tracking_url: input.trackingUrl,
      estimated_delivery: input.estimatedDelivery,
    });
  }

  /** `signature`: the name of who signed for it. */
  deliver(orderId: string, input: { signature?: string } = {}): Promise<OrderResponse> {
    return this.transition(orderId, 'deliver', { signature: input.signature });
  }

  cancel(orderId: string, input: { reason?: string } = {}): Promise<OrderResponse> {
    return this.transition(orderId, 'cancel', { reason: input.reason });
  }

  /** `amount`: US dollars; the whole order when absent. */
  refund(orderId: string, input: { amount?: number } = {}): Promise<OrderResponse> {
    return this.transition(orderId, 'refund', { amount: input.amount });
  }

  private transition(orderId: string, action: Action, body: Record<string, unknown>): Promise<OrderResponse> {
    const given = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    return this.transport.request({
      method: 'POST',
      path: `/v1/sandbox/orders/${encodeURIComponent(orderId)}/${action}`,
      credential: 'bearer',
      body: given,
      retryable: 'on-rate-limit',
    });
  }
}
