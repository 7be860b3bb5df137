/**
 * `Edit and resubmit`: a rejected or expired request's lines become its requester's cart,
 * marked as resubmitting it, so the next submission of the cart links back to it.
 */
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { Clock } from '../clock';
import { ApprovalNotResubmittable, ConcurrentModification } from '../errors';
import type { CartRepository } from '../orders/cart';
import type { Profile } from '../organizations/organization';
import type { ApprovalRepository } from './approval-repository';
import { type ApprovalRequest, isResubmittableAt } from './approval-request';
import { linesToRestore, type Withdrawal } from './approval-withdrawal';

export type Resubmission =
  { readonly needsConfirmation: true; readonly held: number } | ({ readonly needsConfirmation: false } & Withdrawal);

/**
 * Puts the request's lines in its requester's cart (products no longer sold skipped, each
 * quantity as requested), if the request is the requester's, rejected or expired and not
 * resubmitted yet (ApprovalNotResubmittable otherwise). A cart holding lines is replaced
 * only when `replace` says the user confirmed it (else `needsConfirmation`, nothing
 * changed). A cart changed meanwhile is ConcurrentModification, unless it is already this
 * request's resubmission (a second click): then it is left as it is.
 */
export async function resubmitIntoCart(
  deps: {
    readonly approvals: Pick<ApprovalRepository, 'resubmitIntoCart'>;
    readonly carts: Pick<CartRepository, 'get'>;
    readonly catalog: Pick<CatalogRepository, 'get'>;
    readonly clock: Clock;
  },
  request: ApprovalRequest,
  requester: Profile,
  replace: boolean,
): Promise<Resubmission> {
  if (request.profileId !== requester.id) throw new ApprovalNotResubmittable(request.id, 'not-requester');
  if (request.resubmittedBy !== undefined)
    throw new ApprovalNotResubmittable(request.id, 'already-resubmitted', request.resubmittedBy);
  if (!isResubmittableAt(request, deps.clock.now())) throw new ApprovalNotResubmittable(request.id, 'not-closed');
  const [cart, products] = await Promise.all([
    deps.carts.get(request.profileId),
    deps.catalog.get(request.items.map((item) => item.productId)),
  ]);
  const done = { needsConfirmation: false as const, request, skipped: [] as string[] };
  if (cart.resubmits === request.id) return { ...done, restored: cart.lines.map((line) => line.productId) };
  if (cart.lines.length > 0 && !replace) return { needsConfirmation: true, held: cart.lines.length };
  // The lines as a withdrawal would restore them into an empty cart: quantities kept, capped, inactive skipped.
  const { lines, skipped } = linesToRestore(
    request,
    { profileId: cart.profileId, lines: [] },
    products,
    deps.clock.now(),
  );
  try {
    await deps.approvals.resubmitIntoCart(cart, lines, request.id);
  } catch (error) {
    if (!(error instanceof ConcurrentModification)) throw error;
    // Two clicks at once: the other one put the same lines in; anything else is a real change.
    const now = await deps.carts.get(request.profileId);
    if (now.resubmits !== request.id) throw error;
  }
  return { ...done, restored: lines.map((line) => line.productId), skipped };
}
