/**
 * The operator CLI for approvals, run as an operator runs it (`runOps` with a command
 * line) against a test stack: `approvals list` in JSON and as a table, with its status
 * filter and one-line failures; `webhook set --events` with the approval kinds, whose
 * endpoint then gets them; and `organization show` with each profile's role, limit and
 * active switch, which decide who needs and who gives approval.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '../../functions/container';
import { COMMANDS } from '../../lib/ops-cli/run-ops';
import { runOpsCapturing } from '../support/ops-run';
import { deliverEverything } from '../support/order-pipeline';
import { aSetupBody } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';

let stack: TestStack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

const PRODUCT_ID = SEED_CATALOG.find((product) => product.active)!.product_id;

const ops = (argv: string[], deps: Dependencies | (() => Promise<Dependencies>) = stack.deps) =>
  runOpsCapturing(argv, { deps });

/** A partner (created with the CLI) with an organization of a $1-limit buyer and an approver, provisioned through setup. */
async function anOffice() {
  const created = await ops([
    'partner',
    'create',
    '--name',
    'Approvals Ops',
    '--alert-email',
    'alerts@partner.test',
    '--json',
  ]);
  expect(created.code).toBe(0);
  const { partnerId, apiKey } = created.json as { partnerId: string; apiKey: string };
  const headers = { Authorization: `Bearer ${apiKey}` };
  const body = aSetupBody();
  for (const [id, user] of [
    ['buyer', { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme.test', role: 'buyer', orderLimit: 1 }],
    ['approver', { firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.test', role: 'approver' }],
  ] as const) {
    const response = await stack.post('/v1/organizations/setup', { ...body, internalUserId: id, user }, headers);
    expect(response.status, response.text).toBe(200);
  }
  const request = async (): Promise<string> => {
    const response = await stack.post(
      '/v1/sandbox/orders',
      { internal_user_id: 'buyer', items: [{ product_id: PRODUCT_ID, quantity: 2 }] },
      headers,
    );
    expect(response.status, response.text).toBe(202);
    return response.body.approval_request.id as string;
  };
  return { partnerId, headers, org: body.internalOrgId, request };
}

describe('approvals list', () => {
  it("lists the organization's requests newest first, as the partner API shows them, in --json and as a table; --status filters", async () => {
    const office = await anOffice();
    const older = await office.request();
    stack.clock.advance(1000);
    const newer = await office.request();
    const rejected = await stack.post(
      `/v1/sandbox/approval-requests/${older}/reject`,
      { internal_user_id: 'approver', reason: 'Not now' },
      office.headers,
    );
    expect(rejected.status).toBe(200);

    const json = await ops(['approvals', 'list', '--partner', office.partnerId, '--org', office.org, '--json']);
    expect(json.code).toBe(0);
    const api = await stack.get(`/v1/organizations/${office.org}/approval-requests`, office.headers);
    expect(json.json).toEqual({
      partnerId: office.partnerId,
      internalOrgId: office.org,
      approvalRequests: api.body.data.map((request: Record<string, unknown>) => ({
        partner_id: office.partnerId,
        ...request,
        requester_name: 'Ada Lovelace',
        decided_by_name: request.id === older ? 'Grace Hopper' : null,
      })),
    });
    expect(
      json.json.approvalRequests.map((request: { id: string; status: string }) => [request.id, request.status]),
    ).toEqual([
      [newer, 'pending'],
      [older, 'rejected'],
    ]);

    const table = await ops(['approvals', 'list', '--partner', office.partnerId, '--org', office.org]);
    expect(table.code).toBe(0);
    expect(table.lines[0]).toMatch(
      /^APPROVAL REQUEST ID +STATUS +REQUESTER +TOTAL +ITEMS +CREATED +EXPIRES +DECIDED +DECIDED BY +ORDER +REASON$/,
    );
    expect(table.lines.slice(1).map((line) => line.split(/\s{2,}/).slice(0, 3))).toEqual([
      [newer, 'pending', 'Ada Lovelace (buyer)'],
      [older, 'rejected', 'Ada Lovelace (buyer)'],
    ]);
    expect(table.lines[2]).toContain('Grace Hopper (approver)');
    expect(table.lines[2]).toMatch(/Not now$/);

    const filtered = await ops([
      'approvals',
      'list',
      '--partner',
      office.partnerId,
      '--org',
      office.org,
      '--status',
      'rejected',
      '--json',
    ]);
    expect(filtered.json.approvalRequests.map((request: { id: string }) => request.id)).toEqual([older]);
    // As of now: a week on, the pending one reads as expired.
    stack.clock.advance(7 * 24 * 3600 * 1000);
    const expired = await ops([
      'approvals',
      'list',
      '--partner',
      office.partnerId,
      '--org',
      office.org,
      '--status',
      'expired',
      '--json',
    ]);
    expect(
      expired.json.approvalRequests.map((request: { id: string; status: string }) => [request.id, request.status]),
    ).toEqual([[newer, 'expired']]);
    const none = await ops([
      'approvals',
      'list',
      '--partner',
      office.partnerId,
      '--org',
      office.org,
      '--status',
      'approved',
    ]);
    expect(none.lines).toEqual([
      `Organization ${office.org} of partner ${office.partnerId} has no approval requests with status approved.`,
    ]);
  });

  it('refuses a missing option with its usage (exit 2), a bad status before the stack and unknown partners or organizations in one line (exit 1)', async () => {
    let reached = false;
    const early = async () => {
      reached = true;
      return stack.deps;
    };
    const missing = await ops(['approvals', 'list', '--partner', randomUUID()], early);
    expect(missing.code).toBe(2);
    expect(missing.lines[0]).toBe('Error: --org is required: give --org INTERNAL_ORG_ID');
    expect(missing.text).toContain(
      'Usage: npm run ops -- approvals list --partner ID --org INTERNAL_ORG_ID [--status STATUS]',
    );
    expect((await ops(['approvals', 'list', '--partner', randomUUID(), '--org', 'acme-1', '--all'], early)).code).toBe(
      2,
    );
    const badStatus = await ops(
      ['approvals', 'list', '--partner', randomUUID(), '--org', 'acme-1', '--status', 'maybe'],
      early,
    );
    expect(badStatus.code).toBe(1);
    expect(badStatus.lines).toHaveLength(1);
    expect(badStatus.lines[0]).toMatch(/^Error: --status .*pending.*withdrawn/);
    expect(reached).toBe(false);

    const unknownPartner = randomUUID();
    expect(await ops(['approvals', 'list', '--partner', unknownPartner, '--org', 'acme-1'])).toMatchObject({
      code: 1,
      lines: [`Error: No partner ${unknownPartner}`],
    });
    const office = await anOffice();
    expect(await ops(['approvals', 'list', '--partner', office.partnerId, '--org', 'nobody'])).toMatchObject({
      code: 1,
      lines: [`Error: Partner ${office.partnerId} has no organization nobody`],
    });
  });

  it('is listed in --help with a usage line', async () => {
    expect(Object.keys(COMMANDS)).toContain('approvals list');
    expect((await ops(['--help'])).text).toMatch(/^ {2}approvals list /m);
    const usage = await ops(['approvals', 'list', '--help']);
    expect(usage.code).toBe(0);
    expect(usage.lines[0]).toBe(
      'Usage: npm run ops -- approvals list --partner ID --org INTERNAL_ORG_ID [--status STATUS] [--json] [--stage STAGE]',
    );
  });
});

describe('webhook set --events and organization show, for approvals', () => {
  it('subscribes an endpoint to the approval kinds, which it then gets; an endpoint set without them gets none', async () => {
    const office = await anOffice();
    const set = await ops([
      'webhook',
      'set',
      '--partner',
      office.partnerId,
      '--url',
      receiver.url,
      '--events',
      'order.created,approval.requested,approval.decided',
      '--json',
    ]);
    expect(set.code).toBe(0);
    expect(set.json.events).toEqual(['order.created', 'approval.requested', 'approval.decided']);
    expect((await ops(['webhook', 'show', '--partner', office.partnerId])).text).toMatch(
      /^events: +order\.created, approval\.requested, approval\.decided$/m,
    );
    const id = await office.request();

    const plain = await anOffice();
    expect((await ops(['webhook', 'set', '--partner', plain.partnerId, '--url', receiver.url])).code).toBe(0);
    const unseen = await plain.request();

    await deliverEverything(stack);
    const about = (requestId: string) =>
      receiver.requests
        .map((request) => JSON.parse(request.rawBody.toString('utf8')))
        .filter((body) => body.data?.approval_request_id === requestId)
        .map((body) => body.event);
    expect(about(id)).toEqual(['approval.requested']);
    expect(about(unseen)).toEqual([]);
  });

  it("organization show gives each profile's role, order limit and active switch", async () => {
    const office = await anOffice();
    await stack.deps.functions.setup.partnerUsers.update(office.partnerId as never, office.org, 'approver', {
      active: false,
    });
    const shown = await ops(['organization', 'show', '--partner', office.partnerId, '--org', office.org, '--json']);
    const rows = shown.json.profiles.map((profile: Record<string, unknown>) => [
      profile.internalUserId,
      profile.role,
      profile.orderLimitCents,
      profile.active,
    ]);
    expect(rows.sort()).toEqual([
      ['approver', 'approver', null, false],
      ['buyer', 'buyer', 100, true],
    ]);
    const text = await ops(['organization', 'show', '--partner', office.partnerId, '--org', office.org]);
    expect(text.text).toMatch(/^\S+ +buyer +Ada Lovelace +ada@acme\.test +buyer +\$1\.00 +true /m);
    expect(text.text).toMatch(/^\S+ +approver +Grace Hopper +grace@acme\.test +approver +none +false /m);
  });
});
