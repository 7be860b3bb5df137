import type {
  ApprovalRequestChange,
  CancelOrderRequest,
  ConfirmOrderRequest,
  DeliverOrderRequest,
  OrderChange,
  RefundOrderRequest,
  SandboxOrderRequest,
  ShipOrderRequest,
} from '../api-types.js';
import type { HttpTransport } from '../http-transport.js';
import { type HandshakeInput, toUserReference } from './sessions.js';

/**
 * One line of an order: `productId` (the catalog's `product_id`; the wire name is accepted
 * too, as plain JavaScript copied from the API reference sends it).
 */
type SandboxOrderItemInput =
  | { readonly productId: string; readonly quantity: number }
  | { readonly product_id: string; readonly quantity: number };

/** An order as `create` takes it: who orders (as the handshake names a user), what, and where to (the default location when absent). */
export type SandboxOrderInput = HandshakeInput & {
  readonly items: readonly SandboxOrderItemInput[];
  readonly internalShippingLocationId?: string;
};

const productIdOf = (item: SandboxOrderItemInput): string =>
  'productId' in item && item.productId !== undefined ? item.productId : (item as { product_id: string }).product_id;

/**
 * The shipment's tracking. The sandbox makes up what is left out (a UPS number, its
 * tracking page, delivery in three days). `estimatedDelivery`: ISO 8601 with an offset.
 */
export interface ShipInput {
  readonly trackingNumber?: string;
  readonly carrier?: string;
  /** https. */
  readonly trackingUrl?: string;
  readonly estimatedDelivery?: string;
}

/** `signature`: the name of who signed for it; `Front desk` when left out. */
export interface DeliverInput {
  readonly signature?: string;
}

export interface CancelInput {
  readonly reason?: string;
}

/** `amount`: US dollars; the whole order when absent. */
export interface RefundInput {
  readonly amount?: number;
  readonly reason?: string;
}

type Action = 'confirm' | 'ship' | 'deliver' | 'cancel' | 'refund';

/** What placing a sandbox order did: placed it, or (above the user's order limit) submitted it for approval. */
export type SandboxOrderOutcome = OrderChange | ApprovalRequestChange;

/** Leaves out what the caller did not give, so the body holds only chosen fields. */
const given = <T extends object>(body: T): T =>
  Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as T;

/**
 * The sandbox's order routes (production answers 404): place an order as one of your
 * users would, and move it through its lifecycle, so your CI sees every webhook kind.
 * They change state without an `Idempotency-Key`, so only a 429 (answered before
 * anything happens) is retried: a retry after a lost answer could place a second order.
 */
export class SandboxOrders {
  constructor(private readonly transport: HttpTransport) {}

  /**
   * `{ success, order }` (201) when placed; above the user's `orderLimit`, `{ success,
   * approval_request }` (202): nothing is ordered until an approver approves it (tell them
   * apart with `'order' in result`).
   */
  create(input: SandboxOrderInput): Promise<SandboxOrderOutcome> {
    const body: SandboxOrderRequest = {
      ...toUserReference(input),
      items: input.items.map((item) => ({ product_id: productIdOf(item), quantity: item.quantity })),
      ...(input.internalShippingLocationId === undefined
        ? {}
        : { internal_shipping_location_id: input.internalShippingLocationId }),
    };
    return this.transport.request<SandboxOrderOutcome>({
      method: 'POST',
      path: '/v1/sandbox/orders',
      credential: 'bearer',
      body,
      retryable: 'on-rate-limit',
    });
  }

  confirm(orderId: string): Promise<OrderChange> {
    const body: ConfirmOrderRequest = {};
    return this.transition(orderId, 'confirm', body);
  }

  ship(orderId: string, input: ShipInput = {}): Promise<OrderChange> {
    const body: ShipOrderRequest = {
      tracking_number: input.trackingNumber,
      carrier: input.carrier,
      tracking_url: input.trackingUrl,
      estimated_delivery: input.estimatedDelivery,
    };
    return this.transition(orderId, 'ship', body);
  }

  deliver(orderId: string, input: DeliverInput = {}): Promise<OrderChange> {
    const body: DeliverOrderRequest = given({ signature: input.signature });
    return this.transition(orderId, 'deliver', body);
  }

  cancel(orderId: string, input: CancelInput = {}): Promise<OrderChange> {
    const body: CancelOrderRequest = given({ reason: input.reason });
    return this.transition(orderId, 'cancel', body);
  }

  refund(orderId: string, input: RefundInput = {}): Promise<OrderChange> {
    const body: RefundOrderRequest = given({ amount: input.amount, reason: input.reason });
    return this.transition(orderId, 'refund', body);
  }

  private transition(orderId: string, action: Action, body: object): Promise<OrderChange> {
    return this.transport.request<OrderChange>({
      method: 'POST',
      path: `/v1/sandbox/orders/${encodeURIComponent(orderId)}/${action}`,
      credential: 'bearer',
      body: given(body),
      retryable: 'on-rate-limit',
    });
  }
}
