/** Orders, carts, the catalog and the order guide. */
import { DomainError } from './domain-error';

/**
 * The order's status does not allow the change asked for (docs/architecture.md, "Order lifecycle"),
 * e.g. shipping a pending order or cancelling a shipped one. Mapped to 409
 * `INVALID_ORDER_TRANSITION`.
 */
export class InvalidOrderTransition extends DomainError {
  override readonly name = 'InvalidOrderTransition';
  constructor(
    readonly orderId: string,
    /** The order's status when the change was refused. */
    readonly from: string,
    /** The status the change would have led to. */
    readonly to: string,
  ) {
    super(`Order ${orderId} is ${from}; it cannot become ${to}`);
  }
}

/** No order with this id, or one outside the caller's organization (which it is not told about). */
export class OrderNotFound extends DomainError {
  override readonly name = 'OrderNotFound';
  constructor(readonly orderId: string) {
    super(`No order ${orderId}`);
  }
}

/** An order was placed from a cart with nothing in it. */
export class EmptyCart extends DomainError {
  override readonly name = 'EmptyCart';
  constructor() {
    super('The cart is empty');
  }
}

/** Products that are unknown or inactive were added to a cart, or are still in one at checkout. */
export class ProductUnavailable extends DomainError {
  override readonly name = 'ProductUnavailable';
  constructor(readonly productIds: readonly string[]) {
    super(`Not available: ${productIds.join(', ')}`);
  }
}

/** No product with this id on sale: unknown, or inactive (a product page is only for what can be bought). */
export class ProductNotFound extends DomainError {
  override readonly name = 'ProductNotFound';
  constructor(readonly productId: string) {
    super('No such product on sale');
  }
}

/**
 * The shipping location asked for is not an active location of the organization, or none
 * was asked for and the organization has no active default location.
 */
export class ShippingLocationUnavailable extends DomainError {
  override readonly name = 'ShippingLocationUnavailable';
  constructor(readonly shippingLocationId: string | undefined) {
    super(
      shippingLocationId === undefined
        ? 'The organization has no active default shipping location; choose one'
        : `Shipping location ${shippingLocationId} is not an active location of the organization`,
    );
  }
}

/**
 * An order-guide line changed (or was removed) by someone else after the page that
 * asked for this change was shown: nothing was changed, so no one's edit is lost.
 */
export class OrderGuideChanged extends DomainError {
  override readonly name = 'OrderGuideChanged';
  constructor(
    readonly productId: string,
    options?: ErrorOptions,
  ) {
    super(`The order guide line of ${productId} changed meanwhile`, options);
  }
}

/**
 * The sales-tax engine (Stripe Tax) could not answer: the order is not placed, since no
 * order is ever placed with a guessed tax. Mapped to 503 `SALES_TAX_UNAVAILABLE`.
 */
export class SalesTaxUnavailable extends DomainError {
  override readonly name = 'SalesTaxUnavailable';
  constructor(readonly reason: string) {
    super('Sales tax could not be calculated right now; nothing was ordered. Try again in a minute.');
  }
}
