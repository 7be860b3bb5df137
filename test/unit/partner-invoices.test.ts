import { describe, expect, it } from 'vitest';
import { InvoicingService } from '../../functions/domain/billing/invoicing-service';
import { PartnerInvoices } from '../../functions/domain/billing/partner-invoices';
import { InvoiceNotFound, OrganizationNotFound, ValidationFailed } from '../../functions/domain/errors';
import type { OrderEventMessage } from '../../functions/domain/events/order-event-message';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { InMemoryInvoiceRepository, InMemoryInvoicing } from '../support/fakes/in-memory-invoices';
import { InMemoryOrganizationRepository } from '../support/fakes/in-memory-organization-repository';
import { RecordingQueue } from '../support/fakes/recording-ports';
import { anOrderingWorld } from '../support/order-fixtures';
import { recordingMetrics } from '../support/recording-metrics';

const SHIPMENT = {
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  estimated_delivery: '2036-11-25T17:00:00.000Z',
};

/** One organization with `count` shipped and invoiced orders, a minute apart, and the read service over the same ports. */
async function anInvoicedOrganization(count: number) {
  const world = await anOrderingWorld();
  const { cartService, orderService, profile, organization, partner } = world;
  const organizations = new InMemoryOrganizationRepository();
  organizations.aggregates.set(`${partner.id}#${organization.organization.internalOrgId}`, organization);
  const invoices = new InMemoryInvoiceRepository();
  const invoicing = new InvoicingService({
    orders: world.orders,
    organizations,
    invoices,
    provider: new InMemoryInvoicing(),
    salesTax: world.taxProvider,
    clock: world.clock,
    metrics: recordingMetrics(),
    events: new RecordingQueue<OrderEventMessage>(),
    stage: 'sandbox',
  });
  const scope = { partnerId: partner.id };
  const issued = [];
  for (let n = 0; n < count; n += 1) {
    await cartService.add(profile.id, 'GLV-NIT-M-100', 1 + n);
    const placed = await orderService.placeOrder({ partner, profile, organization });
    await orderService.transition(placed.id, 'confirm', {}, scope);
    await orderService.transition(placed.id, 'ship', SHIPMENT, scope);
    world.clock.advance(60_000);
    issued.push(await invoicing.issue(placed.id));
  }
  const internalOrgId = organization.organization.internalOrgId;
  return { partner, internalOrgId, invoices, issued, read: new PartnerInvoices(invoices, organizations) };
}

describe("a partner's invoices", () => {
  it('reads one invoice by its id, and another partner reads none (not found, not forbidden)', async () => {
    const { partner, issued, read } = await anInvoicedOrganization(1);
    const [invoice] = issued;
    expect(await read.get(invoice!.id, partner.id)).toEqual(invoice);
    await expect(read.get(invoice!.id, 'someone-else' as PartnerId)).rejects.toThrow(InvoiceNotFound);
    await expect(read.get('inv_nothing', partner.id)).rejects.toThrow(InvoiceNotFound);
  });

  it('lists the organization newest first, a page at a time, and filters by status', async () => {
    const { partner, internalOrgId, invoices, issued, read } = await anInvoicedOrganization(3);
    // The fake provider finalizes every invoice at the same instant: then the id decides.
    const newestFirst = [...issued].sort((a, b) => `${b.issuedAt}#${b.id}`.localeCompare(`${a.issuedAt}#${a.id}`));
    const first = await read.list(partner.id, { internalOrgId, limit: 2 });
    expect(first.invoices).toEqual(newestFirst.slice(0, 2));
    expect(first.hasMore).toBe(true);
    const second = await read.list(partner.id, { internalOrgId, limit: 2, startingAfter: newestFirst[1]!.id });
    expect(second).toEqual({ invoices: [newestFirst[2]], hasMore: false });

    const paid = { ...issued[1]!, status: 'paid' as const, version: 2 };
    await invoices.update(paid);
    expect((await read.list(partner.id, { internalOrgId, status: 'paid' })).invoices).toEqual([paid]);
    expect((await read.list(partner.id, { internalOrgId, status: 'overdue' })).invoices).toEqual([]);
  });

  it("finds an order's invoice by order_id, within the organization only", async () => {
    const { partner, internalOrgId, issued, read } = await anInvoicedOrganization(2);
    const [, second] = issued;
    expect(await read.list(partner.id, { internalOrgId, orderId: second!.orderId })).toEqual({
      invoices: [second],
      hasMore: false,
    });
    const other = await anInvoicedOrganization(1);
    expect((await read.list(partner.id, { internalOrgId, orderId: other.issued[0]!.orderId })).invoices).toEqual([]);
    await expect(
      read.list(partner.id, { internalOrgId, orderId: second!.orderId, startingAfter: second!.id }),
    ).rejects.toThrow(ValidationFailed);
  });

  it("refuses another partner's organization and a cursor that is not the organization's", async () => {
    const { partner, internalOrgId, read } = await anInvoicedOrganization(1);
    await expect(read.list('someone-else' as PartnerId, { internalOrgId })).rejects.toThrow(OrganizationNotFound);
    await expect(read.list(partner.id, { internalOrgId, limit: 101 })).rejects.toThrow(ValidationFailed);
    const other = await anInvoicedOrganization(1);
    await expect(read.list(partner.id, { internalOrgId, startingAfter: other.issued[0]!.id })).rejects.toThrow(
      ValidationFailed,
    );
  });
});
