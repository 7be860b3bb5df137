import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { PartnerClient, PartnerError } from '../../sdk/src/index';

/** Where the smoke test writes its lines; `process.stdout`/`stderr` in `npm run smoke`, captured in tests. */
export interface SmokeOutput {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

interface SmokeOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** The partner's webhook endpoint: the test webhook must reach it (its delivery answered 2xx). */
  readonly webhookUrl?: string;
  /** How long asynchronous outcomes (the invoice, the test delivery) may take. */
  readonly waitMs?: number;
  /** Between two looks at an asynchronous outcome; tests shorten it. */
  readonly pollMs?: number;
}

const USAGE = 'Usage: npm run smoke -- --base-url URL --api-key KEY [--webhook-url URL]';

class StepFailed extends Error {}

/** What the API answered, for the failing step's line: status, code and request id, never the key. */
const describeFailure = (error: unknown): string => {
  if (error instanceof PartnerError) {
    const parts = [error.status === undefined ? 'no answer' : String(error.status), error.code, error.message];
    return `${parts.filter(Boolean).join(' ')}${error.requestId ? ` (Request-Id ${error.requestId})` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
};

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The partner's loop against a deployed (or the local) stack, through the SDK and the
 * partner's key only: no AWS credentials. A sandbox key (`sk_test_`) runs every step on a
 * throwaway organization; a production key (`sk_live_`) only the steps that read or open a
 * session, so production keeps no trace but a handshake token that expires in 5 minutes.
 */
async function runSmoke(options: SmokeOptions, output: SmokeOutput): Promise<number> {
  const client = new PartnerClient({ apiKey: options.apiKey, baseUrl: options.baseUrl });
  const sandbox = options.apiKey.startsWith('sk_test_');
  const waitMs = options.waitMs ?? 60_000;
  const pollMs = options.pollMs ?? 1_000;
  const orgId = `smoke-${new Date().toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}`;
  const userId = `${orgId}-user`;
  const until = async <T>(what: string, look: () => Promise<T | undefined>): Promise<T> => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = await look();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new StepFailed(`${what} within ${waitMs / 1000} s`);
      await delay(pollMs);
    }
  };

  const steps: [string, () => Promise<string>][] = [];
  let productId = '';
  steps.push([
    'catalog read',
    async () => {
      const { data } = await client.catalog.list();
      const product = data[0];
      if (!product) throw new StepFailed('the catalog has no product');
      productId = product.product_id;
      return `${data.length} products`;
    },
  ]);
  if (sandbox) {
    steps.push([
      'setup',
      async () => {
        const answer = await client.organizations.setup({
          internalOrgId: orgId,
          organizationName: 'Smoke Test Clinic',
          internalUserId: userId,
          user: { firstName: 'Smoke', lastName: 'Test', email: `${userId}@smoke.invalid` },
          shippingLocations: [
            {
              internalShippingLocationId: `${orgId}-loc`,
              name: 'Front desk',
              isDefault: true,
              address: { line1: '1 Main St', city: 'Austin', province: 'tx', postalCode: '78701' },
            },
          ],
        });
        return `organization ${answer.data.organization.internalOrgId} (${answer.data.organization.id})`;
      },
    ]);
    steps.push(['handshake and iframe URL', () => handshake(client, orgId, userId)]);
    steps.push([
      'sandbox order shipped and invoiced',
      async () => {
        const placed = await client.sandbox.orders.create({
          internalUserId: userId,
          internalOrgId: orgId,
          items: [{ productId, quantity: 1 }],
        });
        if (!('order' in placed)) throw new StepFailed('the order waits for approval instead of being placed');
        const id = placed.order.id;
        await client.sandbox.orders.confirm(id);
        await client.sandbox.orders.ship(id);
        const invoice = await until(`order ${id} shipped but no invoice was issued`, async () => {
          const order = await client.orders.retrieve(id);
          return order.invoice ?? undefined;
        });
        return `order ${id} shipped, invoice ${invoice.id}`;
      },
    ]);
    steps.push([
      'test webhook',
      async () => {
        if (!options.webhookUrl) {
          const { delivery_id } = await client.webhooks.sendTest({ event: 'order.created' }).catch((error: unknown) => {
            if (error instanceof PartnerError && error.code === 'WEBHOOK_ENDPOINT_NOT_CONFIGURED')
              return { delivery_id: '' };
            throw error;
          });
          return delivery_id ? `queued ${delivery_id} (give --webhook-url to wait for it)` : 'skipped: no endpoint';
        }
        const endpoint = await client.webhooks.endpoint.retrieve();
        if (endpoint.url !== options.webhookUrl) {
          throw new StepFailed(`the partner's endpoint is ${endpoint.url}, not ${options.webhookUrl}`);
        }
        const { delivery_id } = await client.webhooks.sendTest({ event: 'order.created' });
        await until(`delivery ${delivery_id} was not delivered`, async () => {
          // The 202 comes before the delivery: its log entry appears once the pipeline has taken the event.
          const delivery = await client.webhooks.deliveries.retrieve(delivery_id).catch((error: unknown) => {
            if (error instanceof PartnerError && error.code === 'DELIVERY_NOT_FOUND') return undefined;
            throw error;
          });
          return delivery?.status === 'delivered' ? delivery : undefined;
        });
        return `delivered ${delivery_id} to ${options.webhookUrl}`;
      },
    ]);
  } else {
    steps.push([
      'handshake (unknown user)',
      async () => {
        // No write on production: a user that does not exist proves the key, the route and the function answer.
        const failure = await client.sessions.handshake({ internalUserId: userId, internalOrgId: orgId }).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (failure instanceof PartnerError && failure.status === 404) return `404 ${failure.code ?? ''}`.trim();
        throw failure ?? new StepFailed('a handshake for a user that does not exist succeeded');
      },
    ]);
  }
  steps.push([
    'delivery log read',
    async () => {
      let count = 0;
      for await (const delivery of client.webhooks.deliveries.list({ pageSize: 10 })) {
        void delivery;
        if (++count >= 10) break;
      }
      return `${count} recent deliveries`;
    },
  ]);

  output.out(
    `Smoke test of ${options.baseUrl} (${sandbox ? 'sandbox: every step' : 'production: read and handshake steps'})`,
  );
  for (const [name, run] of steps) {
    const started = performance.now();
    try {
      const detail = await run();
      output.out(`PASS  ${name}  ${Math.round(performance.now() - started)} ms  ${detail}`);
    } catch (error) {
      output.out(`FAIL  ${name}  ${Math.round(performance.now() - started)} ms`);
      output.err(`Smoke test failed at "${name}": ${describeFailure(error)}`);
      return 1;
    }
  }
  output.out(`All ${steps.length} steps passed`);
  return 0;
}

async function handshake(client: PartnerClient, orgId: string, userId: string): Promise<string> {
  const { iframe_embed_url } = await client.sessions.handshake({ internalUserId: userId, internalOrgId: orgId });
  // The embed host redeems the single-use token and answers with the module (or a redirect into it).
  const page = await fetch(iframe_embed_url, { redirect: 'manual' });
  if (page.status >= 400) throw new StepFailed(`the iframe URL answered ${page.status}`);
  return `iframe URL answered ${page.status}`;
}

/** `npm run smoke -- …`: the exit code (0 all passed, 1 a step failed, 2 usage). */
export async function runSmokeCli(argv: readonly string[], output: SmokeOutput): Promise<number> {
  let values: { 'base-url'?: string; 'api-key'?: string; 'webhook-url'?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { 'base-url': { type: 'string' }, 'api-key': { type: 'string' }, 'webhook-url': { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    output.err(`Error: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const baseUrl = values['base-url'];
  const apiKey = values['api-key'];
  if (!baseUrl || !apiKey) {
    output.err(`Error: --base-url and --api-key are required\n${USAGE}`);
    return 2;
  }
  return runSmoke({ baseUrl, apiKey, ...(values['webhook-url'] ? { webhookUrl: values['webhook-url'] } : {}) }, output);
}
