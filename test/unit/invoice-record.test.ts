import { describe, expect, it } from 'vitest';
import {
  applyInvoiceEvent,
  creditableCents,
  InvoiceRecord,
  invoiceIdFor,
  orderIdOfInvoice,
} from '../../functions/domain/billing/invoice';
import { daysUntilDue, PAYMENT_TERMS, PaymentTerms } from '../../functions/domain/billing/payment-terms';
import { billingEmailOf, paymentTermsOf } from '../../functions/domain/organizations/organization';

const issued: InvoiceRecord = InvoiceRecord.parse({
  id: invoiceIdFor('order-1'),
  orderId: 'order-1',
  partnerId: 'partner-1',
  organizationId: 'org-1',
  internalOrgId: 'practice-1',
  stripeInvoiceId: 'in_1',
  number: 'ABCD-0001',
  status: 'open',
  totalCents: 50_000,
  amountDueCents: 50_000,
  amountPaidCents: 0,
  amountCreditedCents: 0,
  dueDate: '2030-02-01T00:00:00.000Z',
  hostedInvoiceUrl: 'https://invoice.example.com/i/in_1',
  invoicePdf: 'https://invoice.example.com/i/in_1/pdf',
  creditNotes: [],
  issuedAt: '2030-01-02T00:00:00.000Z',
  updatedAt: '2030-01-02T00:00:00.000Z',
  lastEventCreated: 100,
  version: 1,
});
const now = '2030-01-03T00:00:00.000Z';
const paid = { status: 'paid', amountPaidCents: 50_000, amountDueCents: 0 } as const;
const overdue = { status: 'overdue', amountPaidCents: 0, amountDueCents: 50_000 } as const;

describe('the invoice record', () => {
  it('derives one invoice id per order, the same on every retry', () => {
    const order = '0B6A4C55-0a57-4c1e-9d36-2f0c1f6e8a11';
    expect(invoiceIdFor(order)).toBe(invoiceIdFor(order));
    expect(invoiceIdFor(order)).not.toBe(invoiceIdFor('1b6a4c55-0a57-4c1e-9d36-2f0c1f6e8a11'));
    expect(invoiceIdFor(order)).toBe('inv_0b6a4c550a574c1e9d362f0c1f6e8a11');
  });

  it('names its order, so an invoice is read by its id beside the order; anything else names none', () => {
    expect(orderIdOfInvoice(invoiceIdFor('0b6a4c55-0a57-4c1e-9d36-2f0c1f6e8a11'))).toBe(
      '0b6a4c55-0a57-4c1e-9d36-2f0c1f6e8a11',
    );
    expect(orderIdOfInvoice('inv_0B6A4C550A574C1E9D362F0C1F6E8A11')).toBeUndefined();
    expect(orderIdOfInvoice('in_1Nv0FGQ9RKHgCVdK')).toBeUndefined();
  });

  it('refuses a status outside open, paid, overdue, void and uncollectible, and cents that are not whole', () => {
    expect(InvoiceRecord.safeParse({ ...issued, status: 'draft' }).success).toBe(false);
    expect(InvoiceRecord.safeParse({ ...issued, totalCents: 10.5 }).success).toBe(false);
  });

  it('credits at most what is left of the total', () => {
    expect(creditableCents({ totalCents: 50_000, amountCreditedCents: 20_000 })).toBe(30_000);
    expect(creditableCents({ totalCents: 50_000, amountCreditedCents: 50_000 })).toBe(0);
  });
});

describe('a Stripe event applied to the invoice record', () => {
  it('moves an open invoice to paid with the amounts Stripe reports, and bumps the version', () => {
    const next = applyInvoiceEvent(issued, { created: 200, ...paid }, now);
    expect(next).toMatchObject({ status: 'paid', amountPaidCents: 50_000, amountDueCents: 0, version: 2 });
    expect(next?.lastEventCreated).toBe(200);
  });

  it('never rolls a paid invoice back with an older overdue event', () => {
    const afterPaid = applyInvoiceEvent(issued, { created: 200, ...paid }, now);
    expect(afterPaid && applyInvoiceEvent(afterPaid, { created: 150, ...overdue }, now)).toBeUndefined();
  });

  it('never rolls an overdue invoice back to open with an older event', () => {
    const afterOverdue = applyInvoiceEvent(issued, { created: 200, ...overdue }, now);
    const older = { created: 150, status: 'open', amountPaidCents: 0, amountDueCents: 50_000 } as const;
    expect(afterOverdue && applyInvoiceEvent(afterOverdue, older, now)).toBeUndefined();
  });

  it('between two events of the same second, keeps the one further along', () => {
    const afterPaid = applyInvoiceEvent(issued, { created: 200, ...paid }, now);
    expect(afterPaid && applyInvoiceEvent(afterPaid, { created: 200, ...overdue }, now)).toBeUndefined();
    const afterOverdue = applyInvoiceEvent(issued, { created: 200, ...overdue }, now);
    expect(afterOverdue && applyInvoiceEvent(afterOverdue, { created: 200, ...paid }, now)?.status).toBe('paid');
  });

  it('keeps a paid invoice paid even when a later event says otherwise', () => {
    const afterPaid = applyInvoiceEvent(issued, { created: 200, ...paid }, now);
    expect(afterPaid && applyInvoiceEvent(afterPaid, { created: 300, ...overdue }, now)).toBeUndefined();
  });

  it('records a failed payment attempt and leaves the invoice open', () => {
    const failedAt = '2030-01-02T12:00:00.000Z';
    const next = applyInvoiceEvent(
      issued,
      { created: 100, status: 'open', amountPaidCents: 0, amountDueCents: 50_000, paymentFailedAt: failedAt },
      now,
    );
    expect(next).toMatchObject({ status: 'open', lastPaymentFailedAt: failedAt });
  });
});

describe('an organization’s billing settings', () => {
  it('are net30 and the organization’s e-mail until set', () => {
    expect(paymentTermsOf({})).toBe('net30');
    expect(billingEmailOf({ email: 'office@practice.example' })).toBe('office@practice.example');
    expect(billingEmailOf({ email: 'office@practice.example', billingEmail: 'ap@practice.example' })).toBe(
      'ap@practice.example',
    );
  });

  it('give Stripe the days until due of each term, and accept no other term', () => {
    expect(PAYMENT_TERMS.map(daysUntilDue)).toEqual([15, 30, 60]);
    expect(PaymentTerms.safeParse('net45').success).toBe(false);
  });
});
