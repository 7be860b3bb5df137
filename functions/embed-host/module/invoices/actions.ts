import { ValidationFailed } from '../../../domain/errors';
import type { InvoiceStatus } from '../../../domain/billing/invoice';
import { html, type HttpResponse } from '../../../http/responses';
import { type ModuleRequest, moduleFrame, moduleSession } from '../module-session';
import { INVOICE_FILTERS, type InvoiceFilter, invoicesPage } from './page';

const INVOICES_PER_PAGE = 20;

/**
 * `GET /embedded/{partnerId}/invoices[?status=…&after=…]`: the organization's invoices,
 * newest first, 20 a page, optionally of one status (blank or `all` means all; anything
 * else is the 400 page), under what the organization owes.
 */
export async function listInvoices(request: ModuleRequest): Promise<HttpResponse> {
  const session = await moduleSession(request);
  const query = request.event.queryStringParameters ?? {};
  const filter = invoiceFilter(query.status);
  const status: InvoiceStatus | undefined = filter === 'all' ? undefined : filter;
  const organizationId = session.view.organization.id;
  const [frame, page, balance] = await Promise.all([
    moduleFrame(request.deps, session),
    request.deps.invoices.ofOrganization(organizationId, {
      limit: INVOICES_PER_PAGE,
      ...(query.after ? { startingAfter: query.after } : {}),
      ...(status ? { status } : {}),
    }),
    request.deps.invoices.openBalance(organizationId),
  ]);
  const last = page.invoices.at(-1);
  return html(
    200,
    invoicesPage(frame, {
      invoices: page.invoices,
      balance,
      filter,
      ...(page.hasMore && last ? { olderHref: session.paths.invoiceList({ status, after: last.id }) } : {}),
    }),
  );
}

function invoiceFilter(value: string | undefined): InvoiceFilter {
  if (value === undefined || value === '') return 'all';
  const known = INVOICE_FILTERS.find((filter) => filter === value);
  if (known) return known;
  throw new ValidationFailed([
    {
      code: 'INVALID_VALUE',
      message: `Choose a status from the list (${INVOICE_FILTERS.join(', ')})`,
      path: ['status'],
    },
  ]);
}
