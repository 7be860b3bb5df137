import { HttpTransport, type TransportOptions } from './http-transport.js';
import { ApprovalRequests, SandboxApprovalRequests } from './resources/approval-requests.js';
import { Catalog } from './resources/catalog.js';
import { Invoices, SandboxInvoices } from './resources/invoices.js';
import { Orders } from './resources/orders.js';
import { Organizations } from './resources/organizations.js';
import { SandboxOrders } from './resources/sandbox-orders.js';
import { Sessions } from './resources/sessions.js';
import { WebhookDeliveries, WebhookEndpoints } from './resources/webhook-deliveries.js';
import { WebhookTests } from './resources/webhook-tests.js';
import { webhooks } from './webhooks/webhooks.js';

export type PartnerClientOptions = TransportOptions;

/**
 * The partner API from a server:
 *
 *   const client = new PartnerClient({ apiKey: process.env.PARTNER_API_KEY, baseUrl: 'https://api.example-procurement.com' });
 *   const { data } = await client.organizations.setup({ internalOrgId: 'acme-1', … });
 *   const { iframe_embed_url } = await client.sessions.handshake({ internalUserId: 'u-1' });
 *
 * Each method resolves to the route's documented success body and rejects with a
 * PartnerError subclass. Rate limits, 5xx and network failures are retried (at most
 * `maxRetries` times, exponential backoff with full jitter, never sooner than a 429's
 * `retry_after`); setup carries an `Idempotency-Key` its retries reuse.
 */
export class PartnerClient {
  readonly organizations: Organizations;
  readonly sessions: Sessions;
  readonly catalog: Catalog;
  readonly orders: Orders;
  /** Your organizations' invoices (one per shipped order). */
  readonly invoices: Invoices;
  /** Carts above their user's order limit, waiting for (or given) an approver's decision. */
  readonly approvalRequests: ApprovalRequests;
  /** Sandbox only: place and advance orders, decide approval requests as one of your approvers, pay invoices. */
  readonly sandbox: {
    readonly orders: SandboxOrders;
    readonly approvalRequests: SandboxApprovalRequests;
    readonly invoices: SandboxInvoices;
  };
  /**
   * Verifying deliveries (`verify`, `constructEvent`; no key needed), your delivery log
   * (`deliveries.list`, `retrieve`, `retry`) and endpoint (`endpoint.retrieve`), and, on sandbox, `sendTest`.
   */
  readonly webhooks: typeof webhooks &
    Pick<WebhookTests, 'sendTest'> & { readonly deliveries: WebhookDeliveries; readonly endpoint: WebhookEndpoints };

  constructor(options: PartnerClientOptions) {
    const transport = new HttpTransport(options);
    this.organizations = new Organizations(transport);
    this.sessions = new Sessions(transport);
    this.catalog = new Catalog(transport);
    this.orders = new Orders(transport);
    this.invoices = new Invoices(transport);
    this.approvalRequests = new ApprovalRequests(transport);
    this.sandbox = {
      orders: new SandboxOrders(transport),
      approvalRequests: new SandboxApprovalRequests(transport),
      invoices: new SandboxInvoices(transport),
    };
    const tests = new WebhookTests(transport);
    this.webhooks = {
      ...webhooks,
      sendTest: (input) => tests.sendTest(input),
      deliveries: new WebhookDeliveries(transport),
      endpoint: new WebhookEndpoints(transport),
    };
  }
}
