/**
 * How to provoke every documented status of the billing routes (the invoice reads, the
 * sandbox's pay and overdue, and Stripe's own route) on a local test stack, for the
 * contract suite. Invoices are issued as in production: an organization set up through
 * the API (so it has a Stripe customer on the stand-in), a sandbox order shipped, and the
 * stack's invoicing consumer issuing it in the background.
 */
import { randomUUID } from 'node:crypto';
import { expect, vi } from 'vitest';
import { DynamoInvoiceRepository } from '../../functions/adapters/dynamodb/dynamodb-invoice-repository';
import { StripeSandboxPayments } from '../../functions/adapters/stripe-sandbox-payments';
import { invoiceIdFor } from '../../functions/domain/billing/invoice';
import { SandboxInvoices } from '../../functions/domain/billing/sandbox-invoices';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import { tableName } from '../../functions/resources/resource-definitions';
import type { ApiRouteName } from '../../functions/route-names';
import { apiRoute } from '../../functions/routes';
import { whileFailing } from '../support/fault-plan';
import { stripeStandIn } from '../support/inspect';
import { exhaustRateLimit } from '../support/rate-limit';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import type { TestResponse, TestStack } from '../support/test-stack';
import type { Scenario, Scenarios } from './order-api-scenarios';

const PRODUCT_ID = SEED_CATALOG.find((product) => product.active)!.product_id;
const UNKNOWN_INVOICE = invoiceIdFor(randomUUID());

type InvoiceAction = 'pay' | 'overdue';

export function invoiceScenarios(stackOf: () => TestStack): Scenarios {
  const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });
  /** The stored invoices, where the Stripe invoice's id is (the API does not show it). */
  const storedInvoices = () => {
    const stack = stackOf();
    return new DynamoInvoiceRepository(
      stack.deps.aws.db,
      tableName(stack.config.RESOURCE_PREFIX, 'orders'),
      stack.deps.clock,
    );
  };

  /** A partner whose organization was set up through the API, so its Stripe customer exists on the stand-in. */
  async function aBillingPartner() {
    const stack = stackOf();
    const partner = await stack.createPartner();
    const headers = bearer(partner.apiKey);
    const body = aSetupRequest()
      .withLocations(aLocation('loc-main', { isDefault: true }))
      .build();
    const setup = await stack.post('/v1/organizations/setup', body, headers);
    expect(setup.status, setup.text).toBe(200);
    return {
      ...partner,
      headers,
      internalOrgId: body.internalOrgId as string,
      internalUserId: body.internalUserId as string,
    };
  }
  type BillingPartner = Awaited<ReturnType<typeof aBillingPartner>>;

  const invoicesOf = (partner: BillingPartner, query = '') =>
    stackOf().get(`/v1/invoices?internal_org_id=${partner.internalOrgId}${query}`, partner.headers);

  /** A sandbox order shipped, and the id of the invoice the invoicing consumer issued for it. */
  async function anIssuedInvoice(partner: BillingPartner): Promise<string> {
    const stack = stackOf();
    const placed = await stack.post(
      '/v1/sandbox/orders',
      { internal_user_id: partner.internalUserId, items: [{ product_id: PRODUCT_ID, quantity: 2 }] },
      partner.headers,
    );
    expect(placed.status, placed.text).toBe(201);
    const orderId = placed.body.order.id as string;
    expect((await stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, partner.headers)).status).toBe(200);
    expect((await stack.post(`/v1/sandbox/orders/${orderId}/ship`, {}, partner.headers)).status).toBe(200);
    return vi.waitFor(
      async () => {
        const listed = await invoicesOf(partner, `&order_id=${orderId}`);
        expect(listed.body.data, listed.text).toHaveLength(1);
        return listed.body.data[0].id as string;
      },
      { timeout: 20_000, interval: 100 },
    );
  }

  const invoiceStatus = async (partner: BillingPartner, invoiceId: string) =>
    (await stackOf().get(`/v1/invoices/${invoiceId}`, partner.headers)).body.status as string;

  const act = (partner: BillingPartner, invoiceId: string, action: InvoiceAction, body: unknown = {}) =>
    stackOf().post(`/v1/sandbox/invoices/${invoiceId}/${action}`, body, partner.headers);

  const keyWith = async (...scopes: ('organization:write' | 'orders:read' | 'orders:write')[]) =>
    bearer((await stackOf().createPartner({ scopes })).apiKey);

  /** The partner's window for the route's budget used up, so its next request is a 429. */
  async function rateLimited(
    route: ApiRouteName,
    send: (partner: Awaited<ReturnType<TestStack['createPartner']>>) => Promise<TestResponse>,
  ) {
    const partner = await stackOf().createPartner();
    const { endpoint, limitPerMinute } = apiRoute(route);
    await exhaustRateLimit(stackOf(), partner.partnerId, endpoint, limitPerMinute);
    return send(partner);
  }

  const withOrdersFailing = (send: () => Promise<TestResponse>) =>
    whileFailing(stackOf(), 'dynamodb', (call) => call.target.split('+').includes('orders'), send);

  /** A Stripe event as Stripe sends it, signed with the stack's endpoint secret unless told otherwise. */
  function postStripeEvent(event: Record<string, unknown> | string, secret?: string) {
    const stack = stackOf();
    const payload = typeof event === 'string' ? event : JSON.stringify(event);
    const signature = stripeStandIn().webhooks.generateTestHeaderString({
      payload,
      secret: secret ?? (stack.config.STRIPE_WEBHOOK_SECRET as string),
    });
    return stack.post('/v1/stripe/events', payload, { 'Stripe-Signature': signature });
  }
  const anInvoicePaidEvent = (orderId: string, stripeInvoiceId = `in_${randomUUID().slice(0, 8)}`) => ({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type: 'invoice.paid',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: stripeInvoiceId,
        object: 'invoice',
        amount_paid: 100,
        amount_remaining: 0,
        metadata: { orderId },
      },
    },
  });

  /**
   * The overdue action as it is composed against Stripe itself (not the stand-in), for the
   * request: Stripe cannot make an invoice fall due early, which is the 501.
   */
  async function onStripeItself(send: () => Promise<TestResponse>) {
    const deps = stackOf().deps.functions.ordersApi as { sandboxInvoices: SandboxInvoices };
    const onStandIn = deps.sandboxInvoices;
    deps.sandboxInvoices = new SandboxInvoices(
      storedInvoices(),
      new StripeSandboxPayments(() => Promise.resolve(stripeStandIn()), false),
    );
    try {
      return await send();
    } finally {
      deps.sandboxInvoices = onStandIn;
    }
  }

  const actionScenarios = (action: InvoiceAction): Record<number, Scenario[]> => {
    const scenarios: Record<number, Scenario[]> = {
      202: [
        [
          'an open invoice',
          async () => {
            const partner = await aBillingPartner();
            return act(partner, await anIssuedInvoice(partner), action);
          },
        ],
      ],
      400: [
        [
          'malformed JSON',
          async () => {
            const partner = await aBillingPartner();
            return act(partner, UNKNOWN_INVOICE, action, '{');
          },
        ],
      ],
      401: [['no key', async () => stackOf().post(`/v1/sandbox/invoices/${UNKNOWN_INVOICE}/${action}`, {})]],
      403: [
        [
          'a key without orders:write',
          async () =>
            stackOf().post(`/v1/sandbox/invoices/${UNKNOWN_INVOICE}/${action}`, {}, await keyWith('orders:read')),
        ],
      ],
      404: [
        ['an unknown invoice', async () => act(await aBillingPartner(), UNKNOWN_INVOICE, action)],
        ['an id that is not an invoice id', async () => act(await aBillingPartner(), 'inv_nope', action)],
        [
          "another partner's invoice",
          async () => {
            const owner = await aBillingPartner();
            return act(await aBillingPartner(), await anIssuedInvoice(owner), action);
          },
        ],
      ],
      409: [
        [
          'INVOICE_NOT_OPEN: paid already',
          async () => {
            const partner = await aBillingPartner();
            const invoiceId = await anIssuedInvoice(partner);
            expect((await act(partner, invoiceId, 'pay')).status).toBe(202);
            await vi.waitFor(async () => expect(await invoiceStatus(partner, invoiceId)).toBe('paid'), {
              timeout: 10_000,
              interval: 100,
            });
            const response = await act(partner, invoiceId, action);
            expect(response.body.code).toBe('INVOICE_NOT_OPEN');
            return response;
          },
        ],
      ],
      429: [
        [
          'over 60 a minute (pay and overdue together)',
          async () =>
            rateLimited(`sandbox-invoice-${action}`, (partner) =>
              stackOf().post(`/v1/sandbox/invoices/${UNKNOWN_INVOICE}/${action}`, {}, bearer(partner.apiKey)),
            ),
        ],
      ],
      500: [
        [
          'the invoice store down',
          async () => {
            const partner = await aBillingPartner();
            return withOrdersFailing(() => act(partner, UNKNOWN_INVOICE, action));
          },
        ],
      ],
    };
    // Only overdue can be unsupported: Stripe pays a test invoice, but cannot make one fall due early.
    if (action === 'overdue')
      scenarios[501] = [
        [
          'on Stripe itself',
          async () => {
            const partner = await aBillingPartner();
            const invoiceId = await anIssuedInvoice(partner);
            const response = await onStripeItself(() => act(partner, invoiceId, 'overdue'));
            expect(await invoiceStatus(partner, invoiceId)).toBe('open');
            return response;
          },
        ],
      ];
    return scenarios;
  };

  return {
    'GET /v1/invoices': {
      200: [
        ['an organization without invoices', async () => invoicesOf(await aBillingPartner())],
        [
          'an issued invoice',
          async () => {
            const partner = await aBillingPartner();
            await anIssuedInvoice(partner);
            return invoicesOf(partner);
          },
        ],
      ],
      400: [['an unknown status', async () => invoicesOf(await aBillingPartner(), '&status=sent')]],
      401: [['no key', async () => stackOf().get('/v1/invoices?internal_org_id=acme-1')]],
      403: [
        [
          'a key without orders:read',
          async () => stackOf().get('/v1/invoices?internal_org_id=acme-1', await keyWith('orders:write')),
        ],
      ],
      404: [
        [
          'an unknown organization',
          async () => stackOf().get('/v1/invoices?internal_org_id=nobody', (await aBillingPartner()).headers),
        ],
      ],
      429: [
        [
          'over the order reads budget',
          async () =>
            rateLimited('invoice-list', (partner) =>
              stackOf().get('/v1/invoices?internal_org_id=acme-1', bearer(partner.apiKey)),
            ),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const partner = await aBillingPartner();
            return withOrdersFailing(() => invoicesOf(partner));
          },
        ],
      ],
    },
    'GET /v1/invoices/{invoice_id}': {
      200: [
        [
          'an issued invoice',
          async () => {
            const partner = await aBillingPartner();
            return stackOf().get(`/v1/invoices/${await anIssuedInvoice(partner)}`, partner.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().get(`/v1/invoices/${UNKNOWN_INVOICE}`)]],
      403: [
        [
          'a key without orders:read',
          async () => stackOf().get(`/v1/invoices/${UNKNOWN_INVOICE}`, await keyWith('orders:write')),
        ],
      ],
      404: [
        [
          'an unknown invoice',
          async () => stackOf().get(`/v1/invoices/${UNKNOWN_INVOICE}`, (await aBillingPartner()).headers),
        ],
        [
          'an id that is not an invoice id',
          async () => stackOf().get('/v1/invoices/not-an-invoice', (await aBillingPartner()).headers),
        ],
      ],
      429: [
        [
          'over the order reads budget',
          async () =>
            rateLimited('invoice-get', (partner) =>
              stackOf().get(`/v1/invoices/${UNKNOWN_INVOICE}`, bearer(partner.apiKey)),
            ),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const partner = await aBillingPartner();
            return withOrdersFailing(() => stackOf().get(`/v1/invoices/${UNKNOWN_INVOICE}`, partner.headers));
          },
        ],
      ],
    },
    'POST /v1/sandbox/invoices/{invoice_id}/pay': actionScenarios('pay'),
    'POST /v1/sandbox/invoices/{invoice_id}/overdue': actionScenarios('overdue'),
    'POST /v1/stripe/events': {
      200: [
        [
          'a kind the service does not follow',
          async () =>
            postStripeEvent({
              id: `evt_${randomUUID().replaceAll('-', '')}`,
              object: 'event',
              type: 'customer.created',
              created: Math.floor(Date.now() / 1000),
              data: { object: { id: 'cus_1', object: 'customer' } },
            }),
        ],
        [
          'invoice.paid for an issued invoice, applied',
          async () => {
            const partner = await aBillingPartner();
            const invoiceId = await anIssuedInvoice(partner);
            const record = await storedInvoices().get(invoiceId);
            const response = await postStripeEvent(anInvoicePaidEvent(record!.orderId, record!.stripeInvoiceId));
            expect(response.body.outcome).toBe('applied');
            return response;
          },
        ],
      ],
      400: [
        ['a forged signature', async () => postStripeEvent(anInvoicePaidEvent(randomUUID()), 'whsec_not_the_stacks')],
        [
          'no signature',
          async () => stackOf().post('/v1/stripe/events', JSON.stringify(anInvoicePaidEvent(randomUUID()))),
        ],
        ['a malformed body, signed', async () => postStripeEvent('{"not": "json"')],
        ['an oversized body, signed', async () => postStripeEvent('x'.repeat(300 * 1024))],
      ],
      500: [
        [
          'the invoice store down',
          async () => withOrdersFailing(() => postStripeEvent(anInvoicePaidEvent(randomUUID()))),
        ],
      ],
      503: [
        [
          'INVOICE_NOT_RECORDED_YET: an invoice the service has not recorded',
          async () => postStripeEvent(anInvoicePaidEvent(randomUUID())),
        ],
      ],
    },
  };
}
