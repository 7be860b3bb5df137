/**
 * What a page of an organization's orders asks of gsi1: the creation range as a key
 * condition, where the page starts within it, and the status, PO number and user as a filter.
 */
import type { OrderPageRequest } from '../../domain/orders/order-repository';

export interface CreatedRange {
  /** Appended to the key condition: '' or ` AND gsi1sk …`. */
  readonly condition: string;
  readonly values: Record<string, string>;
}

/**
 * The creation range as a condition on gsi1's sort key (`<createdAt>#<id>`): an order
 * created at exactly `createdGte` sorts after it (in), one at exactly `createdLt` after
 * it too (out, since the bound is inclusive only of the bare instant).
 */
export function createdRange(page: Pick<OrderPageRequest, 'createdGte' | 'createdLt'>): CreatedRange {
  const { createdGte: gte, createdLt: lt } = page;
  if (gte !== undefined && lt !== undefined)
    return { condition: ' AND gsi1sk BETWEEN :gte AND :lt', values: { ':gte': gte, ':lt': lt } };
  if (gte !== undefined) return { condition: ' AND gsi1sk >= :gte', values: { ':gte': gte } };
  if (lt !== undefined) return { condition: ' AND gsi1sk < :lt', values: { ':lt': lt } };
  return { condition: '', values: {} };
}

/**
 * Where a newest-first page starts within the creation range: DynamoDB refuses a start
 * key outside the key condition, so a cursor newer than the range starts at the range's
 * newest order, and one older than the range leaves nothing to list.
 */
export function startWithin(
  range: CreatedRange,
  startKey: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined | 'past-the-range' {
  const at = typeof startKey?.gsi1sk === 'string' ? startKey.gsi1sk : undefined;
  if (at === undefined) return startKey;
  const { ':gte': gte, ':lt': lt } = range.values;
  if (gte !== undefined && at < gte) return 'past-the-range';
  if (lt !== undefined && at >= lt) return undefined;
  return startKey;
}

export interface OrderFilter {
  readonly expression: string;
  readonly names: Record<string, string>;
  readonly values: Record<string, string>;
}

/** The page's status, PO number and user as one filter on the stored order, or undefined when none is asked. */
export function filterOf(
  page: Pick<OrderPageRequest, 'status' | 'poNumber' | 'internalUserId'>,
): OrderFilter | undefined {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  if (page.status !== undefined) {
    parts.push('#order.#status = :status');
    names['#status'] = 'status';
    values[':status'] = page.status;
  }
  if (page.poNumber !== undefined) {
    parts.push('#order.poNumber = :poNumber');
    values[':poNumber'] = page.poNumber;
  }
  if (page.internalUserId !== undefined) {
    parts.push('#order.internalUserId = :internalUserId');
    values[':internalUserId'] = page.internalUserId;
  }
  return parts.length ? { expression: parts.join(' AND '), names, values } : undefined;
}
