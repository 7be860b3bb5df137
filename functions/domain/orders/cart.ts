// zod/mini: the module parses quantities from its forms on every cart change.
import * as z from 'zod/mini';
import type { ProductId } from '../catalog/product';
import type { ProfileId } from '../organizations/organization';
import { requiredField } from '../validation';

/** Per line: at least 1 (0 in a change means remove), at most 999 (a practice orders gloves by the case, not the box). */
export const MAX_LINE_QUANTITY = 999;
/** Distinct products in one cart. */
export const MAX_CART_LINES = 50;

export const LineQuantity = z.number({ error: requiredField }).check(z.int(), z.gte(1), z.lte(MAX_LINE_QUANTITY));
/** A quantity change: 0 removes the line. */
export const QuantityChange = z.number({ error: requiredField }).check(z.int(), z.gte(0), z.lte(MAX_LINE_QUANTITY));

export interface CartLine {
  readonly productId: ProductId;
  readonly quantity: number;
  /** When the product was first put in the cart: lines are listed in this order. */
  readonly addedAt: string;
}

/** A profile's cart: products and quantities only; prices are always the catalog's current ones. */
export interface Cart {
  readonly profileId: ProfileId;
  readonly lines: readonly CartLine[];
  /**
   * The rejected or expired approval request whose lines were put here by `Edit and
   * resubmit`: submitting this cart for approval links the new request to it. Consumed with
   * the lines by whichever checkout takes them; gone when the cart is emptied.
   */
  readonly resubmits?: string;
}

/** What an atomic add did: the line's quantity now, or what it would have been when refused. */
export type LineAddition =
  { readonly added: true; readonly quantity: number } | { readonly added: false; readonly wouldBe: number };

/** Storage port for carts, one per profile. */
export interface CartRepository {
  /** The profile's cart; one with no lines when it has none. */
  get(profileId: ProfileId): Promise<Cart>;
  /** Sets the line's quantity, adding the line (at `at`) when absent and keeping `addedAt` when present. */
  setQuantity(profileId: ProfileId, productId: ProductId, quantity: number, at: Date): Promise<void>;
  /**
   * Adds `added` to the line's quantity in one atomic step (the line is created at `at`
   * when absent), unless the line would then hold more than `max`: concurrent adds never
   * overwrite each other.
   */
  addToLine(profileId: ProfileId, productId: ProductId, added: number, max: number, at: Date): Promise<LineAddition>;
  /** Removes the line; nothing happens if it is absent. */
  remove(profileId: ProfileId, productId: ProductId): Promise<void>;
  /** Removes every line and the resubmission marker. */
  clear(profileId: ProfileId): Promise<void>;
}
