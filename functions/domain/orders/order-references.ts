/**
 * The buyer's own references on an order: a purchase-order number (at most 64
 * characters) and notes (at most 500), both optional, single-line text like every text
 * the service stores (no control or bidi-override characters), blank meaning not given.
 * The checkout form and POST /v1/sandbox/orders (`po_number`, `notes`) take them.
 */
// zod/mini: the embed and orders Lambdas parse these at runtime.
import * as z from 'zod/mini';
import { ValidationFailed } from '../errors';
import { optionalText, requiredField, toValidationIssues } from '../validation';

export const MAX_PO_NUMBER_LENGTH = 64;
export const MAX_ORDER_NOTES_LENGTH = 500;

export const PoNumberInput = optionalText(MAX_PO_NUMBER_LENGTH);
export const OrderNotesInput = optionalText(MAX_ORDER_NOTES_LENGTH);

const OrderReferencesInput = z.object({ po_number: PoNumberInput, notes: OrderNotesInput }, { error: requiredField });

export interface OrderReferences {
  readonly poNumber?: string;
  readonly notes?: string;
}

/** The references as given (`undefined` for a field not sent); ValidationFailed names each problem. */
export function parseOrderReferences(input: { po_number?: unknown; notes?: unknown }): OrderReferences {
  const parsed = OrderReferencesInput.safeParse(input);
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error);
    throw new ValidationFailed(issues, issues.map((issue) => issue.message).join('; '));
  }
  return {
    ...(parsed.data.po_number === undefined ? {} : { poNumber: parsed.data.po_number }),
    ...(parsed.data.notes === undefined ? {} : { notes: parsed.data.notes }),
  };
}
