/**
 * A pretend partner application, local runtime only, at `/demo`: it lists a few demo
 * users; choosing one makes ITS SERVER call the real `POST /v1/partner/handshake` over
 * HTTP with the sandbox API key and frame the returned `iframe_embed_url`, exactly as a
 * partner's product would. The key stays on the server: no page ever contains it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { SetupRequest } from '../../functions/domain/organizations/setup-request';
import { escapeHtml } from '../../functions/http/embed-pages';
import type { LocalPage } from './api-gateway-adapter';

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
}

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

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' || !(url.pathname === '/demo' || url.pathname.startsWith('/demo/'))) return false;

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
      await ensureUsers();
    } catch (error) {
      send(res, 502, demoPage({ notice: `Could not create the demo users. ${(error as Error).message}` }));
      return true;
    }
    const outcome = await handshake(user);
    if (outcome.status !== 200 || !outcome.body?.iframe_embed_url) {
      send(res, 502, demoPage({ current: user, notice: `The handshake answered ${outcome.status}: ${JSON.stringify(outcome.body)}` }));
      return true;
    }
    const iframeUrl = outcome.body.iframe_embed_url;
    send(res, 200, demoPage({ current: user, iframeUrl, ...(outcome.body.expires_at ? { expiresAt: outcome.body.expires_at } : {}) }), iframeUrl);
    return true;
  };
}

function send(res: ServerResponse<IncomingMessage>, status: number, body: string, framedUrl?: string): void {
  res
    .writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      // The page only ever frames the embed host, and is framed by nobody.
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; frame-src ${framedUrl ? new URL(framedUrl).origin : "'none'"}; frame-ancestors 'none'`,
    })
    .end(body);
}

const STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1f2933; background: #eef1f5; }
  .bar { background: #14213d; color: #fff; padding: 12px 24px; display: flex; gap: 12px; align-items: baseline; }
  .bar strong { font-size: 17px; }
  .bar span { opacity: .7; font-size: 13px; }
  .layout { display: grid; grid-template-columns: 260px 1fr; min-height: calc(100vh - 50px); }
  nav { background: #fff; border-right: 1px solid #dde2e8; padding: 20px; }
  nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: #616e7c; margin: 0 0 10px; }
  nav a { display: block; padding: 10px 12px; border-radius: 8px; color: inherit; text-decoration: none; margin-bottom: 6px; border: 1px solid transparent; }
  nav a:hover { border-color: #c5cdd8; }
  nav a[aria-current] { background: #e8f0fe; border-color: #2563eb; }
  nav small { display: block; color: #616e7c; }
  section { padding: 20px 24px; }
  .hint { color: #616e7c; margin: 0 0 12px; }
  .notice { background: #fff4e5; border: 1px solid #f0b429; border-radius: 8px; padding: 12px 16px; margin-bottom: 16px; white-space: pre-wrap; }
  iframe { width: 100%; height: 560px; border: 1px solid #c5cdd8; border-radius: 10px; background: #fff; }
`;

interface DemoPageView {
  readonly current?: DemoUser;
  readonly iframeUrl?: string;
  readonly expiresAt?: string;
  readonly notice?: string;
}

function demoPage(view: DemoPageView): string {
  const links = DEMO_USERS.map(
    (u) =>
      `<a href="/demo/users/${escapeHtml(u.slug)}"${u === view.current ? ' aria-current="page"' : ''}>${escapeHtml(
        `${u.setup.user.firstName} ${u.setup.user.lastName}`,
      )}<small>${escapeHtml(u.role)}</small></a>`,
  ).join('\n');
  const main = view.iframeUrl
    ? `<p class="hint">This app's server just called <code>POST /v1/partner/handshake</code> for
  ${escapeHtml(`${view.current?.setup.user.firstName} ${view.current?.setup.user.lastName}`)} and framed the returned URL
  (single use, valid until ${escapeHtml(view.expiresAt ?? '')}). Reloading this page performs a new handshake.</p>
<iframe title="Supplies module" src="${escapeHtml(view.iframeUrl)}"></iframe>`
    : `<p class="hint">Choose a user: the demo's server performs the handshake with the sandbox API key and embeds the module for them.</p>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo partner app</title><style>${STYLE}</style></head>
<body>
<div class="bar"><strong>Demo partner app</strong><span>a pretend practice-management product embedding the supplies module</span></div>
<div class="layout">
<nav aria-label="Demo users"><h2>Sign in as</h2>
${links}
</nav>
<section>
${view.notice ? `<div class="notice" role="alert">${escapeHtml(view.notice)}</div>` : ''}
${main}
</section>
</div>
</body>
</html>
`;
}
