/** An order's status as the module shows it: its label and badge, on the orders list and an order's page. */
import type { VNode } from 'preact';
import { type Cents, formatUsd } from '../../../domain/money';
import { type Order, type OrderStatus, refundedCentsOf } from '../../../domain/orders/order';

const STATUS_LABEL: Readonly<Record<OrderStatus, string>> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

/** A delivered order refunded in part reads "Partially refunded" with the amount (it stays delivered, so it can be refunded again). */
export const statusLabel = (status: OrderStatus, order?: Pick<Order, 'refund' | 'refundedCents'>): string => {
  const refunded = order ? refundedCentsOf(order) : 0;
  return status === 'delivered' && refunded > 0
    ? `Partially refunded (${formatUsd(refunded as Cents)})`
    : STATUS_LABEL[status];
};

export const StatusBadge = ({
  status,
  order,
}: {
  status: OrderStatus;
  order?: Pick<Order, 'refund' | 'refundedCents'>;
}): VNode => (
  <span class={`badge s-${status}`} data-testid="order-status">
    {statusLabel(status, order)}
  </span>
);
