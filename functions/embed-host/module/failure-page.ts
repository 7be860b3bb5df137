import {
  ConcurrentModification,
  EmptyCart,
  Forbidden,
  OrderGuideChanged,
  OrderNotFound,
  ProductUnavailable,
  RequestForgeryRefused,
  ShippingLocationUnavailable,
  ValidationFailed,
} from '../../domain/errors';
import { html, type JsonResponse } from '../../api/pipeline/responses';
import { modulePaths } from './module-paths';
import { problemPage } from './problem-page';

interface Problem {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly links: readonly { href: string; label: string; primary?: boolean }[];
}

/**
 * What the module's user is told when an action fails for a reason of theirs or of the
 * data (never a stack trace, never which check refused a forged request). Undefined for
 * failures that are not the module's: the embed host's own pages answer those.
 */
function problemFor(error: unknown, partnerId: string): Problem | undefined {
  const paths = modulePaths(partnerId);
  const toCart = { href: paths.cart, label: 'Go to cart', primary: true };
  const toOrders = { href: paths.orders, label: 'View orders' };
  if (error instanceof RequestForgeryRefused) {
    return {
      status: 403,
      title: 'Request refused',
      message: 'This action could not be confirmed as coming from this page, so nothing was changed. Reload the page and try again.',
      links: [{ href: paths.home, label: 'Back to the catalog', primary: true }],
    };
  }
  if (error instanceof EmptyCart) {
    return {
      status: 409,
      title: 'Your cart is empty',
      message: 'There was nothing to order. If you just placed an order, you will find it under Orders.',
      links: [{ ...toOrders, primary: true }, { href: paths.home, label: 'Browse supplies' }],
    };
  }
  if (error instanceof ProductUnavailable) {
    return {
      status: 409,
      title: 'Some products are no longer available',
      message: `Not available: ${error.productIds.join(', ')}. Remove them from your cart and try again; nothing was ordered.`,
      links: [toCart],
    };
  }
  if (error instanceof ShippingLocationUnavailable) {
    return {
      status: 409,
      title: 'Choose another shipping address',
      message: 'That shipping location is no longer available for your organization. Nothing was ordered.',
      links: [{ href: paths.checkout, label: 'Back to checkout', primary: true }],
    };
  }
  if (error instanceof ConcurrentModification) {
    return {
      status: 409,
      title: 'Your cart changed while ordering',
      message: 'The order was submitted twice or the cart changed at the same moment. It was placed at most once: check Orders before trying again.',
      links: [{ ...toOrders, primary: true }, toCart],
    };
  }
  if (error instanceof OrderGuideChanged) {
    return {
      status: 409,
      title: 'The order guide changed',
      message: 'Someone in your organization changed or removed this line after you opened the page, so nothing was changed. Check the order guide and try again.',
      links: [{ href: paths.orderGuide, label: 'Back to the order guide', primary: true }],
    };
  }
  if (error instanceof OrderNotFound || error instanceof Forbidden) {
    return { status: 404, title: 'Order not found', message: 'Your organization has no order with this ID.', links: [{ ...toOrders, primary: true }] };
  }
  if (error instanceof ValidationFailed) {
    return {
      status: 400,
      title: 'Please check that',
      message: error.issues.map((issue) => issue.message).join('; ') || error.message,
      links: [toCart],
    };
  }
  return undefined;
}

/** The module's failure as a page, or undefined when it is not a module failure. */
export function moduleFailureResponse(error: unknown, partnerId: string, frameAncestors: readonly string[] = []): JsonResponse | undefined {
  const problem = problemFor(error, partnerId);
  if (!problem) return undefined;
  return html(problem.status, problemPage(problem, modulePaths(partnerId), frameAncestors));
}
