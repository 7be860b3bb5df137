/**
 * The body of POST /v1/sandbox/orders (docs/orders-api.md): the user who orders, named
 * as the handshake names one (exactly one of `internal_user_id` and `profile_id`, with
 * an optional `internal_org_id`), what they order, and optionally where it goes.
 * Unknown fields are ignored, as in every request body.
 */
// zod/mini: parsed by the orders Lambda at runtime.
import * as z from 'zod/mini';
import { ProductIdInput, type ProductId } from '../catalog/product';
import { ValidationFailed } from '../errors';
import { documented } from '../documented-rules';
import {
  EXACTLY_ONE_USER_IDENTIFIER,
  exactlyOneUserIdentifier,
  type ProfileIdentifier,
  toProfileIdentifier,
  userIdentifierFields,
} from '../sessions/handshake-request';
import { requiredField, requiredText, rule, toValidationIssues } from '../validation';
import { LineQuantity, MAX_CART_LINES } from './cart';
import { OrderNotesInput, type OrderReferences, PoNumberInput } from './order-references';

const OrderLine = z.object({ product_id: ProductIdInput, quantity: LineQuantity }, { error: requiredField });

/** A product named twice would be two lines of one product: the cart merges them, an API call must say what it means. */
const distinctProducts = z.superRefine((items: { product_id: string }[], ctx) => {
  const firstIndex = new Map<string, number>();
  items.forEach((item, index) => {
    const first = firstIndex.get(item.product_id);
    if (first === undefined) firstIndex.set(item.product_id, index);
    else
      ctx.addIssue({
        code: 'custom',
        path: [index, 'product_id'],
        ...rule(
          'DUPLICATE_ID',
          `repeats ${item.product_id} of items[${first}]; give each product once with its whole quantity`,
        ),
      });
  });
});

export const SandboxOrderRequest = documented(
  z
    .object(
      {
        ...userIdentifierFields,
        // "Each product once" compares one field of the items, which JSON Schema cannot say: the description does.
        items: documented(
          z
            .array(OrderLine, { error: requiredField })
            .check(z.minLength(1), z.maxLength(MAX_CART_LINES), distinctProducts),
          {
            description: 'Each `product_id` at most once (`DUPLICATE_ID`).',
          },
        ),
        internal_shipping_location_id: z.optional(requiredText()),
        po_number: PoNumberInput,
        notes: OrderNotesInput,
      },
      { error: requiredField },
    )
    .check(exactlyOneUserIdentifier),
  EXACTLY_ONE_USER_IDENTIFIER,
);

export interface SandboxOrder {
  readonly user: ProfileIdentifier;
  readonly items: readonly { readonly productId: ProductId; readonly quantity: number }[];
  /** The partner's `internalShippingLocationId`; absent means the organization's default. */
  readonly internalShippingLocationId?: string;
  /** `po_number` and `notes`, when given. */
  readonly references: OrderReferences;
}

export function parseSandboxOrderRequest(body: unknown): SandboxOrder {
  const parsed = SandboxOrderRequest.safeParse(body);
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error);
    throw new ValidationFailed(
      issues,
      `The request body is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}; see details)`,
    );
  }
  const { items, internal_shipping_location_id, po_number, notes } = parsed.data;
  return {
    user: toProfileIdentifier(parsed.data),
    items: items.map((item) => ({ productId: item.product_id, quantity: item.quantity })),
    ...(internal_shipping_location_id === undefined
      ? {}
      : { internalShippingLocationId: internal_shipping_location_id }),
    references: {
      ...(po_number === undefined ? {} : { poNumber: po_number }),
      ...(notes === undefined ? {} : { notes }),
    },
  };
}
