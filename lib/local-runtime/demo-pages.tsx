/**
 * The demo partner app's pages (demo-app.ts serves them): the page that mounts the module
 * for a demo user, and the log of the webhooks its receiver got. JSX, so every value is
 * escaped by the renderer like the embed host's own pages.
 */
import type { VNode } from 'preact';
import { formatUsd, parseCents } from '../../functions/domain/money';
import { css, InlineStyle, renderHtmlPage } from '../../functions/embed-host/html-page';
import type { DemoUser } from './demo-app';
import { DEMO_HOST_SCRIPT_PATH } from './demo-host-script';
import { DEMO_WEBHOOK_PATH, type ReceivedWebhook } from './demo-webhook-receiver';

/** The demo's own page with the received webhooks, framed beside the module and reloading itself (no script). */
export const WEBHOOK_LOG_PATH = '/demo/webhook-log';

const STYLE = css`
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1f2933; background: #eef1f5; }
  :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .bar { background: #14213d; color: #fff; padding: 12px 20px; display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; }
  .bar h1 { font-size: 17px; margin: 0; }
  .bar span { opacity: .7; font-size: 13px; }
  .layout { display: grid; grid-template-columns: 220px minmax(0, 1fr) 320px; min-height: calc(100vh - 50px); }
  nav { background: #fff; border-right: 1px solid #dde2e8; padding: 18px; }
  nav h2, aside h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: #616e7c; margin: 0 0 10px; }
  nav a { display: block; padding: 10px 12px; border-radius: 8px; color: inherit; text-decoration: none; margin-bottom: 6px; border: 1px solid transparent; }
  nav a:hover { border-color: #c5cdd8; }
  nav a[aria-current] { background: #e8f0fe; border-color: #2563eb; }
  nav small { display: block; color: #616e7c; }
  main { padding: 18px 20px; min-width: 0; }
  aside { padding: 18px 18px 18px 0; min-width: 0; }
  .hint { color: #616e7c; margin: 0 0 12px; font-size: 14px; }
  .notice { background: #fff4e5; border: 1px solid #f0b429; border-radius: 8px; padding: 12px 16px; margin-bottom: 16px; white-space: pre-wrap; }
  iframe { display: block; width: 100%; border: 1px solid #c5cdd8; border-radius: 10px; background: #fff; }
  .module { border: 1px solid #c5cdd8; border-radius: 10px; background: #fff; overflow: hidden; }
  .module iframe { border: 0; border-radius: 0; }
  .hooks { height: 420px; }
  .events { list-style: none; margin: 0 0 18px; padding: 0; display: grid; gap: 6px; max-height: 300px; overflow-y: auto; }
  .events li { background: #fff; border: 1px solid #dde2e8; border-radius: 8px; padding: 6px 10px; font-size: 13px; overflow-wrap: anywhere; }
  .events b { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  .events code { color: #3e4c59; }
  .events .meta, .empty { color: #616e7c; font-size: 12px; }
  @media (max-width: 1100px) { .layout { grid-template-columns: 200px minmax(0, 1fr); } aside { grid-column: 2; padding: 0 20px 20px; } .hooks { height: 360px; } }
  @media (max-width: 720px) {
    .layout { display: block; }
    /* The users wrap onto more rows: a sideways-scrolling strip hides the last one off-screen. */
    nav { border-right: 0; border-bottom: 1px solid #dde2e8; padding: 12px; display: flex; flex-wrap: wrap; gap: 8px; }
    nav h2 { display: none; }
    nav a { flex: 1 1 150px; margin: 0; padding: 6px 10px; border-color: #dde2e8; }
    main { padding: 12px; }
    aside { padding: 0 12px 16px; }
    .hooks { height: 320px; }
  }
`;

export interface DemoPageView {
  readonly users: readonly DemoUser[];
  readonly current?: DemoUser;
  readonly notice?: string;
}

const fullName = (user: DemoUser): string => `${user.setup.user.firstName} ${user.setup.user.lastName}`;

/**
 * The embedded module as a partner embeds it: a container the SDK mounts the module in
 * (demo-host-script.ts), and the partner's route it asks for each link.
 */
const EmbeddedModule = ({ user }: { user: DemoUser }): VNode => (
  <>
    <div id="supplies" class="module" data-session-url={`/demo/users/${user.slug}/session`} />
    <script type="module" src={DEMO_HOST_SCRIPT_PATH} />
  </>
);

/** What the SDK's onEvent received, newest first (filled in by demo-host-script.ts). */
const EventLog = (): VNode => (
  <section aria-labelledby="events-title">
    <h2 id="events-title">Module events</h2>
    <p class="empty" id="embed-events-empty">
      Events from the embed SDK appear here.
    </p>
    <ol class="events" id="embed-events" aria-live="polite" />
  </section>
);

export function demoPage({ users, current, notice }: DemoPageView): string {
  return renderHtmlPage(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Demo partner app</title>
        <InlineStyle sheets={[STYLE]} />
      </head>
      <body>
        <header class="bar">
          <h1>Demo partner app</h1>
          <span>a pretend practice-management product embedding the supplies module</span>
        </header>
        <div class="layout">
          <nav aria-label="Demo users">
            <h2>Sign in as</h2>
            {users.map((u) => (
              <a href={`/demo/users/${u.slug}`} aria-current={u === current ? 'page' : undefined}>
                {fullName(u)}
                <small>{u.role}</small>
              </a>
            ))}
          </nav>
          <main>
            {notice && (
              <div class="notice" role="alert">
                {notice}
              </div>
            )}
            {current ? (
              <>
                <p class="hint">
                  The embed SDK mounted the module for {fullName(current)}: its <code>fetchEmbedUrl</code> asked this
                  app's server, which called <code>POST /v1/partner/handshake</code> with the sandbox key. When the
                  session ends, the SDK asks again by itself.
                </p>
                <EmbeddedModule user={current} />
              </>
            ) : (
              <p class="hint">
                Choose a user: the demo's server performs the handshake with the sandbox API key and embeds the module
                for them. Place an order in the module and watch its signed webhook arrive under Partner webhooks.
              </p>
            )}
          </main>
          <aside>
            {current && <EventLog />}
            <h2 id="hooks-title">Partner webhooks</h2>
            <iframe class="hooks" title="Webhooks received" src={WEBHOOK_LOG_PATH} />
          </aside>
        </div>
      </body>
    </html>,
  );
}

const LOG_STYLE = css`
  * { box-sizing: border-box; }
  body { margin: 0; padding: 12px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1f2933; background: #fff; }
  h1 { font-size: 15px; margin: 0 0 2px; }
  p { color: #616e7c; margin: 0 0 12px; font-size: 13px; }
  ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
  li { border: 1px solid #e4e7eb; border-radius: 10px; padding: 10px 12px; }
  .top { display: flex; justify-content: space-between; gap: 8px; align-items: baseline; }
  .event { font-weight: 700; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
  .ok { color: #0b6e61; font-weight: 600; font-size: 13px; }
  .bad { color: #a3251b; font-weight: 600; font-size: 13px; }
  .meta { color: #616e7c; font-size: 12px; }
  .id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
`;

const dollars = (value: unknown): string => {
  const cents = typeof value === 'number' ? parseCents(value) : undefined;
  return cents === undefined ? '' : formatUsd(cents);
};

const WebhookItem = ({ hook }: { hook: ReceivedWebhook }): VNode => {
  const data = hook.body?.data ?? {};
  const orderId = typeof data.order_id === 'string' ? data.order_id : '';
  const items = Array.isArray(data.items) ? data.items.length : undefined;
  return (
    <li data-testid="webhook">
      <div class="top">
        <span class="event">{hook.body?.event ?? 'unreadable body'}</span>
        {hook.verified ? <span class="ok">✓ verified</span> : <span class="bad">✗ bad signature</span>}
      </div>
      <div>
        Order <span class="id">{orderId.slice(0, 8)}</span>
        {items === undefined ? '' : ` · ${items} line${items === 1 ? '' : 's'}`}
        {data.total === undefined ? '' : ` · ${dollars(data.total)}`}
        {typeof data.status === 'string' ? ` · ${data.status}` : ''}
      </div>
      <div class="meta">received {hook.receivedAt.slice(11, 19)} UTC</div>
    </li>
  );
};

/** What the partner's receiver got, newest first; reloads itself every 2 s (meta refresh, the CSP allows no script). */
export function webhookLogPage(received: readonly ReceivedWebhook[], wired: boolean): string {
  return renderHtmlPage(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta httpEquiv="refresh" content="2" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Webhooks received</title>
        <InlineStyle sheets={[LOG_STYLE]} />
      </head>
      <body>
        <h1>Received by the partner</h1>
        <p>
          {wired ? (
            <>
              POST {DEMO_WEBHOOK_PATH}, signature checked with <code>verifyWebhookSignature</code>.
            </>
          ) : (
            'Not wired: the sandbox partner sends its webhooks to an endpoint set with the CLI.'
          )}
        </p>
        {received.length ? (
          <ol>
            {received.map((hook) => (
              <WebhookItem hook={hook} />
            ))}
          </ol>
        ) : (
          <p>
            No webhooks yet. Place an order in the module: its <code>order.created</code> arrives here in a few seconds.
          </p>
        )}
      </body>
    </html>,
  );
}
