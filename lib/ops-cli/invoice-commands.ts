/**
 * Operator commands for invoices (`invoices list`, `invoices show`, `invoices reissue`).
 * Reissuing runs the invoicing consumer's own idempotent issue for the order: its Stripe
 * calls are keyed by the order, so an order whose message died on the dead-letter queue
 * gets its one invoice, and an order that already has one gets that one back.
 */
import { z } from 'zod';
import type { Dependencies } from '../../functions/container';
import { INVOICE_STATUSES, type InvoiceRecord } from '../../functions/domain/billing/invoice';
import { MAX_INVOICE_PAGE_SIZE } from '../../functions/domain/billing/invoice-repository';
import { NotFound } from '../../functions/domain/errors';
import { formatUsd } from '../../functions/domain/money';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { fieldLines, tableLines } from './human-format';
import { type CommandTable, defineCommand, UsageError } from './ops-command';
import { findOrder } from './order-lookup';
import { InternalOrgIdOption, OrderIdOption, partnerOption } from './option-schemas';

type Deps = Pick<Dependencies, 'partners' | 'organizations' | 'orders' | 'functions'>;

const invoiceView = (invoice: InvoiceRecord) => ({
  id: invoice.id,
  orderId: invoice.orderId,
  partnerId: invoice.partnerId,
  internalOrgId: invoice.internalOrgId,
  stripeInvoiceId: invoice.stripeInvoiceId,
  number: invoice.number,
  status: invoice.status,
  totalCents: invoice.totalCents,
  amountDueCents: invoice.amountDueCents,
  amountPaidCents: invoice.amountPaidCents,
  amountCreditedCents: invoice.amountCreditedCents,
  dueDate: invoice.dueDate,
});

/** `invoices list --partner ID [--org ID] [--status S]`: newest first, per organization. */
async function listInvoices(
  deps: Deps,
  options: { partner: PartnerId; org?: string | undefined; status?: InvoiceRecord['status'] | undefined },
) {
  const partner = await deps.partners.getPartner(options.partner);
  if (!partner) throw new NotFound(`No partner ${options.partner}`);
  const organizations = (await deps.organizations.listOrganizations(partner.id)).filter(
    (o) => options.org === undefined || o.internalOrgId === options.org,
  );
  if (options.org !== undefined && organizations.length === 0)
    throw new NotFound(`Partner ${partner.id} has no organization ${options.org}`);
  const invoices: InvoiceRecord[] = [];
  for (const organization of organizations) {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await deps.functions.invoicing.invoices.listByOrganization(organization.id, {
        limit: MAX_INVOICE_PAGE_SIZE,
        ...(startingAfter ? { startingAfter } : {}),
        ...(options.status ? { status: options.status } : {}),
      });
      invoices.push(...page.invoices);
      if (!page.hasMore || page.invoices.length === 0) break;
      startingAfter = page.invoices[page.invoices.length - 1]?.id;
    }
  }
  return { partnerId: partner.id, invoices: invoices.map(invoiceView) };
}

/** `invoices show --invoice ID` or `--order ID` (the UUID or the module's short id). */
async function showInvoice(deps: Deps, options: { invoice?: string | undefined; order?: string | undefined }) {
  if ((options.invoice === undefined) === (options.order === undefined))
    throw new UsageError('Give exactly one of --invoice and --order');
  const invoice = options.invoice
    ? await deps.functions.invoicing.invoices.get(options.invoice)
    : await deps.functions.invoicing.invoices.getByOrder((await findOrder(deps, options.order ?? '', {})).id);
  if (!invoice)
    throw new NotFound(options.invoice ? `No invoice ${options.invoice}` : `Order ${options.order} has no invoice`);
  return {
    ...invoiceView(invoice),
    hostedInvoiceUrl: invoice.hostedInvoiceUrl,
    invoicePdf: invoice.invoicePdf,
    creditNotes: invoice.creditNotes,
  };
}

/** One invoice for people: dollars as `list` prints them, its links, and each credit note. */
const invoiceDetailLines = (invoice: Awaited<ReturnType<typeof showInvoice>>): string[] => [
  ...fieldLines([
    ['id', invoice.id],
    ['number', invoice.number],
    ['order', invoice.orderId],
    ['partner', invoice.partnerId],
    ['org', invoice.internalOrgId],
    ['stripe invoice', invoice.stripeInvoiceId],
    ['status', invoice.status],
    ['total', formatUsd(invoice.totalCents)],
    ['paid', formatUsd(invoice.amountPaidCents)],
    ['credited', formatUsd(invoice.amountCreditedCents)],
    ['due', formatUsd(invoice.amountDueCents)],
    ['due date', invoice.dueDate],
    ['invoice page', invoice.hostedInvoiceUrl],
    ['PDF', invoice.invoicePdf],
  ]),
  ...(invoice.creditNotes.length === 0
    ? ['No credit notes.']
    : [
        'Credit notes:',
        ...tableLines(
          ['CREDIT NOTE', 'REFUND', 'AMOUNT', 'CREATED'],
          invoice.creditNotes.map((note) => [
            note.id,
            String(note.refundSequence),
            formatUsd(note.amountCents),
            note.createdAt,
          ]),
        ),
      ]),
];

/** `invoices reissue --order ID`: issues the order's invoice unless it has one; never a second. */
async function reissueInvoice(deps: Deps, options: { order: string }) {
  const order = await findOrder(deps, options.order, {});
  // A well-formed command about an order that has no invoice to issue: a failure (exit 1), not a usage error.
  if (order.status !== 'shipped' && order.status !== 'delivered')
    throw new Error(
      `Order ${order.id} is ${order.status}: only shipped and delivered orders are invoiced, so there is nothing to reissue`,
    );
  const before = await deps.functions.invoicing.invoices.getByOrder(order.id);
  const invoice = await deps.functions.invoicing.invoicing.issue(order.id);
  return { issued: before === undefined, invoice: invoiceView(invoice) };
}

const invoiceLines = (invoices: ReturnType<typeof invoiceView>[]) =>
  tableLines(
    ['INVOICE ID', 'NUMBER', 'ORDER', 'ORG', 'STATUS', 'TOTAL', 'DUE', 'DUE DATE'],
    invoices.map((i) => [
      i.id,
      i.number,
      i.orderId,
      i.internalOrgId,
      i.status,
      formatUsd(i.totalCents),
      formatUsd(i.amountDueCents),
      i.dueDate,
    ]),
  );

const orderOption = {
  schema: OrderIdOption,
  placeholder: 'ID',
  description: 'Order id: the UUID, or its first 8 characters as the module shows it (23a38da1)',
} as const;

export const invoiceCommands: CommandTable = {
  'invoices list': defineCommand({
    summary: "List a partner's invoices, newest first per organization",
    options: {
      partner: partnerOption,
      org: {
        schema: z.optional(InternalOrgIdOption),
        placeholder: 'INTERNAL_ORG_ID',
        description: 'Only this organization',
      },
      status: {
        schema: z.optional(z.enum(INVOICE_STATUSES)),
        placeholder: 'S',
        description: `Only this status: ${INVOICE_STATUSES.join(', ')}`,
      },
    },
    async run(deps, options) {
      const result = await listInvoices(deps, options);
      return {
        json: result,
        text: result.invoices.length === 0 ? ['No invoices.'] : invoiceLines(result.invoices),
      };
    },
  }),

  'invoices show': defineCommand({
    summary: 'Show one invoice, by its id or by its order',
    options: {
      invoice: { schema: z.optional(z.string().trim().min(1)), placeholder: 'ID', description: 'Invoice id (inv_…)' },
      order: { ...orderOption, schema: OrderIdOption.optional() },
    },
    async run(deps, options) {
      const invoice = await showInvoice(deps, options);
      return { json: invoice, text: invoiceDetailLines(invoice) };
    },
  }),

  'invoices reissue': defineCommand({
    summary: 'Issue the invoice of a shipped order whose invoicing failed for good (idempotent: never a second)',
    options: { order: orderOption },
    async run(deps, options) {
      const result = await reissueInvoice(deps, options);
      return {
        json: result,
        text: [
          result.issued
            ? `Issued invoice ${result.invoice.number} (${result.invoice.id}) for order ${result.invoice.orderId}.`
            : `Order ${result.invoice.orderId} already had invoice ${result.invoice.number} (${result.invoice.id}): nothing new issued.`,
        ],
      };
    },
  }),
};
