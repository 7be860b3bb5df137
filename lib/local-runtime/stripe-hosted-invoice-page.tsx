/**
 * The Stripe stand-in's hosted invoice page: what a buyer sees behind `hosted_invoice_url`
 * (number, status, lines, amount due) with a `Pay` button while the invoice is open.
 * Rendered by preact, so every value is escaped by the renderer.
 */
import type Stripe from 'stripe';
import { css, InlineStyle, renderHtmlPage } from '../../functions/embed-host/html-page';
import { formatUsd } from '../../functions/domain/money';

const STYLE = css`
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
  table { width: 100%; border-collapse: collapse; }
  td, th { padding: 0.25rem 0; text-align: left; }
  td.amount, th.amount { text-align: right; }
  button { font: inherit; padding: 0.5rem 1.5rem; }
`;

const STATUS_WORDS: Record<string, string> = {
  draft: 'Draft',
  open: 'Open',
  paid: 'Paid',
  void: 'Void',
  uncollectible: 'Uncollectible',
};

export function hostedInvoicePage(invoice: Stripe.Invoice, payPath: string): string {
  const due = invoice.due_date ? new Date(invoice.due_date * 1000).toISOString().slice(0, 10) : '—';
  return renderHtmlPage(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`Invoice ${invoice.number ?? invoice.id}`}</title>
        <InlineStyle sheets={[STYLE]} />
      </head>
      <body>
        <main>
          <h1>{`Invoice ${invoice.number ?? invoice.id}`}</h1>
          <p>
            Status: <strong>{STATUS_WORDS[invoice.status ?? 'draft'] ?? invoice.status}</strong> · Due {due}
          </p>
          <table>
            <thead>
              <tr>
                <th>Item</th>
                <th class="amount">Amount</th>
              </tr>
            </thead>
            <tbody>
              {invoice.lines.data.map((line) => (
                <tr key={line.id}>
                  <td>{`${line.description ?? ''}${line.quantity && line.quantity > 1 ? ` × ${line.quantity}` : ''}`}</td>
                  <td class="amount">{formatUsd(line.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            Total {formatUsd(invoice.total)} · Amount due <strong>{formatUsd(invoice.amount_remaining)}</strong>
          </p>
          {invoice.status === 'open' ? (
            <form method="post" action={payPath}>
              <button type="submit">Pay</button>
            </form>
          ) : null}
        </main>
      </body>
    </html>,
  );
}
