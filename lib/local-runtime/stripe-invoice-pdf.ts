/**
 * The stand-in's invoice PDF: the invoice document (stripe-invoice-document.ts) on US Letter
 * pages (612 x 792 pt) in Helvetica, laid out by pdfkit; its text is real text, so a
 * bookkeeper's tools (and the tests) can search and extract it. Local-only: the stand-in is
 * never in a Lambda bundle, so pdfkit is a devDependency.
 */
import PDFDocument from 'pdfkit';
import type { InvoiceDocument } from './stripe-invoice-document';

const MARGIN = 54;
const PAGE = { width: 612, height: 792 };
const RIGHT = PAGE.width - MARGIN;
/** Description, quantity, unit price, amount: the x where each column starts, and its width. */
const COLUMNS = [
  { x: MARGIN, width: 270 },
  { x: 330, width: 50 },
  { x: 384, width: 80 },
  { x: 468, width: RIGHT - 468 },
] as const;

export function invoicePdf(document: InvoiceDocument): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    info: { Title: document.title, Author: document.seller.name, Subject: `Invoice ${document.number}` },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  let y = MARGIN;
  /** Room for `height` more points on this page, or a new page. */
  const room = (height: number) => {
    if (y + height <= PAGE.height - MARGIN) return;
    pdf.addPage();
    y = MARGIN;
  };
  const block = (heading: string, lines: readonly string[], x: number) => {
    pdf.font('Helvetica-Bold').fontSize(10).text(heading, x, y);
    pdf.font('Helvetica').fontSize(10);
    lines.forEach((line, index) => pdf.text(line, x, y + 14 * (index + 1), { width: 240 }));
    return 14 * (lines.length + 1);
  };

  pdf.font('Helvetica-Bold').fontSize(20).text(document.title, MARGIN, y);
  pdf
    .font('Helvetica')
    .fontSize(10)
    .text(document.status, MARGIN, y + 6, { width: RIGHT - MARGIN, align: 'right' });
  y += 40;
  const { seller, billTo } = document;
  const fromHeight = block('From', [seller.name, ...seller.addressLines, seller.email, seller.phone], MARGIN);
  const toHeight = block('Bill to', [billTo.name, ...billTo.addressLines, billTo.email], 320);
  y += Math.max(fromHeight, toHeight) + 16;

  for (const [label, value] of document.facts) {
    pdf.font('Helvetica-Bold').text(label, MARGIN, y, { width: 110 });
    pdf.font('Helvetica').text(value, MARGIN + 120, y, { width: 300 });
    y += 14;
  }
  y += 16;

  const row = (cells: readonly string[], bold = false) => {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    const height = Math.max(14, pdf.heightOfString(cells[0] ?? '', { width: COLUMNS[0].width }) + 4);
    room(height);
    cells.forEach((cell, index) => {
      const column = COLUMNS[index] ?? COLUMNS[0];
      pdf.text(cell, column.x, y, { width: column.width, align: index === 0 ? 'left' : 'right' });
    });
    y += height;
  };
  const rule = () => {
    pdf.moveTo(MARGIN, y).lineTo(RIGHT, y).lineWidth(0.5).stroke();
    y += 4;
  };
  row(['Description', 'Qty', 'Unit price', 'Amount'], true);
  rule();
  for (const line of document.lines) row([line.description, line.quantity, line.unitPrice, line.amount]);
  rule();
  const summary = (label: string, amount: string, bold = false) => {
    room(14);
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    pdf.text(label, COLUMNS[1].x - 130, y, { width: 250, align: 'right' });
    pdf.text(amount, COLUMNS[3].x, y, { width: COLUMNS[3].width, align: 'right' });
    y += 14;
  };
  for (const [label, amount] of document.totals) summary(label, amount, label === 'Total');
  for (const entry of [...document.credits, ...document.payments])
    summary(`${entry.label}, ${entry.date}`, entry.amount);
  summary('Amount due', document.amountDue, true);

  pdf.end();
  return done;
}
