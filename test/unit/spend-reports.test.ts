import { describe, expect, it } from 'vitest';
import { OrganizationNotFound, ValidationFailed } from '../../functions/domain/errors';
import type { Order, OrderId } from '../../functions/domain/orders/order';
import type { SpendMonth } from '../../functions/domain/spending/monthly-spend';
import type { OrganizationRepository } from '../../functions/domain/organizations/organization-repository';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { SpendReports } from '../../functions/domain/spending/spend-reports';
import { anOrderingWorld } from '../support/order-fixtures';

/** The organization's orders as stored, created at `createdAt`: only what the report reads. */
async function aWorld() {
  const world = await anOrderingWorld();
  const [glove] = await world.catalog.listActive();
  const organizations = {
    getOrganization: async (partnerId: PartnerId, internalOrgId: string) =>
      partnerId === world.partner.id && internalOrgId === world.organization.organization.internalOrgId
        ? world.organization
        : undefined,
  } as unknown as OrganizationRepository;
  const place = (createdAt: string, totalCents: number) => {
    const id = `order-${createdAt}` as OrderId;
    world.orders.orders.set(id, {
      id,
      organizationId: world.organization.organization.id,
      internalUserId: world.profile.internalUserId,
      shippingAddress: { locationId: world.defaultLocation.id, locationName: world.defaultLocation.name },
      items: [{ productId: glove!.productId, unitPriceCents: totalCents, quantity: 1 }],
      totalCents,
      status: 'confirmed',
      createdAt,
    } as unknown as Order);
  };
  return {
    ...world,
    place,
    reports: new SpendReports(organizations, world.orders, world.catalog, world.clock, {
      getByOrder: async () => undefined,
    }),
  };
}

describe('spend reports', () => {
  it("counts the orders of the organization's month (Portland: UTC-8 in winter) and no other", async () => {
    const world = await aWorld();
    world.place('2036-01-01T07:59:59.999Z', 100); // Dec 31 in Portland
    world.place('2036-01-01T08:00:00.000Z', 2_000);
    world.place('2036-02-01T07:59:59.999Z', 30_000);
    world.place('2036-02-01T08:00:00.000Z', 400_000); // Feb 1 in Portland
    const organization = await world.reports.organization(
      world.partner.id,
      world.organization.organization.internalOrgId,
    );
    const january = await world.reports.report(organization, '2036-01' as SpendMonth);
    expect(january.totalCents).toBe(32_000);
    expect(january.orderCount).toBe(2);
    expect(january.timeZone).toBe('America/Los_Angeles');
    expect(january.locations).toEqual([
      {
        internalShippingLocationId: world.defaultLocation.internalShippingLocationId,
        name: world.defaultLocation.name,
        totalCents: 32_000,
      },
    ]);
    expect((await world.reports.report(organization, '2035-12' as SpendMonth)).totalCents).toBe(100);
  });

  it("defaults to the current month in the organization's zone; a bad month and another partner's organization are refused", async () => {
    const world = await aWorld();
    world.clock.set(new Date('2036-03-01T07:30:00.000Z')); // still Feb 29 in Portland
    const organization = await world.reports.organization(
      world.partner.id,
      world.organization.organization.internalOrgId,
    );
    expect(world.reports.monthOf(organization, undefined)).toBe('2036-02');
    expect(() => world.reports.monthOf(organization, '2036-2')).toThrow(ValidationFailed);
    await expect(
      world.reports.organization('another-partner' as PartnerId, world.organization.organization.internalOrgId),
    ).rejects.toThrow(OrganizationNotFound);
  });
});
