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
import type { LocalPage } from './api-gateway-adapter';
import { DEMO_HOST_SCRIPT, DEMO_HOST_SCRIPT_PATH } from './demo-host-script';
import { demoPage, WEBHOOK_LOG_PATH, webhookLogPage } from './demo-pages';
import { DEMO_WEBHOOK_PATH, type DemoWebhookReceiver } from './demo-webhook-receiver';

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
    throw new Error(
      `POST /v1/organizations/setup for ${user.setup.internalUserId} answered ${res.status}: ${JSON.stringify(body)}`,
    );
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
  readonly webhooks?: {
    readonly receiver: DemoWebhookReceiver;
    readonly wire: (receiverUrl: string) => Promise<boolean>;
  };
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

    const sessionFor =
      req.method === 'POST' ? DEMO_USERS.find((u) => url.pathname === `/demo/users/${u.slug}/session`) : undefined;
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
      res
        .writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' })
        .end(DEMO_HOST_SCRIPT);
      return true;
    }

    if (url.pathname === WEBHOOK_LOG_PATH) {
      send(res, 200, webhookLogPage(options.webhooks ? options.webhooks.receiver.list() : [], await wireWebhooks()), {
        framedBy: "'self'",
      });
      return true;
    }

    if (url.pathname === '/demo' || url.pathname === '/demo/') {
      send(res, 200, demoPage({ users: DEMO_USERS }));
      return true;
    }
    const user = DEMO_USERS.find((u) => url.pathname === `/demo/users/${u.slug}`);
    if (!user) {
      send(res, 404, demoPage({ users: DEMO_USERS, notice: 'No such demo user.' }));
      return true;
    }
    try {
      await Promise.all([ensureUsers(), wireWebhooks()]);
    } catch (error) {
      send(
        res,
        502,
        demoPage({ users: DEMO_USERS, notice: `Could not create the demo users. ${(error as Error).message}` }),
      );
      return true;
    }
    send(res, 200, demoPage({ users: DEMO_USERS, current: user }), { mountsModule: true });
    return true;
  };
}

/** `mountsModule`: the page runs the SDK; `framedBy`: who may frame it (the webhook log: the demo page itself; else nobody). */
function send(
  res: ServerResponse<IncomingMessage>,
  status: number,
  body: string,
  { mountsModule = false, framedBy = "'none'" } = {},
): void {
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
