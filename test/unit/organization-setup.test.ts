import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConcurrentModification } from '../../functions/domain/errors';
import type {
  OrganizationId,
  ProfileId,
  ShippingLocation,
  ShippingLocationId,
} from '../../functions/domain/organizations/organization';
import { IdempotencyGuard } from '../../functions/domain/idempotency/idempotency-guard';
import { OrganizationSetup, type SetupResult } from '../../functions/domain/organizations/organization-setup';
import { SetupRequest } from '../../functions/domain/organizations/setup-request';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type {
  PaymentCustomerDetails,
  PaymentCustomerRequest,
  PaymentProvider,
} from '../../functions/domain/payments/payment-provider';
import { InMemoryIdempotencyStore } from '../support/fakes/in-memory-idempotency-store';
import { InMemoryOrganizationRepository } from '../support/fakes/in-memory-organization-repository';
import { ManualClock, TEST_CLOCK_START } from '../support/manual-clock';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';

const partnerId = randomUUID() as PartnerId;

/** One customer per idempotency key, as Stripe keeps it; the last details win. */
class RecordingPayments implements PaymentProvider {
  readonly requests: PaymentCustomerRequest[] = [];
  async ensureCustomer(request: PaymentCustomerRequest) {
    this.requests.push(request);
    return `cus_${request.idempotencyKey.slice(-8)}`;
  }
  readonly updates: { customerId: string; details: PaymentCustomerDetails }[] = [];
  async updateCustomer(customerId: string, details: PaymentCustomerDetails) {
    this.updates.push({ customerId, details });
  }
}

let organizations: InMemoryOrganizationRepository;
let payments: RecordingPayments;
let backoffs: number[];
let setup: OrganizationSetup;

beforeEach(() => {
  organizations = new InMemoryOrganizationRepository();
  payments = new RecordingPayments();
  backoffs = [];
  setup = new OrganizationSetup({
    organizations,
    payments,
    clock: new ManualClock(),
    stage: 'sandbox',
    maxAttempts: 3,
    backoff: async (attempt) => {
      backoffs.push(attempt);
    },
  });
});

const input = (body: Record<string, unknown>) => SetupRequest.parse(body);

/** The organization a racing setup created first, with its own name and its first user. */
async function winnerCreates(internalOrgId: string) {
  const winner = new OrganizationSetup({
    organizations: new InMemoryOrganizationRepository(),
    payments,
    clock: new ManualClock(),
    stage: 'sandbox',
  });
  const created = await winner.setup(partnerId, input(aSetupRequest().forOrg(internalOrgId, 'Winner Dental').build()));
  organizations.aggregates.set(`${partnerId}#${internalOrgId}`, {
    organization: created.organization,
    profiles: [created.profile],
    locations: created.locations,
  });
}

describe('setup losing a race', () => {
  it('joins the organization a concurrent setup created first, and gives the shared customer the winner’s details back', async () => {
    const body = aSetupRequest().forOrg('org-race', 'Loser Dental').build();
    organizations.beforeWrite = async (write, attempt) => {
      if (write === 'createOrganization' && attempt === 1) await winnerCreates('org-race');
    };

    const result = await setup.setup(partnerId, input(body));

    expect(result).toMatchObject({ isNewOrganization: false, organization: { name: 'Winner Dental' } });
    expect(result.profile.internalUserId).toBe(body.internalUserId);
    expect(backoffs).toEqual([1]);
    const customerDetails = payments.requests.map((request) => request.details.name);
    // Ours went first (before the lost write), the winner's next; then the winner's again, restored by us.
    expect(customerDetails).toEqual(['Loser Dental', 'Winner Dental', 'Winner Dental']);
  });

  it('re-reads and retries when a location appeared meanwhile, adding only what is still new', async () => {
    await winnerCreates('org-locations');
    const body = aSetupRequest()
      .forOrg('org-locations')
      .withLocations(aLocation('dock-1'), aLocation('dock-2'))
      .build();
    organizations.beforeWrite = async (write, attempt) => {
      if (write !== 'addProfile' || attempt !== 1) return;
      const current = await organizations.getOrganization(partnerId, 'org-locations');
      if (!current) throw new Error('arranged organization missing');
      organizations.aggregates.set(`${partnerId}#org-locations`, {
        ...current,
        locations: [...current.locations, aStoredLocation(current.organization.id, 'dock-1')],
      });
    };

    const result = await setup.setup(partnerId, input(body));

    expect(backoffs).toEqual([1]);
    expect(result.locations.map((l) => l.internalShippingLocationId).sort()).toEqual(['dock-1', 'dock-2']);
  });

  it('answers SetupContention after losing every allowed attempt', async () => {
    organizations.beforeWrite = () => {
      throw new ConcurrentModification('another writer, every time');
    };
    await expect(setup.setup(partnerId, input(aSetupRequest().build()))).rejects.toMatchObject({
      name: 'SetupContention',
      message: expect.stringContaining('lost 3 races'),
    });
    expect(backoffs).toEqual([1, 2]);
  });

  it('answers UserAlreadyExists with the existing profile when the same user was added meanwhile', async () => {
    await winnerCreates('org-user');
    const body = aSetupRequest().forOrg('org-user').forUser('user-late').build();
    let existingId: ProfileId | undefined;
    organizations.beforeWrite = async (write) => {
      if (write !== 'addProfile' || existingId) return;
      const racing = await new OrganizationSetup({
        organizations: organizationsWithoutHook(),
        payments,
        clock: new ManualClock(),
        stage: 'sandbox',
      }).setup(partnerId, input(body));
      existingId = racing.profile.id;
    };

    await expect(setup.setup(partnerId, input(body))).rejects.toMatchObject({
      name: 'UserAlreadyExists',
      profileId: expect.any(String),
      cause: expect.objectContaining({ name: 'ProfileAlreadyExists' }),
    });
    expect(existingId).toBeDefined();
  });
});

describe('setup with an Idempotency-Key', () => {
  it('completes the key in the write that commits, with the result of the attempt that won the race', async () => {
    const keys = new InMemoryIdempotencyStore();
    organizations = new InMemoryOrganizationRepository(keys);
    setup = new OrganizationSetup({
      organizations,
      payments,
      clock: new ManualClock(),
      stage: 'sandbox',
      backoff: async () => undefined,
    });
    const attempt = await new IdempotencyGuard(keys, new ManualClock()).begin('setup#p', 'key-1', {});
    if (attempt.kind !== 'first') throw new Error('expected a first run');
    organizations.beforeWrite = async (write, n) => {
      if (write === 'createOrganization' && n === 1) await winnerCreates('org-keyed');
    };
    const completionFor = (result: SetupResult) => attempt.completionWith({ statusCode: 200, body: result.profile.id });

    const result = await setup.setup(partnerId, input(aSetupRequest().forOrg('org-keyed').build()), completionFor);

    expect(result.isNewOrganization).toBe(false);
    expect([...keys.records.values()]).toEqual([
      expect.objectContaining({ state: 'completed', outcome: { statusCode: 200, body: result.profile.id } }),
    ]);
  });

  it('writes nothing when the key’s claim was lost to another request', async () => {
    const keys = new InMemoryIdempotencyStore();
    organizations = new InMemoryOrganizationRepository(keys);
    setup = new OrganizationSetup({ organizations, payments, clock: new ManualClock(), stage: 'sandbox' });
    const lapsed = {
      scope: 'setup#p',
      key: 'key-1',
      owner: 'a request whose claim lapsed',
      outcome: { statusCode: 200, body: '' },
    };

    await expect(
      setup.setup(partnerId, input(aSetupRequest().forOrg('org-lapsed').build()), () => lapsed),
    ).rejects.toMatchObject({
      name: 'IdempotencyKeyInFlight',
    });
    expect(organizations.aggregates.size).toBe(0);
  });
});

/** The same stored organizations, without the race hook (for the racing setup itself). */
function organizationsWithoutHook(): InMemoryOrganizationRepository {
  const view = Object.create(organizations) as InMemoryOrganizationRepository;
  view.beforeWrite = () => undefined;
  return view;
}

function aStoredLocation(organizationId: OrganizationId, internalShippingLocationId: string): ShippingLocation {
  return {
    id: randomUUID() as ShippingLocationId,
    organizationId,
    internalShippingLocationId,
    name: 'Dock',
    address: { line1: '1 Main St', city: 'Austin', province: 'Texas', postalCode: '78701', country: 'United States' },
    isDefault: false,
    isActive: true,
    createdAt: TEST_CLOCK_START,
  };
}
