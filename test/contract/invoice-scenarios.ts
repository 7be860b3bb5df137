/**
 * The invoice routes against the document (docs/billing.md): the partner's reads, the
 * sandbox's pay and overdue, and Stripe's events in. An invoice here is the real thing:
 * an organization set up through the API (a Stripe customer at the stand-in), an order
 * shipped through the sandbox and invoiced by the stack's own invoicing consumer.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { StripeSandboxPayments } from '../../functions/adapters/stripe-sandbox-payments';
import { invoiceRepository } from '../../functions/composition/repositories';
import { SandboxInvoices } from '../../functions/domain/billing/sandbox-invoices';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import { apiRoute, type ApiEndpointName } from '../../functions/routes';
import { whileFailing } from '../support/fault-plan';
import { stripeStandIn } from '../support/inspect';
import { exhaustRateLimit } from '../support/rate-limit';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import type { TestResponse, TestStack } from '../support/test-stack';
import type { Scenario, Scenarios } from './order-api-scenarios';

const PRODUCT_ID = SEED_CATALOG.find((product) => product.active)!.product_id;
const UNKNOWN_INVOICE = `inv_${'0'.repeat(32)}`;

export function invoiceScenarios(stackOf: () => TestStack): Scenarios {
  const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });

  /** A partner with one organization set up through the API, so it has a Stripe customer. */
  async function aBillingPartner() {
    const stack = stackOf();
    const partner = await stack.createPartner();
    const headers = bearer(partner.apiKey);
    const body = aSetupRequest()
      .withLocations(aLocation('loc-main', { isDefault: true }))
      .build();
    const setup = await stack.post('/v1/organizations/setup', body, headers);
    expect(setup.status, setup.text).toBe(200);
    return { ...partner, headers, internalOrgId: body.internalOrgId, internalUserId: body.internalUserId };
  }
  type BillingPartner = Awaited<ReturnType<typeof aBillingPartner>>;

  /** A shipped order's invoice, once the stack's invoicing consumer has issued it. */
  async function anInvoice(partner?: BillingPartner): Promise<{ partner: BillingPartner; id: string }> {
    const stack = stackOf();
    const owner = partner ?? (await aBillingPartner());
    const placed = await stack.post(
      '/v1/sandbox/orders',
      { internal_user_id: owner.internalUserId, items: [{ product_id: PRODUCT_ID, quantity: 1 }] },
      owner.headers,
    );
    expect(placed.status, placed.text).toBe(201);
    const orderId = placed.body.order.id as string;
    for (const action of ['confirm', 'ship'])
      expect((await stack.post(`/v1/sandbox/orders/${orderId}/${action}`, {}, owner.headers)).status).toBe(200);
    let id: string | undefined;
    await expect
      .poll(
        async () => {
          id = (await stack.get(`/v1/orders/${orderId}`, owner.headers)).body.invoice?.id;
          return id;
        },
        { timeout: 20_000 },
      )
      .toMatch(/^inv_/);
    return { partner: owner, id: id as string };
  }

  /** Waits until Stripe's event about the invoice has come back through the service. */
  async function statusBecomes(partner: BillingPartner, id: string, status: string) {
    await expect
      .poll(async () => (await stackOf().get(`/v1/invoices/${id}`, partner.headers)).body.status, { timeout: 20_000 })
      .toBe(status);
  }

  /** A key of a new partner with only these scopes. */
  const keyWith = async (...scopes: ('organization:write' | 'orders:read' | 'orders:write')[]) =>
    bearer((await stackOf().createPartner({ scopes })).apiKey);

  async function rateLimited(
    endpoint: ApiEndpointName,
    limit: number,
    send: (partner: BillingPartner) => Promise<TestResponse>,
  ) {
    const partner = await aBillingPartner();
    await exhaustRateLimit(stackOf(), partner.partnerId, endpoint, limit);
    return send(partner);
  }

  const withOrdersFailing = (send: () => Promise<TestResponse>) =>
    whileFailing(stackOf(), 'dynamodb', (call) => call.target.split('+').includes('orders'), send);

  const list = (partner: BillingPartner, query = '') =>
    stackOf().get(`/v1/invoices?internal_org_id=${partner.internalOrgId}${query}`, partner.headers);

  const sandboxAction = (verb: 'pay' | 'overdue'): Record<number, Scenario[]> => {
    const act = (headers: Record<string, string>, id: string, body: unknown = {}) =>
      stackOf().post(`/v1/sandbox/invoices/${id}/${verb}`, body, headers);
    return {
      202: [
        [
          'an open invoice',
          async () => {
            const { partner, id } = await anInvoice();
            return act(partner.headers, id);
          },
        ],
      ],
      400: [
        [
          'malformed JSON',
          async () => {
            const { partner, id } = await anInvoice();
            return act(partner.headers, id, '{');
          },
        ],
      ],
      401: [['no key', async () => stackOf().post(`/v1/sandbox/invoices/${UNKNOWN_INVOICE}/${verb}`, {})]],
      403: [['a key without orders:write', async () => act(await keyWith('orders:read'), UNKNOWN_INVOICE)]],
      404: [
        ['an unknown invoice', async () => act((await aBillingPartner()).headers, UNKNOWN_INVOICE)],
        [
          "another partner's invoice",
          async () => {
            const { id } = await anInvoice();
            return act((await aBillingPartner()).headers, id);
          },
        ],
      ],
      409: [
        [
          'INVOICE_NOT_OPEN: paid already',
          async () => {
            const { partner, id } = await anInvoice();
            expect((await stackOf().post(`/v1/sandbox/invoices/${id}/pay`, {}, partner.headers)).status).toBe(202);
            await statusBecomes(partner, id, 'paid');
            const refused = await act(partner.headers, id);
            expect(refused.body.code).toBe('INVOICE_NOT_OPEN');
            return refused;
          },
        ],
      ],
      429: [
        [
          'over 60 a minute (pay and overdue together)',
          async () =>
            rateLimited('sandbox-invoice-action', apiRoute('sandbox-invoice-pay').limitPerMinute, (partner) =>
              act(partner.headers, UNKNOWN_INVOICE),
            ),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const { partner, id } = await anInvoice();
            return withOrdersFailing(() => act(partner.headers, id));
          },
        ],
      ],
      ...((verb === 'overdue'
        ? {
            501: [
              [
                'a stack on Stripe itself, whose test mode cannot make an invoice fall due early',
                async () => {
                  const { partner, id } = await anInvoice();
                  const ordersApi = stackOf().deps.functions.ordersApi as { sandboxInvoices: SandboxInvoices };
                  const onStandIn = ordersApi.sandboxInvoices;
                  ordersApi.sandboxInvoices = new SandboxInvoices(
                    invoiceRepository({ config: stackOf().config, db: stackOf().deps.aws.db }, stackOf().deps.clock),
                    new StripeSandboxPayments(async () => stripeStandIn(), false),
                  );
                  try {
                    return await act(partner.headers, id);
                  } finally {
                    ordersApi.sandboxInvoices = onStandIn;
                  }
                },
              ],
            ] as Scenario[],
          }
        : {}) as Record<number, Scenario[]>),
    };
  };

  /** A Stripe event, signed as Stripe signs it with the stack's endpoint secret unless `signature` says otherwise. */
  const stripeEvent = (event: Record<string, unknown>, signature?: string | null) => {
    const payload = JSON.stringify({ id: `evt_${randomUUID().replaceAll('-', '')}`, object: 'event', ...event });
    const header =
      signature === undefined
        ? stripeStandIn().webhooks.generateTestHeaderString({
            payload,
            secret: stackOf().config.STRIPE_WEBHOOK_SECRET as string,
          })
        : signature;
    return stackOf().post('/v1/stripe/events', payload, header === null ? {} : { 'Stripe-Signature': header });
  };
  const invoicePaid = (orderId: string) => ({
    type: 'invoice.paid',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: `in_${randomUUID().slice(0, 12)}`, object: 'invoice', metadata: { orderId } } },
  });

  return {
    'GET /v1/invoices': {
      200: [
        ['an organization without invoices', async () => list(await aBillingPartner())],
        [
          'an organization with an invoice',
          async () => {
            const { partner } = await anInvoice();
            return list(partner);
          },
        ],
      ],
      400: [['an unknown status', async () => list(await aBillingPartner(), '&status=sent')]],
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
          async () => rateLimited('invoice-list', apiRoute('invoice-list').limitPerMinute, (partner) => list(partner)),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const partner = await aBillingPartner();
            return withOrdersFailing(() => list(partner));
          },
        ],
      ],
    },
    'GET /v1/invoices/{invoice_id}': {
      200: [
        [
          'an issued invoice',
          async () => {
            const { partner, id } = await anInvoice();
            return stackOf().get(`/v1/invoices/${id}`, partner.headers);
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
            rateLimited('invoice-get', apiRoute('invoice-get').limitPerMinute, (partner) =>
              stackOf().get(`/v1/invoices/${UNKNOWN_INVOICE}`, partner.headers),
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
    'GET /v1/organizations/{internalOrgId}/statement': {
      200: [
        [
          'an organization with an open invoice',
          async () => {
            const { partner } = await anInvoice();
            return stackOf().get(`/v1/organizations/${partner.internalOrgId}/statement`, partner.headers);
          },
        ],
        [
          'an organization without invoices',
          async () => {
            const partner = await aBillingPartner();
            return stackOf().get(`/v1/organizations/${partner.internalOrgId}/statement`, partner.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().get('/v1/organizations/acme-1/statement')]],
      403: [
        [
          'a key without orders:read',
          async () => stackOf().get('/v1/organizations/acme-1/statement', await keyWith('orders:write')),
        ],
      ],
      404: [
        [
          'an unknown organization',
          async () => stackOf().get('/v1/organizations/nobody/statement', (await aBillingPartner()).headers),
        ],
      ],
      429: [
        [
          'over the order reads budget',
          async () =>
            rateLimited('organization-statement', apiRoute('organization-statement').limitPerMinute, (partner) =>
              stackOf().get(`/v1/organizations/${partner.internalOrgId}/statement`, partner.headers),
            ),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const partner = await aBillingPartner();
            return withOrdersFailing(() =>
              stackOf().get(`/v1/organizations/${partner.internalOrgId}/statement`, partner.headers),
            );
          },
        ],
      ],
    },
    'POST /v1/sandbox/invoices/{invoice_id}/pay': sandboxAction('pay'),
    'POST /v1/sandbox/invoices/{invoice_id}/overdue': sandboxAction('overdue'),
    'POST /v1/stripe/events': {
      200: [
        [
          'a kind the service does not follow',
          async () => stripeEvent({ type: 'customer.created', created: 1, data: { object: { id: 'cus_1' } } }),
        ],
      ],
      400: [
        ['no Stripe-Signature', async () => stripeEvent(invoicePaid(randomUUID()), null)],
        ['a forged signature', async () => stripeEvent(invoicePaid(randomUUID()), 't=1,v1=' + '0'.repeat(64))],
      ],
      500: [['the order store down', async () => withOrdersFailing(() => stripeEvent(invoicePaid(randomUUID())))]],
      503: [['an invoice the service has not recorded yet', async () => stripeEvent(invoicePaid(randomUUID()))]],
    },
  };
}
