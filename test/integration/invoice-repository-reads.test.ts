/**
 * The DynamoDB invoice repository's reads on the local stack's orders table: an invoice by
 * its id (which names its order), and an organization's invoices newest first through
 * gsi1, by status, a page at a time, with `starting_after` of the organization only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDocumentClient } from '../../functions/adapters/aws/dynamodb-client';
import { DynamoInvoiceRepository } from '../../functions/adapters/dynamodb/dynamodb-invoice-repository';
import { type InvoiceRecord, invoiceIdFor } from '../../functions/domain/billing/invoice';
import { ValidationFailed } from '../../functions/domain/errors';
import { tableName } from '../../functions/resources/resource-definitions';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let invoices: DynamoInvoiceRepository;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  invoices = new DynamoInvoiceRepository(
    createDocumentClient(inject('standIns').endpoints.dynamodb),
    tableName(stack.config.RESOURCE_PREFIX, 'orders'),
    stack.clock,
  );
});
afterAll(() => stack.close());

/** An issued invoice of a new order of `organizationId`, issued `minute` minutes into the day. */
const anInvoice = (organizationId: string, minute: number, status: InvoiceRecord['status'] = 'open'): InvoiceRecord => {
  const orderId = randomUUID();
  const at = new Date(Date.UTC(2036, 10, 22, 12, minute)).toISOString();
  return {
    id: invoiceIdFor(orderId),
    orderId,
    partnerId: 'partner-1',
    organizationId,
    internalOrgId: 'acme-1',
    stripeInvoiceId: `in_${minute}`,
    number: `A1B2C3D4-000${minute}`,
    status,
    totalCents: 3156,
    amountDueCents: status === 'paid' ? 0 : 3156,
    amountPaidCents: status === 'paid' ? 3156 : 0,
    amountCreditedCents: 0,
    dueDate: '2036-12-22T12:05:00.000Z',
    hostedInvoiceUrl: 'http://127.0.0.1:12111/invoices/in_1',
    invoicePdf: 'http://127.0.0.1:12111/invoices/in_1/pdf',
    creditNotes: [],
    issuedAt: at,
    updatedAt: at,
    version: 1,
  };
};

describe('reading invoices from DynamoDB', () => {
  it('reads an invoice by its id, and nothing for an id that names no invoice', async () => {
    const invoice = anInvoice(randomUUID(), 1);
    await invoices.record(invoice);
    expect(await invoices.get(invoice.id)).toEqual(invoice);
    expect(await invoices.get(invoiceIdFor(randomUUID()))).toBeUndefined();
    expect(await invoices.get('inv_nothing')).toBeUndefined();
  });

  it("lists an organization's invoices newest first, a page at a time, by status", async () => {
    const organizationId = randomUUID();
    const made = [
      anInvoice(organizationId, 1),
      anInvoice(organizationId, 2, 'paid'),
      anInvoice(organizationId, 3),
      anInvoice(organizationId, 4, 'overdue'),
      anInvoice(organizationId, 5),
    ];
    for (const invoice of made) await invoices.record(invoice);
    await invoices.record(anInvoice(randomUUID(), 6));
    const newestFirst = [...made].reverse();

    const first = await invoices.listByOrganization(organizationId, { limit: 2 });
    expect(first).toEqual({ invoices: newestFirst.slice(0, 2), hasMore: true });
    const rest = await invoices.listByOrganization(organizationId, { limit: 3, startingAfter: newestFirst[1]!.id });
    expect(rest).toEqual({ invoices: newestFirst.slice(2), hasMore: false });

    const open = await invoices.listByOrganization(organizationId, { limit: 2, status: 'open' });
    expect(open).toEqual({ invoices: [made[4], made[2]], hasMore: true });
    const lastOpen = await invoices.listByOrganization(organizationId, {
      limit: 2,
      status: 'open',
      startingAfter: made[2]!.id,
    });
    expect(lastOpen).toEqual({ invoices: [made[0]], hasMore: false });
  });

  it("refuses starting_after of another organization's invoice", async () => {
    const other = anInvoice(randomUUID(), 7);
    await invoices.record(other);
    await expect(invoices.listByOrganization(randomUUID(), { limit: 2, startingAfter: other.id })).rejects.toThrow(
      ValidationFailed,
    );
  });
});
