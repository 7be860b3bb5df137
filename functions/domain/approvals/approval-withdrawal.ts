/**
 * What withdrawing a request puts back in its requester's cart.
 */
import type { ProductId, Product } from '../catalog/product';
import { ValidationFailed } from '../errors';
import { type Cart, type CartLine, MAX_CART_LINES, MAX_LINE_QUANTITY } from '../orders/cart';
import type { ApprovalRequest } from './approval-request';

/** What a withdrawal did: the request, and which of its products went back into the cart. */
export interface Withdrawal {
  readonly request: ApprovalRequest;
  readonly restored: readonly string[];
  /** Products no longer sold: not put back. */
  readonly skipped: readonly string[];
}

/**
 * The request's lines added to what the cart holds (at most the line maximum), products no
 * longer sold skipped; a cart that would then hold more than its maximum of products
 * refuses the withdrawal (ValidationFailed).
 */
export function linesToRestore(
  request: ApprovalRequest,
  cart: Cart,
  products: ReadonlyMap<ProductId, Product>,
  now: Date,
): { lines: CartLine[]; skipped: string[] } {
  const lines: CartLine[] = [];
  const skipped: string[] = [];
  request.items.forEach((item, index) => {
    if (!products.get(item.productId)?.active) {
      skipped.push(item.productId);
      return;
    }
    const held = cart.lines.find((line) => line.productId === item.productId);
    lines.push({
      productId: item.productId,
      quantity: Math.min((held?.quantity ?? 0) + item.quantity, MAX_LINE_QUANTITY),
      // A millisecond apart, so returned lines list in the request's order (the cart's order is `addedAt`).
      addedAt: held?.addedAt ?? new Date(now.getTime() + index).toISOString(),
    });
  });
  const newLines = lines.filter((line) => !cart.lines.some((held) => held.productId === line.productId)).length;
  if (newLines > 0 && cart.lines.length + newLines > MAX_CART_LINES) {
    throw new ValidationFailed(
      [
        {
          code: 'TOO_MANY_ITEMS',
          message: `your cart would hold more than ${MAX_CART_LINES} products; remove some from it and withdraw again`,
          path: ['items'],
        },
      ],
      `The cart would hold more than ${MAX_CART_LINES} different products`,
    );
  }
  return { lines, skipped };
}
