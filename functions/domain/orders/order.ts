import * as z from 'zod/mini';
import type { UsStateName } from '../addresses/us-states';
import type { ProductId } from '../catalog/product';
import type { Cents } from '../money';
import type {
  Organization,
  OrganizationId,
  Profile,
  ProfileId,
  ShippingLocationId,
} from '../organizations/organization';
import type { Partner, PartnerId } from '../partners/partner';
import type { SpendMonth } from '../spending/monthly-spend';
import type { OrderPricing, OrderSalesTax } from './order-pricing';
import type { OrderReferences } from './order-references';

export type OrderId = string & { readonly __brand: 'OrderId' };

export const ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

/** Orders are billed to the organization; the only method the module offers. */
export const PAYMENT_METHOD = 'invoice';

/** A product as it was ordered: later catalog changes never alter an order. */
export interface OrderItem {
  readonly productId: ProductId;
  readonly name: string;
  readonly unit: string;
  readonly unitPriceCents: Cents;
  readonly quantity: number;
}

/** Who approved an order placed from an approval request: the approver's profile, the partner's id of the user, its e-mail and name. */
export interface OrderApprover {
  readonly profileId: ProfileId;
  readonly internalUserId: string;
  readonly email: string;
  readonly name: string;
}

/** Where the order goes, copied from the shipping location when the order was placed. */
export interface ShippingAddressSnapshot {
  readonly locationId: ShippingLocationId;
  readonly locationName: string;
  readonly line1: string;
  readonly line2?: string;
  readonly city: string;
  readonly state: UsStateName;
  readonly zip: string;
}

interface Shipment {
  readonly trackingNumber: string;
  readonly carrier: string;
  /** Always https. */
  readonly trackingUrl: string;
  /** ISO 8601. */
  readonly estimatedDelivery: string;
}

/**
 * One entry of an order's history: the status it reached, when, the order's `sequence`
 * after the change, and what the change carried. The history is append-only and starts
 * with `pending` at sequence 1.
 */
export type OrderChange =
  | { readonly status: 'pending'; readonly sequence: number; readonly at: string }
  | { readonly status: 'confirmed'; readonly sequence: number; readonly at: string }
  | ({ readonly status: 'shipped'; readonly sequence: number; readonly at: string } & Shipment)
  | { readonly status: 'delivered'; readonly sequence: number; readonly at: string; readonly signature: string }
  | { readonly status: 'cancelled'; readonly sequence: number; readonly at: string; readonly reason?: string }
  | {
      /**
       * A refund. Partial refunds leave the order `delivered`: the order becomes
       * `refunded` with the refund that brings `refundedTotalCents` to its total.
       */
      readonly status: 'refunded';
      readonly sequence: number;
      readonly at: string;
      /** This refund: at most what was left to refund. */
      readonly amountCents: Cents;
      /** Every refund so far, this one included (absent on refunds stored before partial refunds: `amountCents`). */
      readonly refundedTotalCents?: Cents;
      readonly reason?: string;
    };

export type OrderChangeOf<S extends OrderStatus> = Extract<OrderChange, { status: S }>;

/**
 * An order: a snapshot of what was bought, by whom, for where, at which prices, and its
 * lifecycle so far. The fields per status (`shipment`, `delivery`, ...) are set by the
 * change that reached that status and kept afterwards (a refunded order still shows its
 * delivery).
 */
export interface Order {
  readonly id: OrderId;
  readonly partnerId: PartnerId;
  readonly organizationId: OrganizationId;
  /** The partner's identifier of the organization: webhooks call it `partner_org_id`. */
  readonly internalOrgId: string;
  /** Who placed it: the profile, the partner's id of its user (e-mails need not be unique), its e-mail. */
  readonly profileId: ProfileId;
  readonly internalUserId: string;
  readonly userEmail: string;
  /** The buyer's purchase-order number, when given at checkout (at most 64 characters). */
  readonly poNumber?: string;
  /** The buyer's notes, when given at checkout (at most 500 characters). */
  readonly notes?: string;
  /** Set on an order placed by approving an approval request (`profileId` is then the requester's): who approved it. */
  readonly approvedBy?: OrderApprover;
  /** The approval request it was placed from, with `approvedBy`. */
  readonly approvalRequestId?: string;
  /** The approver's comment for the buyer, when they gave one. */
  readonly approvalComment?: string;
  /**
   * The calendar month (the organization's zone when it was placed) its user's monthly
   * counter holds it in: a cancellation or refund gives back to that month. Absent on
   * orders placed before it was recorded.
   */
  readonly spendMonth?: SpendMonth;
  readonly items: readonly OrderItem[];
  readonly shippingAddress: ShippingAddressSnapshot;
  readonly subtotalCents: Cents;
  readonly taxCents: Cents;
  readonly shippingCents: Cents;
  /** Exactly subtotal + tax + shipping. */
  readonly totalCents: Cents;
  /** The Stripe Tax calculation `taxCents` came from (absent on orders placed before Stripe Tax). */
  readonly salesTax?: OrderSalesTax;
  readonly paymentMethod: typeof PAYMENT_METHOD;
  readonly status: OrderStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** 1 at creation, +1 per change: the optimistic-concurrency version and the history's length. */
  readonly sequence: number;
  readonly statusHistory: readonly OrderChange[];
  readonly confirmedAt?: string;
  readonly shipment?: Shipment & { readonly shippedAt: string };
  readonly delivery?: { readonly deliveredAt: string; readonly signature: string };
  readonly cancellation?: { readonly cancelledAt: string; readonly reason?: string };
  /** The latest refund. */
  readonly refund?: { readonly refundedAt: string; readonly amountCents: Cents; readonly reason?: string };
  /** Every refund so far, at most the total (absent on orders refunded before partial refunds: `refund.amountCents`). */
  readonly refundedCents?: Cents;
}

/** What was refunded of the order so far, in cents. */
export const refundedCentsOf = (order: Pick<Order, 'refund' | 'refundedCents'>): Cents =>
  order.refundedCents ?? order.refund?.amountCents ?? (0 as Cents);

/** A refund change is partial when the order was not fully refunded by it. */
export const refundedTotalOf = (change: OrderChangeOf<'refunded'>): Cents =>
  change.refundedTotalCents ?? change.amountCents;

/** A new order, pending at sequence 1: how every order is made, placed at checkout or approved. */
export function newOrder(input: {
  readonly id: OrderId;
  readonly partnerId: Partner['id'];
  readonly organization: Pick<Organization, 'id' | 'internalOrgId'>;
  /** Who placed it: the buyer, or the requester of an approved request. */
  readonly profile: Pick<Profile, 'id' | 'internalUserId' | 'email'>;
  readonly references?: OrderReferences;
  readonly items: readonly OrderItem[];
  readonly shippingAddress: ShippingAddressSnapshot;
  readonly pricing: OrderPricing;
  readonly at: string;
  /** The month its user's counter holds it in. */
  readonly spendMonth: SpendMonth;
  readonly approval?: { readonly requestId: string; readonly approvedBy: OrderApprover; readonly comment?: string };
}): Order {
  const { at } = input;
  return {
    id: input.id,
    partnerId: input.partnerId,
    organizationId: input.organization.id,
    internalOrgId: input.organization.internalOrgId,
    profileId: input.profile.id,
    internalUserId: input.profile.internalUserId,
    userEmail: input.profile.email,
    ...(input.references?.poNumber === undefined ? {} : { poNumber: input.references.poNumber }),
    ...(input.references?.notes === undefined ? {} : { notes: input.references.notes }),
    ...(input.approval
      ? {
          approvedBy: input.approval.approvedBy,
          approvalRequestId: input.approval.requestId,
          ...(input.approval.comment === undefined ? {} : { approvalComment: input.approval.comment }),
        }
      : {}),
    spendMonth: input.spendMonth,
    items: input.items,
    shippingAddress: input.shippingAddress,
    subtotalCents: input.pricing.subtotalCents,
    taxCents: input.pricing.taxCents,
    shippingCents: input.pricing.shippingCents,
    totalCents: input.pricing.totalCents,
    ...(input.pricing.salesTax ? { salesTax: input.pricing.salesTax } : {}),
    paymentMethod: PAYMENT_METHOD,
    status: 'pending',
    createdAt: at,
    updatedAt: at,
    sequence: 1,
    statusHistory: [{ status: 'pending', sequence: 1, at }],
  };
}
