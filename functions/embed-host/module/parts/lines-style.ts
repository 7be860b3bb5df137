import { css } from '../../html-page';

/** A list of product lines (the cart's, the checkout's, an order's and a request's): name, meta, amount and a form. */
export const LINES_STYLE = css`
.lines{list-style:none;margin:0;padding:0}
.line{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:6px 16px;padding:14px 0;border-bottom:1px solid var(--line)}
.line:first-child{padding-top:0}
.line h2{font-size:15px;margin:0}
.line .meta{color:var(--muted);font-size:13px;margin:0}
.line .amount{font-weight:700;text-align:right;font-variant-numeric:tabular-nums}
.line form{grid-column:1/-1;display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:0}
.line input{width:76px}
.line.gone h2{color:var(--muted);text-decoration:line-through}
.note{color:var(--muted);font-size:13px;margin:12px 0 0}
.pic{display:block;width:48px;height:48px;flex:none;object-fit:contain;background:#fff;border:1px solid var(--line);border-radius:8px}
.named{display:flex;gap:12px;align-items:flex-start;min-width:0}
.named>div{min-width:0;overflow-wrap:anywhere}
`;
