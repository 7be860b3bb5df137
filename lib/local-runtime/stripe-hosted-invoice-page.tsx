/**
 * The Stripe stand-in's hosted invoice page: what a buyer and a bookkeeper see behind
 * `hosted_invoice_url` (the invoice document, stripe-invoice-document.ts) with a `Pay`
 * button while the invoice is open and a link to its PDF. Rendered by preact, so every
 * value is escaped by the renderer.
 */
import { Fragment } from 'preact';
import { css, InlineStyle, renderHtmlPage } from '../../functions/embed-host/html-page';
import type { InvoiceDocument } from './stripe-invoice-document';

const STYLE = css`
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
  .parties { display: flex; flex-wrap: wrap; gap: 2rem; }
  .parties section { flex: 1 1 14rem; }
  h2 { font-size: 1rem; margin: 1rem 0 0.25rem; }
  address { font-style: normal; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; }
  dd { margin: 0; }
  table { width: 100%; border-collapse: collapse; }
  td, th { padding: 0.25rem 0.5rem 0.25rem 0; text-align: left; vertical-align: top; }
  td.amount, th.amount { text-align: right; }
  button { font: inherit; padding: 0.5rem 1.5rem; }
`;

const Party = ({ heading, lines }: { heading: string; lines: readonly string[] }) => (
  <section>
    <h2>{heading}</h2>
    <address>
      {lines.map((line, index) => (
        <div key={index}>{line}</div>
      ))}
    </address>
  </section>
);

const AmountRows = ({ rows }: { rows: readonly { label: string; date?: string; amount: string }[] }) => (
  <>
    {rows.map((row, index) => (
      <tr key={index}>
        <th scope="row" colSpan={3}>
          {row.date ? `${row.label}, ${row.date}` : row.label}
        </th>
        <td class="amount">{row.amount}</td>
      </tr>
    ))}
  </>
);

export function hostedInvoicePage(document: InvoiceDocument, paths: { pay: string; pdf: string }): string {
  const { seller, billTo } = document;
  return renderHtmlPage(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{document.title}</title>
        <InlineStyle sheets={[STYLE]} />
      </head>
      <body>
        <main>
          <h1>{document.title}</h1>
          <p>
            Status: <strong>{document.status}</strong> · Amount due <strong>{document.amountDue}</strong>
          </p>
          <div class="parties">
            <Party heading="From" lines={[seller.name, ...seller.addressLines, seller.email, seller.phone]} />
            <Party heading="Bill to" lines={[billTo.name, ...billTo.addressLines, billTo.email]} />
          </div>
          <dl>
            {document.facts.map(([label, value]) => (
              <Fragment key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
          <table>
            <thead>
              <tr>
                <th scope="col">Description</th>
                <th scope="col" class="amount">
                  Qty
                </th>
                <th scope="col" class="amount">
                  Unit price
                </th>
                <th scope="col" class="amount">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {document.lines.map((line, index) => (
                <tr key={index}>
                  <td>{line.description}</td>
                  <td class="amount">{line.quantity}</td>
                  <td class="amount">{line.unitPrice}</td>
                  <td class="amount">{line.amount}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <AmountRows rows={document.totals.map(([label, amount]) => ({ label, amount }))} />
              <AmountRows rows={document.credits} />
              <AmountRows rows={document.payments} />
              <AmountRows rows={[{ label: 'Amount due', amount: document.amountDue }]} />
            </tfoot>
          </table>
          <p>
            <a href={paths.pdf}>Download invoice (PDF)</a>
          </p>
          {document.status === 'Open' ? (
            <form method="post" action={paths.pay}>
              <button type="submit">Pay</button>
            </form>
          ) : null}
        </main>
      </body>
    </html>,
  );
}
