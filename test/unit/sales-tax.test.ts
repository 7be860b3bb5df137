import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripeTax } from '../../functions/adapters/stripe-tax';
import { OrderService } from '../../functions/domain/orders/order-service';
import { SalesTaxQuotes } from '../../functions/domain/tax/sales-tax-quotes';
import { StripeTaxStandIn } from '../../lib/local-runtime/stripe-tax-stand-in';
import { InvoicingService } from '../../functions/domain/billing/invoicing-service';
import { SalesTaxUnavailable } from '../../functions/domain/errors';
import type { OrderEventMessage } from '../../functions/domain/events/order-event-message';
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

/** A world whose California location is the checkout's choice, with the invoicing of its orders. */
async function aCheckout(options: { exempt?: boolean } = {}) {
  const world = await anOrderingWorld();
  const organization = {
    ...world.organization,
    organization: { ...world.organization.organization, taxExempt: options.exempt === true },
  };
  const organizations = new InMemoryOrganizationRepository();
  organizations.aggregates.set(`${world.partner.id}#${organization.organization.internalOrgId}`, organization);
  const provider = new InMemoryInvoicing();
  const invoicing = new InvoicingService({
    orders: world.orders,
    organizations,
    invoices: new InMemoryInvoiceRepository(),
    provider,
    salesTax: world.taxProvider,
    clock: world.clock,
    metrics: recordingMetrics(),
    events: new RecordingQueue<OrderEventMessage>(),
    stage: 'sandbox',
  });
  const input = { partner: world.partner, profile: world.profile, organization };
  await world.cartService.add(world.profile.id, 'GLV-NIT-M-100', 3);
  await world.cartService.add(world.profile.id, 'PPR-LTR-5000', 1);
  return { ...world, organization, organizations, input, invoicing, provider };
}

describe('sales tax from Stripe Tax', () => {
  it('charges at checkout, on the order and on the invoice the same tax, from one calculation recorded when invoiced', async () => {
    const { input, california, orderService, invoicing, provider, taxProvider } = await aCheckout();
    // Checkout shows every location; viewing it twice asks Stripe Tax once per location.
    const [quoted] = await orderService.quoteEach(input, [california.id]);
    await orderService.quoteEach(input, [california.id]);
    const order = await orderService.placeOrder({ ...input, shippingLocationId: california.id });
    expect(taxProvider.calls).toBe(1);

    // 37.47 + 49.99 = 87.46 at 8.625 % = 7.543425 -> 7.54
    expect(quoted?.pricing.taxCents).toBe(754);
    expect(order.taxCents).toBe(754);
    expect(order.totalCents).toBe(quoted?.pricing.totalCents);
    const scope = { partnerId: input.partner.id };
    await orderService.transition(order.id, 'confirm', {}, scope);
    await orderService.transition(order.id, 'ship', SHIPMENT, scope);
    const invoice = await invoicing.issue(order.id);
    const lines = [...provider.invoices.values()][0]?.lines ?? [];
    expect(lines.find((line) => line.description === 'Sales tax')?.unitAmountCents).toBe(754);
    expect(invoice.totalCents).toBe(order.totalCents);
    expect(taxProvider.transactions).toEqual([
      {
        calculationId: order.salesTax?.calculationId,
        reference: order.id,
        idempotencyKey: `order-${order.id}-tax-transaction`,
      },
    ]);
  });

  it('asks again when the cart or the address changes', async () => {
    const { input, california, defaultLocation, orderService, cartService, profile, taxProvider } = await aCheckout();
    await orderService.quoteEach(input, [california.id, defaultLocation.id]);
    expect(taxProvider.calls).toBe(2);
    await cartService.add(profile.id, 'GLV-NIT-M-100', 1);
    await orderService.quoteEach(input, [california.id]);
    expect(taxProvider.calls).toBe(3);
  });

  it("charges an exempt organization's orders and invoices no tax", async () => {
    const { input, california, orderService, invoicing, provider } = await aCheckout({ exempt: true });
    const [quoted] = await orderService.quoteEach(input, [california.id]);
    const order = await orderService.placeOrder({ ...input, shippingLocationId: california.id });
    expect([quoted?.pricing.taxCents, order.taxCents]).toEqual([0, 0]);
    expect(order.salesTax).toMatchObject({ exempt: true });
    const scope = { partnerId: input.partner.id };
    await orderService.transition(order.id, 'confirm', {}, scope);
    await orderService.transition(order.id, 'ship', SHIPMENT, scope);
    const invoice = await invoicing.issue(order.id);
    expect(invoice.totalCents).toBe(order.subtotalCents + order.shippingCents);
    const lines = [...provider.invoices.values()][0]?.lines ?? [];
    expect(lines.some((line) => line.description === 'Sales tax')).toBe(false);
  });

  it('places nothing, and keeps the cart, when Stripe Tax cannot answer', async () => {
    const { input, california, orderService, orders, cartService, profile, taxProvider } = await aCheckout();
    taxProvider.failing = true;
    await expect(orderService.placeOrder({ ...input, shippingLocationId: california.id })).rejects.toThrow(
      SalesTaxUnavailable,
    );
    expect(orders.orders.size).toBe(0);
    expect((await cartService.view(profile.id)).lines).toHaveLength(2);
  });
});

describe('the sale recorded in Stripe Tax when the order is invoiced', () => {
  // The stand-in on the world's clock, so a retry can come after Stripe's 24-hour idempotency window.
  let clockNow = () => new Date();
  const standIn = new StripeTaxStandIn({ now: () => clockNow() });
  const server = createServer((req, res) => void standIn.handle(req, res));
  let stripeTax: StripeTax;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const stripe = new Stripe('sk_test_stand_in', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
    stripeTax = new StripeTax(async () => stripe);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A shipped order taxed by the stand-in, and its invoicing through it, whose first attempt fails as `fail` makes it. */
  async function aShippedOrder() {
    const world = await aCheckout();
    clockNow = () => world.clock.now();
    const orderService = new OrderService({
      orders: world.orders,
      carts: world.carts,
      catalog: world.catalog,
      clock: world.clock,
      salesTax: new SalesTaxQuotes({ provider: stripeTax, memory: world.carts, clock: world.clock }),
    });
    const invoices = new InMemoryInvoiceRepository();
    const invoicing = new InvoicingService({
      orders: world.orders,
      organizations: world.organizations,
      invoices,
      provider: world.provider,
      salesTax: stripeTax,
      clock: world.clock,
      metrics: recordingMetrics(),
      events: new RecordingQueue<OrderEventMessage>(),
      stage: 'sandbox',
    });
    const order = await orderService.placeOrder({ ...world.input, shippingLocationId: world.california.id });
    const scope = { partnerId: world.input.partner.id };
    await orderService.transition(order.id, 'confirm', {}, scope);
    await orderService.transition(order.id, 'ship', SHIPMENT, scope);
    const salesOf = () => standIn.recorded().filter((transaction) => transaction.reference === order.id);
    return { ...world, order, invoices, invoicing, salesOf };
  }

  const DAY_AND_AN_HOUR = 25 * 3600 * 1000;

  it('is recorded once when invoicing is retried more than 24 hours after a failure past it', async () => {
    const { order, invoicing, invoices, provider, clock, salesOf } = await aShippedOrder();
    provider.failAt('finalize', 'before');
    await expect(invoicing.issue(order.id)).rejects.toThrow(/finalize/);
    expect(salesOf()).toHaveLength(1);
    clock.advance(DAY_AND_AN_HOUR);
    const invoice = await invoicing.issue(order.id);
    expect(invoice.status).toBe('open');
    expect(salesOf()).toHaveLength(1);
    expect(await invoices.taxTransactionOf(order.id)).toEqual({ transactionId: salesOf()[0]?.id });
  });

  it("is recorded once when the note of it was lost, and Stripe refuses a second sale of the order's reference", async () => {
    const { order, invoicing, invoices, clock, salesOf } = await aShippedOrder();
    const note = invoices.recordTaxTransaction.bind(invoices);
    let lose = true;
    invoices.recordTaxTransaction = async (orderId, transactionId) => {
      if (lose) {
        lose = false;
        throw new Error('DynamoDB unreachable');
      }
      return note(orderId, transactionId);
    };
    await expect(invoicing.issue(order.id)).rejects.toThrow(/DynamoDB/);
    clock.advance(DAY_AND_AN_HOUR);
    expect((await invoicing.issue(order.id)).status).toBe('open');
    expect(salesOf()).toHaveLength(1);
    expect(await invoices.taxTransactionOf(order.id)).toEqual({});
  });
});
