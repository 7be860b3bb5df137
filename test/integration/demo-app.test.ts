import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import {
  createDemoApp,
  DEMO_USERS,
  type DemoConnection,
  type DemoUser,
  setupEndpointProvisioner,
} from '../../lib/local-runtime/demo-app';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
const provisioned: string[] = [];
let failNextProvisioning = false;

beforeAll(async () => {
  let connect: (connection: DemoConnection) => void = () => undefined;
  const connection = new Promise<DemoConnection>((done) => {
    connect = done;
  });
  // The demo's own provisioner, through the real setup endpoint, with a failure to inject in front of it.
  const throughSetup = setupEndpointProvisioner(() => connection);
  const provision = async (user: DemoUser) => {
    if (failNextProvisioning) {
      failNextProvisioning = false;
      throw new Error('setup answered 503');
    }
    await throughSetup(user);
    provisioned.push(user.setup.internalUserId);
  };
  stack = await startTestStack({ pages: [createDemoApp({ connection: () => connection, provision })] });
  partner = await stack.createPartner();
  connect({ apiUrl: stack.url, apiKey: partner.apiKey });
});
afterAll(() => stack.close());

const get = async (path: string) => {
  const res = await fetch(`${stack.url}${path}`);
  return { status: res.status, text: await res.text(), headers: res.headers };
};

describe('the local demo partner app', () => {
  it('lists the demo users at /demo', async () => {
    const res = await get('/demo');
    expect(res.status).toBe(200);
    for (const user of DEMO_USERS) expect(res.text).toContain(`/demo/users/${user.slug}`);
    expect(res.text).toContain('Ada');
    expect(res.text).not.toContain(partner.apiKey);
  });

  it('tells what went wrong when the demo users cannot be created, and retries on the next request', async () => {
    failNextProvisioning = true;
    const failed = await get('/demo/users/ada');
    expect(failed.status).toBe(502);
    expect(failed.text).toContain('Could not create the demo users. setup answered 503');

    const retried = await get('/demo/users/ada');
    expect(retried.status).toBe(200);
    expect(provisioned).toEqual(DEMO_USERS.map((u) => u.setup.internalUserId));
    // Provisioned through POST /v1/organizations/setup: one request-log line of setup per user, each a 200.
    const setups = stack.logs.filter((line) => line.msg === 'api_request' && line.endpoint === 'setup');
    expect(setups.map((line) => [line.status, line.partnerId])).toEqual(DEMO_USERS.map(() => [200, partner.partnerId]));
    for (const user of DEMO_USERS) {
      const organization = await stack.deps.organizations.getOrganization(partner.partnerId, user.setup.internalOrgId);
      expect(organization?.organization.paymentCustomerId, user.slug).toMatch(/^cus_/);
    }
  });

  it('mounts the module with the SDK, whose session route answers a fresh iframe_embed_url from the real handshake per call, never the API key', async () => {
    const page = await get('/demo/users/grace');
    expect(page.text).toContain(
      '<div id="supplies" class="module" data-session-url="/demo/users/grace/session"></div>',
    );
    expect(page.text).toContain('<script type="module" src="/demo/assets/demo-host.js"></script>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'; connect-src 'self'");
    const script = await get('/demo/assets/demo-host.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.text).toContain("import('/sdk/v1/embed.js')");

    const session = async () => {
      const res = await fetch(`${stack.url}/demo/users/grace/session`, { method: 'POST' });
      expect(res.status).toBe(200);
      return {
        text: await res.clone().text(),
        url: ((await res.json()) as { iframe_embed_url: string }).iframe_embed_url,
      };
    };
    const [a, b] = [await session(), await session()];
    expect(a.url).toMatch(new RegExp(`^${stack.url}/embedded/${partner.partnerId}\\?session_key=[0-9a-f]{64}$`));
    expect(b.url).not.toBe(a.url);
    expect(page.text + a.text + b.text + script.text).not.toContain(partner.apiKey);

    const redeemed = await fetch(a.url, { redirect: 'manual' });
    expect(redeemed.status).toBe(303);
    // Users are provisioned once per process, not per visit.
    expect(provisioned).toHaveLength(DEMO_USERS.length);
  });

  it('answers 404 for an unknown demo user and leaves other paths to the service', async () => {
    expect((await get('/demo/users/mallory')).status).toBe(404);
    expect((await get('/health')).status).toBe(200);
  });
});

describe('provisioning the demo users through POST /v1/organizations/setup', () => {
  let server: Server;
  let apiUrl: string;
  const seen: { path?: string; headers: IncomingHttpHeaders; body: unknown }[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: { success: true } };

  beforeAll(async () => {
    // Stands in for the partner API, whose setup endpoint is built in another branch.
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ path: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const provision = () =>
    setupEndpointProvisioner(async () => ({ apiUrl, apiKey: 'sk_test_demo' }))(DEMO_USERS[0] as DemoUser);

  it('posts the setup body with the key as a Bearer token', async () => {
    answer = { status: 200, body: { success: true } };
    await provision();
    expect(seen.at(-1)).toMatchObject({
      path: '/v1/organizations/setup',
      headers: { authorization: 'Bearer sk_test_demo', 'content-type': 'application/json' },
      body: DEMO_USERS[0]?.setup,
    });
  });

  it('treats 409 USER_ALREADY_EXISTS as the user being there', async () => {
    answer = { status: 409, body: { error: 'Conflict', code: 'USER_ALREADY_EXISTS' } };
    await expect(provision()).resolves.toBeUndefined();
  });

  it.each([
    [501, { error: 'Not Implemented', code: 'NOT_IMPLEMENTED' }],
    [409, { error: 'Conflict', code: 'IDEMPOTENCY_KEY_IN_USE' }],
    [500, { error: 'Internal Server Error', code: 'SETUP_ERROR' }],
  ])('fails with the status and body for %i', async (status, body) => {
    answer = { status, body };
    await expect(provision()).rejects.toThrow(`answered ${status}: ${JSON.stringify(body)}`);
  });
});
