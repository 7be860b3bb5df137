/**
 * The requests the HTTP benchmarks send, the same for the service and its baseline. Each
 * call of `next()` takes the next partner in turn, so the per-partner rate limits (100
 * setups, 300 handshakes, 100 orders placed and 100 moved a minute) spread over the whole
 * pool and never answer 429.
 */
import { randomUUID } from 'node:crypto';
import { EMBED_SESSION_COOKIE } from '../functions/embed-host/session-cookie';
import type { BenchOrganization, BenchPartner } from './bench-stack';
import { MAIN_LOCATION, userFields } from './bench-stack';

export interface BenchRequest {
  readonly method: 'POST' | 'GET';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

type EndpointName =
  'handshake' | 'setup, existing org' | 'setup, new org' | 'place order' | 'move order' | 'module catalog page';

export interface Workload {
  readonly endpoint: EndpointName;
  /** The status every response must have (else it counts as `non-200`). */
  readonly expectStatus: number;
  next(): BenchRequest;
}

/** One endpoint's workloads: the same object for both sides, except where each side consumes items of its own (pending orders). */
export interface SideBySide {
  readonly service: Workload;
  readonly baseline: Workload;
}

export const sameOnBothSides = (workload: Workload): SideBySide => ({ service: workload, baseline: workload });

export const HANDSHAKE_PATH = '/v1/partner/handshake';
export const SETUP_PATH = '/v1/organizations/setup';
export const PLACE_ORDER_PATH = '/v1/sandbox/orders';
/** `POST /v1/sandbox/orders/{id}/confirm`. */
export const CONFIRM_ORDER_PATH = /^\/v1\/sandbox\/orders\/([0-9a-f-]{36})\/confirm$/;
/** `GET /embedded/{partnerId}`, the module's catalog page. */
export const MODULE_PAGE_PATH = /^\/embedded\/([^/?]+)$/;

/** A pending order and the key of the partner that owns it. */
export interface PendingOrder {
  readonly partner: BenchPartner;
  readonly orderId: string;
}

/** A live embedded session (handshake, then redemption) and its partner. */
export interface BenchSession {
  readonly partner: BenchPartner;
  readonly cookieValue: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };

const rotating = <T>(items: readonly T[]) => {
  let index = 0;
  return (): T => items[index++ % items.length] as T;
};

/** A handshake by `profile_id` for one of the organizations' profiles. */
export function handshakeWorkload(organizations: readonly BenchOrganization[]): Workload {
  const nextOrganization = rotating(organizations);
  return {
    endpoint: 'handshake',
    expectStatus: 200,
    next: () => {
      const { partner, profileId } = nextOrganization();
      return {
        method: 'POST',
        path: HANDSHAKE_PATH,
        headers: { ...JSON_TYPE, 'x-api-key': partner.apiKey },
        body: JSON.stringify({ profile_id: profileId }),
      };
    },
  };
}

/** A new user of an existing organization, repeating its one known location (the common path). */
export function setupExistingWorkload(organizations: readonly BenchOrganization[]): Workload {
  const nextOrganization = rotating(organizations);
  const run = randomUUID().slice(0, 6);
  let counter = 0;
  return {
    endpoint: 'setup, existing org',
    expectStatus: 200,
    next: () => {
      const { partner, internalOrgId } = nextOrganization();
      const id = `${run}-${(counter += 1)}`;
      return {
        method: 'POST',
        path: SETUP_PATH,
        headers: { ...JSON_TYPE, authorization: `Bearer ${partner.apiKey}` },
        body: JSON.stringify({
          internalOrgId,
          organizationName: 'Acme Dental',
          internalUserId: `user-${id}`,
          user: userFields(id),
          shippingLocations: [MAIN_LOCATION],
        }),
      };
    },
  };
}

/** A new organization (with a Stripe customer), its first user and its default location. */
export function setupNewWorkload(partners: readonly BenchPartner[]): Workload {
  const nextPartner = rotating(partners);
  const run = randomUUID().slice(0, 6);
  let counter = 0;
  return {
    endpoint: 'setup, new org',
    expectStatus: 200,
    next: () => {
      const partner = nextPartner();
      const id = `${run}-${(counter += 1)}`;
      return {
        method: 'POST',
        path: SETUP_PATH,
        headers: { ...JSON_TYPE, authorization: `Bearer ${partner.apiKey}` },
        body: JSON.stringify({
          internalOrgId: `org-${id}`,
          organizationName: 'Acme Dental',
          internalUserId: `user-${id}`,
          user: userFields(id),
          shippingLocations: [MAIN_LOCATION],
        }),
      };
    },
  };
}

/** Two lines of the seeded catalog, ordered by one of the organizations' profiles (sandbox API, default location). */
export function placeOrderWorkload(
  organizations: readonly BenchOrganization[],
  productIds: readonly [string, string],
): Workload {
  const nextOrganization = rotating(organizations);
  return {
    endpoint: 'place order',
    expectStatus: 201,
    next: () => {
      const { partner, profileId } = nextOrganization();
      return {
        method: 'POST',
        path: PLACE_ORDER_PATH,
        headers: { ...JSON_TYPE, authorization: `Bearer ${partner.apiKey}` },
        body: JSON.stringify({
          profile_id: profileId,
          items: [
            { product_id: productIds[0], quantity: 2 },
            { product_id: productIds[1], quantity: 1 },
          ],
        }),
      };
    },
  };
}

/**
 * Confirms each pending order of `pool` once, in turn. A pool used up starts over, and
 * confirming a confirmed order answers 409, which `non-200` shows: size pools generously.
 */
export function moveOrderWorkload(pool: readonly PendingOrder[]): Workload {
  const nextOrder = rotating(pool);
  return {
    endpoint: 'move order',
    expectStatus: 200,
    next: () => {
      const { partner, orderId } = nextOrder();
      return {
        method: 'POST',
        path: `/v1/sandbox/orders/${orderId}/confirm`,
        headers: { ...JSON_TYPE, authorization: `Bearer ${partner.apiKey}` },
        body: '{}',
      };
    },
  };
}

/** The module's home (the catalog) for one of the live sessions in turn, as its iframe loads it. */
export function moduleCatalogWorkload(sessions: readonly BenchSession[]): Workload {
  const nextSession = rotating(sessions);
  return {
    endpoint: 'module catalog page',
    expectStatus: 200,
    next: () => {
      const { partner, cookieValue } = nextSession();
      return {
        method: 'GET',
        path: `/embedded/${partner.partnerId}`,
        headers: { cookie: `${EMBED_SESSION_COOKIE}=${cookieValue}` },
      };
    },
  };
}
