import { randomUUID } from 'node:crypto';
import type { UsStateName } from '../domain/addresses/us-states';
import { SEED_CATALOG } from '../domain/catalog/seed-catalog';
import type { ProductId } from '../domain/catalog/product';
import { toCents } from '../domain/money';
import type { Order, OrderChange, OrderId, OrderItem, OrderStatus } from '../domain/orders/order';
import { PAYMENT_METHOD } from '../domain/orders/order';
import { orderEventFor } from '../domain/orders/order-event';
import { priceOrder } from '../domain/orders/order-pricing';
import type { OrganizationId, ProfileId, ShippingLocationId } from '../domain/organizations/organization';
import type { PartnerId } from '../domain/partners/partner';
import type { OrderEventKind } from '../domain/events/order-event-kinds';
import type { OrderEventMessage } from '../domain/events/order-event-message';

/** Used when the partner has no organization yet: test events need no real one. */
export const PLACEHOLDER_INTERNAL_ORG_ID = 'test-org';

/** Three lines of the seed catalog, a typical dental-office reorder. */
const SAMPLE_LINES: readonly { readonly productId: string; readonly quantity: number }[] = [
  { productId: 'GLV-NIT-M-100', quantity: 4 },
  { productId: 'MSK-L3-50', quantity: 2 },
  { productId: 'WIP-CAVI-160', quantity: 3 },
];

const SAMPLE_ADDRESS = {
  line1: '1100 Congress Ave',
  line2: 'Suite 200',
  city: 'Austin',
  state: 'Texas' satisfies UsStateName,
  zip: '78701',
} as const;

/**
 * The statuses an order passes through to reach each kind's status, in order, on the
 * lifecycle's shortest path: so `sequence` and `previous_status` are what a real order
 * of that kind would carry (a cancellation from `pending`, a refund after delivery).
 */
const PATH_TO: Readonly<Record<OrderEventKind, readonly OrderStatus[]>> = {
  'order.created': ['pending'],
  'order.confirmed': ['pending', 'confirmed'],
  'order.shipped': ['pending', 'confirmed', 'shipped'],
  'order.delivered': ['pending', 'confirmed', 'shipped', 'delivered'],
  'order.cancelled': ['pending', 'cancelled'],
  'order.refunded': ['pending', 'confirmed', 'shipped', 'delivered', 'refunded'],
};

/** An hour between changes, ending now, so every time in the sample is in the past. */
const HOUR_MS = 60 * 60 * 1000;

export interface SampleOrderEventInput {
  readonly partnerId: PartnerId;
  readonly kind: OrderEventKind;
  /** The partner's own organization, or the placeholder. */
  readonly internalOrgId: string;
  readonly now: Date;
}

/**
 * A realistic event of one kind for `POST /v1/webhooks/test`, built the way real events
 * are: a made-up order of seed catalog products (priced by the module's own pricing,
 * so `total` is exactly `subtotal + tax + shipping`) is walked along its lifecycle and
 * `orderEventFor` makes the event of its last change. The data says `test: true`; the
 * order exists nowhere, so `GET /v1/orders/{order_id}` answers 404 for it.
 */
export function sampleOrderEvent(input: SampleOrderEventInput): OrderEventMessage {
  const path = PATH_TO[input.kind];
  const at = (index: number) => new Date(input.now.getTime() - (path.length - 1 - index) * HOUR_MS).toISOString();
  const items = sampleItems();
  const pricing = priceOrder(items, SAMPLE_ADDRESS.state);
  const history = path.map((status, index) =>
    sampleChange(status, index + 1, at(index), input.now, pricing.totalCents),
  );
  const last = history.at(-1) as OrderChange;
  const order: Order = {
    id: randomUUID() as OrderId,
    partnerId: input.partnerId,
    organizationId: randomUUID() as OrganizationId,
    internalOrgId: input.internalOrgId,
    profileId: randomUUID() as ProfileId,
    internalUserId: 'user-jordan-rivera',
    userEmail: 'jordan.rivera@example.com',
    poNumber: 'PO-2036-0042',
    items,
    shippingAddress: { locationId: randomUUID() as ShippingLocationId, locationName: 'Main office', ...SAMPLE_ADDRESS },
    ...pricing,
    paymentMethod: PAYMENT_METHOD,
    status: last.status,
    createdAt: at(0),
    updatedAt: last.at,
    sequence: last.sequence,
    statusHistory: history,
  };
  const event = orderEventFor(order, last);
  return {
    ...event,
    eventId: `test_${randomUUID()}`,
    timestamp: input.now.toISOString(),
    data: { ...event.data, test: true },
  };
}

function sampleItems(): OrderItem[] {
  return SAMPLE_LINES.map(({ productId, quantity }) => {
    const product = SEED_CATALOG.find((candidate) => candidate.product_id === productId);
    if (!product) throw new RangeError(`${productId} is not in the seed catalog`);
    return {
      productId: productId as ProductId,
      name: product.name,
      unit: product.unit,
      unitPriceCents: toCents(product.price),
      quantity,
    };
  });
}

function sampleChange(status: OrderStatus, sequence: number, at: string, now: Date, totalCents: number): OrderChange {
  switch (status) {
    case 'pending':
    case 'confirmed':
      return { status, sequence, at };
    case 'shipped':
      return {
        status,
        sequence,
        at,
        trackingNumber: '1Z999AA10123456784',
        carrier: 'UPS',
        trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
        estimatedDelivery: new Date(now.getTime() + 3 * 24 * HOUR_MS).toISOString(),
      };
    case 'delivered':
      return { status, sequence, at, signature: 'J. Rivera' };
    case 'cancelled':
      return { status, sequence, at, reason: 'Ordered by mistake' };
    case 'refunded':
      return { status, sequence, at, amountCents: totalCents, reason: 'Damaged in transit' };
  }
}
