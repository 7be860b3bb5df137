import type { VNode } from 'preact';
import type { InvoiceStatus } from '../../../domain/billing/invoice';
import { css } from '../../html-page';

/** An invoice's status in words, as the buyer reads it. */
export const INVOICE_STATUS_LABEL: Readonly<Record<InvoiceStatus, string>> = {
  open: 'Open',
  paid: 'Paid',
  overdue: 'Overdue',
  void: 'Void',
  uncollectible: 'Uncollectible',
};

export const INVOICE_PARTS_STYLE = css`
.i-open{background:#e8effd;color:#1d4ed8;border-color:#c7d7fb}
.i-paid{background:var(--soft);color:var(--accent-ink);border-color:#bfe0d8}
.i-overdue{background:var(--bad);color:#fff;border-color:var(--bad);text-transform:uppercase;letter-spacing:.04em}
.i-void,.i-uncollectible{background:var(--bg);color:var(--muted)}
`;

/** The status as a word in a badge; overdue is a filled, capitalised badge, so it stands out without color too. */
export const InvoiceBadge = ({ status }: { status: InvoiceStatus }): VNode => (
  <span class={`badge i-${status}`} data-testid="invoice-status">
    {INVOICE_STATUS_LABEL[status]}
  </span>
);
