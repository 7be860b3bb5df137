/**
 * A pretend partner application, local runtime only, at `/demo`: it lists a few demo
 * users; choosing one mounts the module with the embed SDK, whose `fetchEmbedUrl` asks
 * ITS SERVER (`POST /demo/users/<user>/session`), which calls the real
 * `POST /v1/partner/handshake` over HTTP with the sandbox API key and returns the
 * `iframe_embed_url`, exactly as a partner's product would. The key stays on the server:
 * no page ever contains it. The module's events are listed beside it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { SetupRequest } from '../../functions/domain/organizations/setup-request';
import { formatUsd, parseCents } from '../../functions/domain/money';
import { escapeHtml } from '../../functions/embed-host/host-pages';
import type { LocalPage } from './api-gateway-adapter';
import { DEMO_HOST_SCRIPT, DEMO_HOST_SCRIPT_PATH } from './demo-host-script';
import { DEMO_WEBHOOK_PATH, type DemoWebhookReceiver, type ReceivedWebhook } from './demo-webhook-receiver';

/** Where the demo's server reaches the API, and with which key (known only once the stack is seeded). */
export interface DemoConnection {
  readonly apiUrl: string;
  readonly apiKey: string;
}

export type DemoSetupBody = z.input<typeof SetupRequest>;

export interface DemoUser {
  /** Path segment of the user's demo page. */
  readonly slug: string;
  readonly role: string;
  readonly setup: DemoSetupBody;
}

/** Makes sure one demo user exists in the service; resolves when it does (new or already there). */
export type DemoUserProvisioner = (user: DemoUser) => Promise<void>;

const acmeLocations: DemoSetupBody['shippingLocations'] = [
  {
    internalShippingLocationId: 'acme-main',
    name: 'Main clinic',
    nickname: 'Downtown',
    address: { line1: '500 Congress Ave', line2: 'Suite 200', city: 'Austin', province: 'TX', postalCode: '78701' },
    isDefault: true,
  },
  {
    internalShippingLocationId: 'acme-north',
    name: 'North clinic',
    address: { line1: '12 Research Blvd', city: 'Austin', province: 'TX', postalCode: '78759' },
  },
];

export const DEMO_USERS: readonly DemoUser[] = [
  {
    slug: 'ada',
    role: 'Office manager, Acme Dental',
    setup: {
      internalOrgId: 'demo-acme-dental',
      organizationName: 'Acme Dental',
      internalUserId: 'demo-ada',
      user: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme-dental.test' },
      shippingLocations: acmeLocations,
    },
  },
  {
    slug: 'grace',
    role: 'Hygienist, Acme Dental',
    setup: {
      internalOrgId: 'demo-acme-dental',
      organizationName: 'Acme Dental',
      internalUserId: 'demo-grace',
      user: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme-dental.test' },
      shippingLocations: acmeLocations,
    },
  },
  {
    slug: 'katherine',
    role: 'Practice owner, Blue Ridge Veterinary',
    setup: {
      internalOrgId: 'demo-blue-ridge-vet',
      organizationName: 'Blue Ridge Veterinary',
      internalUserId: 'demo-katherine',
      user: { firstName: 'Katherine', lastName: 'Johnson', email: 'katherine@blueridge-vet.test' },
      shippingLocations: [
        {
          internalShippingLocationId: 'brv-main',
          name: 'Blue Ridge Animal Hospital',
          address: { line1: '1 Skyline Dr', city: 'Roanoke', province: 'VA', postalCode: '24011' },
          isDefault: true,
        },
      ],
    },
  },
];

/**
 * The real way in: `POST /v1/organizations/setup` with the sandbox key. 200 (created) and
 * 409 USER_ALREADY_EXISTS (an earlier start created it) both mean the user exists.
 */
export const setupEndpointProvisioner =
  (connection: () => Promise<DemoConnection>): DemoUserProvisioner =>
  async (user) => {
    const { apiUrl, apiKey } = await connection();
    const res = await fetch(`${apiUrl}/v1/organizations/setup`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(user.setup),
    });
    const body = (await res.json().catch(() => undefined)) as { code?: string } | undefined;
    if (res.status === 200 || (res.status === 409 && body?.code === 'USER_ALREADY_EXISTS')) return;
    throw new Error(`POST /v1/organizations/setup for ${user.setup.internalUserId} answered ${res.status}: ${JSON.stringify(body)}`);
  };

export interface DemoAppOptions {
  readonly connection: () => Promise<DemoConnection>;
  /** Defaults to the setup endpoint; tests may provision some other way. */
  readonly provision?: DemoUserProvisioner;
  /**
   * The demo partner's webhook receiver, shown beside the module; `wire` points the
   * partner's endpoint at `receiverUrl` (an operator action, so the local runtime does it)
   * and answers whether it did.
   */
  readonly webhooks?: { readonly receiver: DemoWebhookReceiver; readonly wire: (receiverUrl: string) => Promise<boolean> };
}

/** The demo's own page with the received webhooks, framed beside the module and reloading itself (no script). */
const WEBHOOK_LOG_PATH = '/demo/webhook-log';

interface HandshakeOutcome {
  readonly status: number;
  readonly body: { iframe_embed_url?: string; expires_at?: string; error?: string; details?: unknown } | undefined;
}

export function createDemoApp(options: DemoAppOptions): LocalPage {
  const provision = options.provision ?? setupEndpointProvisioner(options.connection);
  let usersReady: Promise<void> | undefined;
  // Once per process, at first use; a failure is retried on the next request.
  const ensureUsers = () => {
    usersReady ??= (async () => {
      for (const user of DEMO_USERS) await provision(user);
    })().catch((error: unknown) => {
      usersReady = undefined;
      throw error;
    });
    return usersReady;
  };

  const handshake = async (user: DemoUser): Promise<HandshakeOutcome> => {
    const { apiUrl, apiKey } = await options.connection();
    const res = await fetch(`${apiUrl}/v1/partner/handshake`, {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ internal_user_id: user.setup.internalUserId, internal_org_id: user.setup.internalOrgId }),
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as HandshakeOutcome['body'] };
  };

  let webhooksWired: Promise<boolean> | undefined;
  // Once per process, at first use; a failure shows as "not wired" and is retried on the next visit.
  const wireWebhooks = (): Promise<boolean> => {
    const { webhooks } = options;
    if (!webhooks) return Promise.resolve(false);
    webhooksWired ??= options
      .connection()
      .then(({ apiUrl }) => webhooks.wire(`${apiUrl}${DEMO_WEBHOOK_PATH}`))
      .catch(() => {
        webhooksWired = undefined;
        return false;
      });
    return webhooksWired;
  };

  const receiverPage = options.webhooks?.receiver.page;
  return async (req, res, body) => {
    if (receiverPage && (await receiverPage(req, res, body))) return true;
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!(url.pathname === '/demo' || url.pathname.startsWith('/demo/'))) return false;

    const sessionFor = req.method === 'POST' ? DEMO_USERS.find((u) => url.pathname === `/demo/users/${u.slug}/session`) : undefined;
    if (sessionFor) {
      // The partner backend's route behind the SDK's fetchEmbedUrl: a fresh handshake per call.
      const outcome = await handshake(sessionFor);
      const link = outcome.status === 200 ? outcome.body?.iframe_embed_url : undefined;
      res
        .writeHead(link ? 200 : 502, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
        .end(JSON.stringify(link ? { iframe_embed_url: link } : { error: `The handshake answered ${outcome.status}` }));
      return true;
    }
    if (req.method !== 'GET') return false;
    if (url.pathname === DEMO_HOST_SCRIPT_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }).end(DEMO_HOST_SCRIPT);
      return true;
    }

    if (url.pathname === WEBHOOK_LOG_PATH) {
      send(res, 200, webhookLogPage(options.webhooks ? options.webhooks.receiver.list() : [], await wireWebhooks()), { framedBy: "'self'" });
      return true;
    }

    if (url.pathname === '/demo' || url.pathname === '/demo/') {
      send(res, 200, demoPage({}));
      return true;
    }
    const user = DEMO_USERS.find((u) => url.pathname === `/demo/users/${u.slug}`);
    if (!user) {
      send(res, 404, demoPage({ notice: 'No such demo user.' }));
      return true;
    }
    try {
      await Promise.all([ensureUsers(), wireWebhooks()]);
    } catch (error) {
      send(res, 502, demoPage({ notice: `Could not create the demo users. ${(error as Error).message}` }));
      return true;
    }
    send(res, 200, demoPage({ current: user }), { mountsModule: true });
    return true;
  };
}

/** `mountsModule`: the page runs the SDK; `framedBy`: who may frame it (the webhook log: the demo page itself; else nobody). */
function send(res: ServerResponse<IncomingMessage>, status: number, body: string, { mountsModule = false, framedBy = "'none'" } = {}): void {
  res
    .writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      // Locally the embed host is this origin: the SDK, its frame check and the module are all 'self'.
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'${
        mountsModule ? "; script-src 'self'; connect-src 'self'" : ''
      }; frame-ancestors ${framedBy}`,
    })
    .end(body);
}

const STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1f2933; background: #eef1f5; }
  :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .bar { background: #14213d; color: #fff; padding: 12px 20px; display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; }
  .bar strong { font-size: 17px; }
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
    nav { border-right: 0; border-bottom: 1px solid #dde2e8; padding: 12px; display: flex; gap: 8px; overflow-x: auto; }
    nav h2 { display: none; }
    nav a { flex: none; margin: 0; padding: 6px 10px; border-color: #dde2e8; }
    main { padding: 12px; }
    aside { padding: 0 12px 16px; }
    /* A phone shows the module in a window of its own, so the event log below it stays in reach. */
    .module { max-height: 70vh; overflow-y: auto; }
    .hooks { height: 320px; }
  }
`;

interface DemoPageView {
  readonly current?: DemoUser;
  readonly notice?: string;
}

/**
 * The embedded module as a partner embeds it: a container the SDK mounts the module in
 * (demo-host-script.ts), and the partner's route it asks for each link.
 */
const embeddedModule = (user: DemoUser): string =>
  `<div id="supplies" class="module" data-session-url="/demo/users/${escapeHtml(user.slug)}/session"></div>
<script type="module" src="${DEMO_HOST_SCRIPT_PATH}"></script>`;

/** What the SDK's onEvent received, newest first (filled in by demo-host-script.ts). */
const eventLog = (): string =>
  `<section aria-labelledby="events-title"><h2 id="events-title">Module events</h2>
<p class="empty" id="embed-events-empty">Events from the embed SDK appear here.</p>
<ol class="events" id="embed-events" aria-live="polite"></ol></section>`;

function demoPage(view: DemoPageView): string {
  const links = DEMO_USERS.map(
    (u) =>
      `<a href="/demo/users/${escapeHtml(u.slug)}"${u === view.current ? ' aria-current="page"' : ''}>${escapeHtml(
        `${u.setup.user.firstName} ${u.setup.user.lastName}`,
      )}<small>${escapeHtml(u.role)}</small></a>`,
  ).join('\n');
  const main = view.current
    ? `<p class="hint">The embed SDK mounted the module for
  ${escapeHtml(`${view.current.setup.user.firstName} ${view.current.setup.user.lastName}`)}: its <code>fetchEmbedUrl</code> asked this app's
  server, which called <code>POST /v1/partner/handshake</code> with the sandbox key. When the session ends, the SDK asks again by itself.</p>
${embeddedModule(view.current)}`
    : `<p class="hint">Choose a user: the demo's server performs the handshake with the sandbox API key and embeds the module for them.
  Place an order in the module and watch its signed webhook arrive on the right.</p>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo partner app</title><style>${STYLE}</style></head>
<body>
<header class="bar"><strong>Demo partner app</strong><span>a pretend practice-management product embedding the supplies module</span></header>
<div class="layout">
<nav aria-label="Demo users"><h2>Sign in as</h2>
${links}
</nav>
<main>
${view.notice ? `<div class="notice" role="alert">${escapeHtml(view.notice)}</div>` : ''}
${main}
</main>
<aside>${view.current ? eventLog() : ''}<h2 id="hooks-title">Partner webhooks</h2>
<iframe class="hooks" title="Webhooks received" src="${WEBHOOK_LOG_PATH}"></iframe>
</aside>
</div>
</body>
</html>
`;
}

const LOG_STYLE = `
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

const webhookItem = (hook: ReceivedWebhook): string => {
  const data = hook.body?.data ?? {};
  const orderId = typeof data.order_id === 'string' ? data.order_id : '';
  const items = Array.isArray(data.items) ? data.items.length : undefined;
  return `<li data-testid="webhook">
  <div class="top"><span class="event">${escapeHtml(hook.body?.event ?? 'unreadable body')}</span>${
    hook.verified ? '<span class="ok">✓ verified</span>' : '<span class="bad">✗ bad signature</span>'
  }</div>
  <div>Order <span class="id">${escapeHtml(orderId.slice(0, 8))}</span>${items === undefined ? '' : ` · ${items} line${items === 1 ? '' : 's'}`}${
    data.total === undefined ? '' : ` · ${escapeHtml(dollars(data.total))}`
  }${typeof data.status === 'string' ? ` · ${escapeHtml(data.status)}` : ''}</div>
  <div class="meta">received ${escapeHtml(hook.receivedAt.slice(11, 19))} UTC</div>
</li>`;
};

/** What the partner's receiver got, newest first; reloads itself every 2 s (meta refresh, the CSP allows no script). */
function webhookLogPage(received: readonly ReceivedWebhook[], wired: boolean): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta http-equiv="refresh" content="2"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Webhooks received</title><style>${LOG_STYLE}</style></head>
<body>
<h1>Received by the partner</h1>
<p>${
    wired
      ? `POST ${escapeHtml(DEMO_WEBHOOK_PATH)}, signature checked with <code>verifyWebhookSignature</code>.`
      : 'Not wired: the sandbox partner sends its webhooks to an endpoint set with the CLI.'
  }</p>
${received.length ? `<ol>${received.map(webhookItem).join('\n')}</ol>` : '<p>No webhooks yet. Place an order in the module: its <code>order.created</code> arrives here in a few seconds.</p>'}
</body>
</html>
`;
}
