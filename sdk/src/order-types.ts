/**
 * The catalog and order shapes of the partner order API (the procurement module's
 * routes: `GET /v1/catalog/products`, `GET /v1/orders…`, the sandbox order routes).
 * Written by hand from that API's specification until its routes join docs/openapi.json;
 * then these become generated types in api-types.ts like the rest.
 */

/** Every list answers one page: `data` and whether more follow (`starting_after` the last id). */
export interface ListPage<T> {
  data: T[];
  has_more: boolean;
}

export interface Product {
  /** The SKU. */
  product_id: string;
  name: string;
  description: string;
  category: string;
  /** US dollars, two decimals. */
  price: number;
  /** e.g. `box of 100`. */
  unit: string;
}

export type OrderStatus = 'pending' | 'confirmed' | 'shipped' | 'delivered' | 'cancelled' | 'refunded';

export interface OrderItem {
  product_id: string;
  name: string;
  quantity: number;
  price: number;
}

export interface Order {
  id: string;
  status: OrderStatus;
  /** Your `internalOrgId` of the organization that placed it. */
  partner_org_id: string;
  user_email: string;
  items: OrderItem[];
  subtotal: number;
  tax: number;
  shipping: number;
  total: number;
  payment_method: string;
  shipping_address: { line1: string; city: string; state: string; zip: string };
  created_at: string;
  tracking_number?: string;
  carrier?: string;
  tracking_url?: string;
  estimated_delivery?: string;
  /** Status changes so far, once the order has any. */
  history?: unknown[];
  [field: string]: unknown;
}

export interface OrderResponse {
  success: true;
  order: Order;
}

/** Who places a sandbox order: one of your users, as the handshake names them. */
export type OrderPlacer = { internalUserId: string; internalOrgId?: string } | { profileId: string; internalOrgId?: string };

export type SandboxOrderInput = OrderPlacer & {
  items: readonly { productId: string; quantity: number }[];
  /** The organization's default location when absent. */
  internalShippingLocationId?: string;
};

export interface ShipInput {
  trackingNumber?: string;
  carrier?: string;
  trackingUrl?: string;
  estimatedDelivery?: string;
}
