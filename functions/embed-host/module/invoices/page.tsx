import type { VNode } from 'preact';
import type { InvoiceRecord } from '../../../domain/billing/invoice';
import type { OrganizationStatement } from '../../../domain/billing/organization-statement';
import { OVERDUE_AGES } from '../../../domain/billing/organization-statement';
import { MAX_INVOICES_SEARCHED } from '../../../domain/billing/partner-invoices';
import type { Cents } from '../../../domain/money';
import { css } from '../../html-page';
import { type ModuleFrame, modulePage, shortOrderId, Usd, When } from '../layout';
import { INVOICE_PARTS_STYLE, INVOICE_STATUS_LABEL, InvoiceBadge } from '../parts/invoice-parts';

/** The Status filter's values: the statuses a buyer follows, and all (void and uncollectible show under all only). */
export const INVOICE_FILTERS = ['all', 'open', 'overdue', 'paid'] as const;
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];

const INVOICES_STYLE = css`
.balance{display:flex;flex-wrap:wrap;gap:4px 18px;align-items:baseline;margin:0 0 18px}
.balance strong{font-size:26px;font-variant-numeric:tabular-nums}
.invoices{list-style:none;margin:0;padding:0}
.invoices li{display:grid;grid-template-columns:minmax(0,1.2fr) minmax(0,1.4fr) auto auto;gap:4px 16px;align-items:center;padding:12px 16px;border-bottom:1px solid var(--line)}
.invoices li:last-child{border-bottom:0}
.invoices li.overdue{background:var(--bad-bg);box-shadow:inset 4px 0 0 var(--bad)}
.invoices .number{font-weight:650;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.invoices .amount{font-weight:700;text-align:right;font-variant-numeric:tabular-nums}
.invoices .badge{justify-self:end}
@media (max-width:560px){.invoices li{grid-template-columns:minmax(0,1fr) auto;grid-template-areas:"id amount" "when badge"}.invoices .id{grid-area:id}.invoices .when{grid-area:when}.invoices .amount{grid-area:amount}.invoices .badge{grid-area:badge}}
.filter{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0 0 14px}
.filter label{font-weight:600}
.invoices .links{grid-column:1/-1;display:flex;flex-wrap:wrap;gap:4px 16px}
.invoices .money{grid-column:1/-1}
.search{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0 0 14px}
.search label{font-weight:600}
`;

const FILTER_LABEL: Readonly<Record<InvoiceFilter, string>> = {
  all: 'All invoices',
  open: INVOICE_STATUS_LABEL.open,
  overdue: INVOICE_STATUS_LABEL.overdue,
  paid: INVOICE_STATUS_LABEL.paid,
};

export interface InvoicesView {
  readonly invoices: readonly InvoiceRecord[];
  readonly statement: OrganizationStatement;
  readonly filter: InvoiceFilter;
  /** The next page's address, when older invoices follow. */
  readonly olderHref?: string;
  /** A search's text, and whether every invoice was searched (the newest MAX_INVOICES_SEARCHED are). */
  readonly search?: { readonly text: string; readonly complete: boolean };
}

/** "Dec 22, 2036": a due date is a day, in the organization's zone. */
const DateOnly = ({ iso, zone }: { iso: string; zone: string }): VNode => (
  <time datetime={iso}>
    {new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: zone }).format(
      new Date(iso),
    )}
  </time>
);

const OWING = new Set(['open', 'overdue']);

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

const Balance = ({ statement }: { statement: OrganizationStatement }): VNode => {
  const overdueCents = OVERDUE_AGES.reduce((sum, age) => sum + statement.overdueCents[age], 0);
  return (
    <section class="panel balance" aria-labelledby="total-due">
      <h2 id="total-due" style="margin:0">
        Total due
      </h2>
      <strong data-testid="open-total">
        <Usd cents={statement.totalDueCents as Cents} />
      </strong>
      <span class="meta">
        {statement.invoices.length === 0
          ? 'Nothing to pay'
          : `on ${plural(statement.invoices.length, 'unpaid invoice')}, `}
        {statement.invoices.length > 0 && (
          <>
            <Usd cents={overdueCents as Cents} /> overdue
          </>
        )}
      </span>
    </section>
  );
};

/** The organization's invoices, newest first, under what it owes. */
export function invoicesPage(frame: ModuleFrame, view: InvoicesView): string {
  const { paths } = frame;
  return modulePage(
    frame,
    'invoices',
    'Invoices',
    <>
      <h1>Invoices</h1>
      <p class="lede">Every invoice of {frame.view.organization.name}'s shipped orders, newest first.</p>
      <Balance statement={view.statement} />
      <form class="search" method="get" action={paths.invoices} role="search">
        <label for="invoice-search">Search by invoice or PO number</label>
        <input id="invoice-search" name="q" type="search" maxLength={64} value={view.search?.text ?? ''} />
        <button type="submit">Search</button>
      </form>
      {view.search && (
        <p class="lede" data-testid="search-result" aria-live="polite">
          {plural(view.invoices.length, 'invoice')} {view.invoices.length === 1 ? 'matches' : 'match'} “
          {view.search.text}”{!view.search.complete && ` among the newest ${MAX_INVOICES_SEARCHED}`}.{' '}
          <a href={paths.invoices}>Show all invoices</a>
        </p>
      )}
      <form class="filter" method="get" action={paths.invoices}>
        <label for="status">Status</label>
        <select id="status" name="status" data-apply-on-change>
          {INVOICE_FILTERS.map((f) => (
            <option value={f === 'all' ? '' : f} selected={view.filter === f}>
              {FILTER_LABEL[f]}
            </option>
          ))}
        </select>
        <button type="submit">Filter</button>
      </form>
      {view.invoices.length ? (
        <>
          <section class="panel" style="padding:4px 0" aria-label="Invoices">
            <ul class="invoices">
              {view.invoices.map((invoice) => (
                <li class={invoice.status === 'overdue' ? 'overdue' : undefined} data-testid="invoice-row">
                  <span class="id">
                    <span class="number">Invoice {invoice.number}</span>
                    <br />
                    <a href={paths.order(invoice.orderId)}>Order {shortOrderId(invoice.orderId)}</a>
                  </span>
                  <span class="meta when">
                    Issued <When iso={invoice.issuedAt} zone={frame.timeZone} />
                    <br />
                    Due <DateOnly iso={invoice.dueDate} zone={frame.timeZone} />
                  </span>
                  <span class="amount">
                    <Usd cents={invoice.amountDueCents as Cents} />
                    <br />
                    <span class="meta">
                      due of <Usd cents={invoice.totalCents as Cents} />
                    </span>
                  </span>
                  <InvoiceBadge status={invoice.status} />
                  <span class="meta money" data-testid="invoice-money">
                    Paid <Usd cents={invoice.amountPaidCents as Cents} /> · Credited{' '}
                    <Usd cents={invoice.amountCreditedCents as Cents} />
                    {invoice.poNumber && ` · PO ${invoice.poNumber}`}
                  </span>
                  <span class="links">
                    <a href={invoice.hostedInvoiceUrl} target="_blank" rel="noopener noreferrer">
                      View invoice<span class="sr"> {invoice.number}</span>
                    </a>
                    <a href={invoice.invoicePdf} target="_blank" rel="noopener noreferrer">
                      Download PDF<span class="sr"> of invoice {invoice.number}</span>
                    </a>
                    {OWING.has(invoice.status) && (
                      <a class="pay" href={invoice.hostedInvoiceUrl} target="_blank" rel="noopener noreferrer">
                        Pay now<span class="sr"> invoice {invoice.number}</span>
                      </a>
                    )}
                  </span>
                </li>
              ))}
            </ul>
          </section>
          {view.olderHref && (
            <div class="actions">
              <a class="button" href={view.olderHref}>
                Older invoices
              </a>
            </div>
          )}
        </>
      ) : (
        <div class="panel problem">
          {view.filter === 'all' ? (
            <>
              <h2>No invoices yet</h2>
              <p class="lede">Each order is invoiced when it ships; its invoice appears here and on the order.</p>
            </>
          ) : (
            <>
              <h2>No {FILTER_LABEL[view.filter].toLowerCase()} invoices</h2>
              <p class="lede">
                <a href={paths.invoices}>Show all invoices</a>
              </p>
            </>
          )}
        </div>
      )}
    </>,
    [INVOICES_STYLE, INVOICE_PARTS_STYLE],
  );
}
