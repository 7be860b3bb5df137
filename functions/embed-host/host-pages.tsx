/**
 * The embed host's HTML pages. Self-contained (inline CSS, no external assets; the only
 * script is the module bridge from our own origin), rendered with JSX so every value
 * from data is escaped (html-page.tsx).
 */
import type { ComponentChildren, VNode } from 'preact';
import { BridgeScript, bridgeAttributes, type BridgeState } from './bridge-markup';
import { css, InlineStyle, renderHtmlPage, type StaticCss } from './html-page';

const STYLE = css`
  :root { color-scheme: light; --ink: #1f2933; --muted: #616e7c; --line: #e4e7eb; --accent: #2563eb; --bg: #f5f7fa; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink); background: var(--bg); }
  main { max-width: 860px; margin: 0 auto; padding: 24px; }
  header { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; justify-content: space-between;
           padding-bottom: 16px; margin-bottom: 20px; border-bottom: 1px solid var(--line); }
  h1 { font-size: 22px; margin: 0; }
  h2 { font-size: 16px; margin: 0 0 12px; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: .04em; }
  .who { color: var(--muted); margin: 2px 0 0; }
  .who strong { color: var(--ink); }
  .grid { display: grid; gap: 12px; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); padding: 0; margin: 0; list-style: none; }
  .card { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; }
  .card h3 { font-size: 15px; margin: 0 0 6px; display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; }
  .card address { font-style: normal; color: var(--muted); }
  .badge { font-size: 11px; font-weight: 600; color: #fff; background: var(--accent); border-radius: 999px; padding: 1px 8px; }
  .nickname { color: var(--muted); font-weight: 400; }
  button { font: inherit; border: 1px solid var(--line); background: #fff; border-radius: 8px; padding: 6px 14px; cursor: pointer; }
  button:hover { border-color: var(--accent); color: var(--accent); }
  .notice { max-width: 480px; margin: 72px auto; background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 28px; text-align: center; }
  .notice h1 { margin-bottom: 8px; }
  .notice p { color: var(--muted); margin: 0; }
  .empty { color: var(--muted); }
`;

interface HtmlDocumentProps {
  readonly title: string;
  readonly styles: readonly StaticCss[];
  readonly bridge: BridgeState;
  readonly children: ComponentChildren;
}

/** Every HTML page the embed host serves, the host's notices and the module's pages alike. */
export const HtmlDocument = ({ title, styles, bridge, children }: HtmlDocumentProps): VNode => (
  <html lang="en" {...bridgeAttributes(bridge)}>
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="no-referrer" />
      <title>{title}</title>
      <InlineStyle sheets={styles} />
      <BridgeScript />
    </head>
    <body>{children}</body>
  </html>
);

const notice = (title: string, message: string, bridge: BridgeState): string =>
  renderHtmlPage(
    <HtmlDocument title={title} styles={[STYLE]} bridge={bridge}>
      <div class="notice" role="alert">
        <h1>{title}</h1>
        <p>{message}</p>
      </div>
    </HtmlDocument>,
  );

/** The one answer to any unusable link or session: the browser is not told which case it was. */
const LINK_UNUSABLE_MESSAGE =
  'This link has expired or was already used. Please reopen the module from your application.';

/** `ended` tells the bridge whether a live session ended (the SDK renews it) or a link was unusable (it does not). */
export const linkUnusablePage = (frameAncestors: readonly string[], ended: 'session-ended' | 'link-unusable'): string =>
  notice('Session unavailable', LINK_UNUSABLE_MESSAGE, { frameAncestors, ended });

export const signedOutPage = (frameAncestors: readonly string[]): string =>
  notice('Signed out', 'You have signed out. Reopen the module from your application to sign in again.', {
    frameAncestors,
    ended: 'signed-out',
  });

export const unavailablePage = (frameAncestors: readonly string[]): string =>
  notice('Something went wrong', 'The module could not be opened. Please reopen it from your application.', {
    frameAncestors,
  });
