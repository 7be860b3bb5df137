/**
 * The requests the HTTP benchmarks send, the same for the service and its baseline. Each
 * call of `next()` takes the next partner in turn, so the per-partner rate limits (100
 * setups, 300 handshakes a minute) spread over the whole pool and never answer 429.
 */
import { randomUUID } from 'node:crypto';
import type { BenchOrganization, BenchPartner } from './bench-stack';
import { MAIN_LOCATION, userFields } from './bench-stack';

export interface BenchRequest {
  readonly method: 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export type EndpointName = 'handshake' | 'setup, existing org' | 'setup, new org';

export interface Workload {
  readonly endpoint: EndpointName;
  next(): BenchRequest;
}

export const HANDSHAKE_PATH = '/v1/partner/handshake';
export const SETUP_PATH = '/v1/organizations/setup';

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
