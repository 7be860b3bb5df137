/**
 * The local Stripe stand-in across a restart of `npm start`: with a data directory it keeps
 * its invoices there and serves at the same address, so the hosted page, the PDF and
 * `invoices.pay` of an invoice issued before the restart still work; a Stripe Tax
 * calculation made before it is recorded as a transaction after it, once.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { startStripeStandIn } from '../../lib/local-runtime/stripe-stand-in-server';

const dataDir = mkdtempSync(join(tmpdir(), 'stripe-stand-in-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const sdk = (url: string) => {
  const { hostname, port } = new URL(url);
  return new Stripe('sk_test_restart', { host: hostname, port: Number(port), protocol: 'http' });
};

describe('the Stripe stand-in across a restart', () => {
  it('keeps its invoices under the data directory and serves them at the same address', async () => {
    const first = await startStripeStandIn({ dataDir });
    let invoice: Stripe.Invoice;
    try {
      const stripe = sdk(first.url);
      const draft = await stripe.invoices.create({
        customer: 'cus_restart',
        collection_method: 'send_invoice',
        days_until_due: 30,
      });
      await stripe.invoices.addLines(draft.id, {
        lines: [{ price_data: { currency: 'usd', product_data: { name: 'Gloves' }, unit_amount: 2722 }, quantity: 1 }],
      });
      invoice = await stripe.invoices.finalizeInvoice(draft.id);
    } finally {
      await first.close();
    }

    const second = await startStripeStandIn({ dataDir });
    try {
      expect(second.url).toBe(first.url);
      expect((await fetch(invoice.hosted_invoice_url!)).status).toBe(200);
      expect((await fetch(invoice.invoice_pdf!)).headers.get('content-type')).toBe('application/pdf');
      const paid = await sdk(second.url).invoices.pay(invoice.id, { paid_out_of_band: true });
      expect(paid).toMatchObject({ status: 'paid', amount_paid: 2722, number: invoice.number });
      await expect(sdk(second.url).invoices.retrieve('in_unknown')).rejects.toMatchObject({
        statusCode: 404,
        code: 'resource_missing',
      });
    } finally {
      await second.close();
    }
    expect(statSync(join(dataDir, 'stripe-stand-in.json')).mode & 0o077).toBe(0);
  });

  it('keeps Stripe Tax calculations, transactions and idempotency keys across the restart', async () => {
    const first = await startStripeStandIn({ dataDir });
    let calculation: Stripe.Tax.Calculation;
    let transaction: Stripe.Tax.Transaction;
    try {
      calculation = await sdk(first.url).tax.calculations.create({
        currency: 'usd',
        line_items: [{ amount: 4000, reference: 'GAUZE', tax_behavior: 'exclusive', tax_code: 'txcd_99999999' }],
        customer_details: {
          address: { line1: '5 Broadway', city: 'New York', state: 'NY', postal_code: '10004', country: 'US' },
          address_source: 'shipping',
        },
      });
      expect(calculation.tax_amount_exclusive).toBe(355);
      transaction = await sdk(first.url).tax.transactions.createFromCalculation(
        { calculation: calculation.id!, reference: 'order-before' },
        { idempotencyKey: 'tax-before' },
      );
    } finally {
      await first.close();
    }

    const second = await startStripeStandIn({ dataDir });
    try {
      const stripe = sdk(second.url);
      const replayed = await stripe.tax.transactions.createFromCalculation(
        { calculation: calculation.id!, reference: 'order-before' },
        { idempotencyKey: 'tax-before' },
      );
      expect(replayed.id).toBe(transaction.id);
      const after = await stripe.tax.transactions.createFromCalculation(
        { calculation: calculation.id!, reference: 'order-after' },
        { idempotencyKey: 'tax-after' },
      );
      expect(after).toMatchObject({ object: 'tax.transaction', reference: 'order-after' });
      await expect(
        stripe.tax.transactions.createFromCalculation({ calculation: calculation.id!, reference: 'order-before' }),
      ).rejects.toMatchObject({ statusCode: 400 });
    } finally {
      await second.close();
    }
  });
});
