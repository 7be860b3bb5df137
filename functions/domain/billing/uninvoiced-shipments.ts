import type { OrderId } from '../orders/order';

/** A shipped order whose invoice is not recorded yet. */
export interface UninvoicedShipment {
  readonly orderId: OrderId;
  /** ISO 8601. */
  readonly shippedAt: string;
}

/**
 * Storage port for the shipped orders awaiting their invoice: a shipment is written with
 * a marker in its own transaction and the invoice's record removes it in its own, so the
 * marker is there exactly while the order shipped and was not invoiced.
 */
export interface UninvoicedShipments {
  /** Those shipped before `cutoff` (ISO 8601), oldest first, at most `limit`. */
  shippedBefore(cutoff: string, limit: number): Promise<UninvoicedShipment[]>;
  /** Removes the marker of an order found invoiced (an invoice recorded by another path); no-op when gone. */
  settle(orderId: OrderId): Promise<void>;
}
