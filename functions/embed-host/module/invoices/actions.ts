import { ValidationFailed } from '../../../domain/errors';
import type { InvoiceStatus } from '../../../domain/billing/invoice';
import { html, type HttpResponse } from '../../../http/responses';
import { type ModuleRequest, moduleFrame, moduleSession } from '../module-session';
import { INVOICE_FILTERS, type InvoiceFilter, invoicesPage } from './page';

const INVOICES_PER_PAGE = 20;

/** Longer searches are cut here: no invoice or PO number is longer. */
const MAX_SEARCH_LENGTH = 64;

/**
 * `GET /embedded/{partnerId}/invoices[?status=…&after=…|?q=…]`: the organization's invoices,
 * newest first, 20 a page, optionally of one status (blank or `all` means all; anything
 * else is the 400 page), or those whose invoice or PO number contains `q`, under what the
 * organization owes (its statement's total due).
 */
export async function listInvoices(request: ModuleRequest): Promise<HttpResponse> {
  const session = await moduleSession(request);
  const query = request.event.queryStringParameters ?? {};
  const search = (query.q ?? '').trim().slice(0, MAX_SEARCH_LENGTH);
  const filter = invoiceFilter(query.status);
  const status: InvoiceStatus | undefined = filter === 'all' ? undefined : filter;
  const { organization } = session.view;
  const [frame, statement] = await Promise.all([
    moduleFrame(request.deps, session),
    request.deps.statements.statement(organization.partnerId, organization.internalOrgId),
  ]);
  if (search) {
    const found = await request.deps.invoices.search(organization.id, search);
    return html(
      200,
      invoicesPage(frame, { invoices: found.invoices, statement, filter: 'all', search: { ...found, text: search } }),
    );
  }
  const page = await request.deps.invoices.ofOrganization(organization.id, {
    limit: INVOICES_PER_PAGE,
    ...(query.after ? { startingAfter: query.after } : {}),
    ...(status ? { status } : {}),
  });
  const last = page.invoices.at(-1);
  return html(
    200,
    invoicesPage(frame, {
      invoices: page.invoices,
      statement,
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
