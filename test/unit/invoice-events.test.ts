import { describe, expect, it } from 'vitest';
import { applyInvoiceEvent, type InvoiceRecord } from '../../functions/domain/billing/invoice';
import { invoiceStatusEvent } from '../../functions/domain/events/invoice-events';
import { WEBHOOK_EVENT_DATA } from '../../functions/domain/events/order-events';

const ISSUED: InvoiceRecord = {
  id: 'inv_0123456789abcdef0123456789abcdef01234567',
  orderId: '0b6a4c55-0a57-4c1e-9d36-2f0c1f6e8a11',
  partnerId: 'partner-1',
  organizationId: 'org_1',
  internalOrgId: 'acme-1',
  stripeInvoiceId: 'in_1',
  number: 'A1B2C3D4-0001',
  status: 'open',
  totalCents: 3156,
  amountDueCents: 3156,
  amountPaidCents: 0,
  amountCreditedCents: 0,
  dueDate: '2026-12-22T12:05:00.000Z',
  hostedInvoiceUrl: 'http://127.0.0.1:12111/i/in_1',
  invoicePdf: 'http://127.0.0.1:12111/i/in_1/pdf',
  creditNotes: [],
  issuedAt: '2026-11-22T12:05:00.000Z',
  updatedAt: '2026-11-22T12:05:00.000Z',
  version: 1,
};

const after = (status: 'paid' | 'overdue' | 'void' | 'uncollectible', created: number) =>
  applyInvoiceEvent(
    ISSUED,
    {
      created,
      status,
      amountPaidCents: status === 'paid' ? 3156 : 0,
      amountDueCents: status === 'paid' ? 0 : 3156,
    },
    '2026-12-01T09:30:00.000Z',
  );

describe('the partner event of a Stripe status change', () => {
  it('announces a paid invoice as invoice.paid, with what is paid and what is left', () => {
    const paid = after('paid', 1_795_000_000);
    const event = paid && invoiceStatusEvent(paid, '2026-12-01T09:30:00.000Z');
    expect(event).toMatchObject({ event: 'invoice.paid', partnerId: 'partner-1', orderId: ISSUED.orderId });
    expect(WEBHOOK_EVENT_DATA['invoice.paid'].parse(event?.data)).toMatchObject({
      order_id: ISSUED.orderId,
      partner_org_id: 'acme-1',
      paid_at: '2026-12-01T09:30:00.000Z',
      invoice: { status: 'paid', total: 31.56, amount_paid: 31.56, amount_due: 0 },
    });
  });

  it('announces an overdue invoice as invoice.overdue, under an id of its own', () => {
    const overdue = after('overdue', 1_795_000_000);
    const paid = after('paid', 1_795_000_000);
    const overdueEvent = overdue && invoiceStatusEvent(overdue, '2026-12-23T00:00:00.000Z');
    expect(WEBHOOK_EVENT_DATA['invoice.overdue'].parse(overdueEvent?.data).invoice.status).toBe('overdue');
    expect(overdueEvent?.eventId).not.toBe(paid && invoiceStatusEvent(paid, '2026-12-23T00:00:00.000Z')?.eventId);
  });

  it.each(['void', 'uncollectible'] as const)('announces nothing for a %s invoice (no kind for it)', (status) => {
    const changed = after(status, 1_795_000_000);
    expect(changed && invoiceStatusEvent(changed, '2026-12-23T00:00:00.000Z')).toBeUndefined();
  });
});
