import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The ids that tie a log line to one story: the request (our `Request-Id`), the partner,
 * and where known the organization, order, order event and webhook delivery. Every line
 * written inside a correlation scope carries them (`correlatingLogger`), so an operator
 * follows one order from the request that placed it to each delivery attempt.
 */
export interface Correlation {
  readonly requestId?: string;
  readonly partnerId?: string;
  readonly organizationId?: string;
  readonly orderId?: string;
  readonly eventId?: string;
  readonly deliveryId?: string;
  /** The approval request a request submitted or decided (its order, once approved, has `orderId`). */
  readonly approvalRequestId?: string;
  /** What the request did to an order or approval request: `checkout`, `approve`, `confirm`, … (docs/operations.md). */
  readonly action?: string;
  /** Who did it: the user's profile and the partner's id of that user; absent for the partner's or an operator's own changes. */
  readonly profileId?: string;
  readonly internalUserId?: string;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const scope = new AsyncLocalStorage<Mutable<Correlation>>();

const known = (ids: Correlation): Correlation =>
  Object.fromEntries(
    Object.entries(ids).filter(([, value]) => typeof value === 'string' && value !== ''),
  ) as Correlation;

/**
 * Runs `work` in a scope of its own holding the enclosing scope's ids and `ids`. A scope
 * per request, per queue record: concurrent work (the local stack serves many requests in
 * one process, a batch runs its records side by side) never sees another's ids.
 */
export function withCorrelation<T>(ids: Correlation, work: () => T): T {
  return scope.run({ ...scope.getStore(), ...known(ids) }, work);
}

/** Adds ids learnt along the way (the caller's partner, the order just placed) to the current scope; outside one, nothing. */
export function correlate(ids: Correlation): void {
  const current = scope.getStore();
  if (current) Object.assign(current, known(ids));
}

/** Records what the request does and, when a user does it, who: on the request's log line and every later line of it. */
export const correlateAction = (
  action: string,
  user?: { readonly id: string; readonly internalUserId: string },
): void => correlate({ action, ...(user ? { profileId: user.id, internalUserId: user.internalUserId } : {}) });

/** The ids of the current scope (none outside one). */
export const currentCorrelation = (): Correlation => ({ ...scope.getStore() });
