import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyStandardWebhook, verifyWebhook, verifyWebhookSignature } from '../../sdk/src/index';
import { webhookRotateSecret, webhookSet, webhookShow } from '../../lib/ops-cli/webhook-commands';
import { SecretsManagerSigningSecretStore } from '../../functions/adapters/secret-store';
import { WebhookAdmin } from '../../functions/webhooks/webhook-admin';
import { recordSqsDelays, type SentMessage } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { type ReceivedWebhook, receiverPool } from '../support/webhook-receiver';
import { aPartnerWithOrganization, orderCreatedData, processQueues, purgeQueues } from '../support/webhook-fixtures';

let stack: TestStack;
let sent: SentMessage[];
const receivers = receiverPool();

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  sent = recordSqsDelays(stack.deps.aws.sqs);
});
afterEach(async () => {
  await purgeQueues(stack);
  await receivers.closeAll();
});
afterAll(() => stack.close());

const headersOf = (request: ReceivedWebhook) =>
  Object.fromEntries(
    Object.entries(request.headers as IncomingHttpHeaders).map(([name, value]) => [name, String(value)]),
  );

/**
 * What a receiver using the `standardwebhooks` package gets: the parsed body, or the
 * library's refusal. The library checks the timestamp against its own clock (5 minute
 * tolerance), so its clock is set to `receivedAt` (the test clock, years ahead) while it runs.
 */
function standardVerify(
  secret: string,
  request: ReceivedWebhook,
  options: { receivedAt?: Date; raw?: boolean; headers?: Record<string, string> } = {},
): unknown {
  vi.useFakeTimers({ toFake: ['Date'], now: options.receivedAt ?? stack.clock.now() });
  try {
    const webhook = options.raw ? new Webhook(secret, { format: 'raw' }) : new Webhook(secret);
    return webhook.verify(request.rawBody.toString('utf8'), { ...headersOf(request), ...options.headers });
  } finally {
    vi.useRealTimers();
  }
}

/** The contract's header, computed independently of the service's code. */
const contractSignature = (secret: string, request: ReceivedWebhook) =>
  `sha256=${createHmac('sha256', secret).update(request.rawBody).digest('hex')}`;

async function aPartnerReceiving(secret?: string) {
  const receiver = await receivers.start();
  const partner = await aPartnerWithOrganization(stack);
  const set = await webhookSet(stack.deps, {
    partner: partner.partnerId,
    url: receiver.url,
    ...(secret ? { secret } : {}),
  });
  const publish = async () => {
    await stack.deps.orderEvents.publish({
      partnerId: partner.partnerId,
      event: 'order.created',
      data: orderCreatedData(partner.internalOrgId),
    });
    await processQueues(stack, sent);
    return receiver.requests.at(-1) as ReceivedWebhook;
  };
  return { ...partner, receiver, secret: secret ?? (set.secret as string), publish };
}

describe('Standard Webhooks signatures beside the contract’s', () => {
  it('a standardwebhooks receiver verifies a real delivery; the contract headers are unchanged', async () => {
    const { secret, publish } = await aPartnerReceiving();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const request = await publish();
    const seconds = String(Math.floor(stack.clock.now().getTime() / 1000));
    expect(request.headers['webhook-id']).toBe(request.headers['x-service-delivery-id']);
    expect(request.headers['webhook-timestamp']).toBe(seconds);
    expect(request.headers['x-service-timestamp']).toBe(seconds);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(request.headers['x-service-signature']).toBe(contractSignature(secret, request));
    expect(request.headers['x-service-event']).toBe('order.created');
    expect(standardVerify(secret, request)).toEqual(JSON.parse(request.rawBody.toString('utf8')));
  });

  it('refuses a tampered timestamp, a tampered id, a tampered body, and a capture replayed after the tolerance', async () => {
    const { secret, publish } = await aPartnerReceiving();
    const request = await publish();
    const timestamp = Number(request.headers['webhook-timestamp']);

    expect(() => standardVerify(secret, request, { headers: { 'webhook-timestamp': String(timestamp + 1) } })).toThrow(
      'No matching signature',
    );
    expect(() =>
      standardVerify(secret, request, { headers: { 'webhook-id': '6f1c2b8e-3f5e-4a59-9a43-0d9b3c1e2f10' } }),
    ).toThrow('No matching signature');
    const tampered = {
      ...request,
      rawBody: Buffer.from(request.rawBody.toString('utf8').replace('"quantity":2', '"quantity":3')),
    };
    expect(() => standardVerify(secret, tampered)).toThrow('No matching signature');
    // The contract's signature covers the body only: the same capture verifies forever. The standard one does not.
    expect(() =>
      standardVerify(secret, request, { receivedAt: new Date(stack.clock.now().getTime() + 10 * 60_000) }),
    ).toThrow('too old');
  });

  it('keys the standard signature with the bytes after whsec_ for a whsec_ secret, and with the UTF-8 bytes of any other', async () => {
    const whsec = `whsec_${Buffer.from('a partner-chosen key of 32 bytes').toString('base64')}`;
    const chosenWhsec = await aPartnerReceiving(whsec);
    const whsecRequest = await chosenWhsec.publish();
    expect(standardVerify(whsec, whsecRequest)).toBeTruthy();
    expect(whsecRequest.headers['x-service-signature']).toBe(contractSignature(whsec, whsecRequest));

    const plain = 'partner-chosen-secret-0123456789';
    const chosenPlain = await aPartnerReceiving(plain);
    const plainRequest = await chosenPlain.publish();
    expect(standardVerify(plain, plainRequest, { raw: true })).toBeTruthy();
    expect(plainRequest.headers['x-service-signature']).toBe(contractSignature(plain, plainRequest));
  });
});

describe('rotating a secret with an overlap', () => {
  it('signs with both secrets during the overlap (the contract header keeps the old one), then with the new one only', async () => {
    const { partnerId, secret: old, publish } = await aPartnerReceiving();
    const rotated = await webhookRotateSecret(stack.deps, { partner: partnerId, overlap: 3600 });
    const overlapEnds = new Date(stack.clock.now().getTime() + 3600_000).toISOString();
    expect(rotated.secretOverlapEndsAt).toBe(overlapEnds);
    expect((await webhookShow(stack.deps, { partner: partnerId })).secretOverlapEndsAt).toBe(overlapEnds);

    stack.clock.advance(59 * 60_000);
    const during = await publish();
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(standardVerify(old, during)).toBeTruthy();
    expect(standardVerify(rotated.secret, during)).toBeTruthy();
    expect(during.headers['x-service-signature']).toBe(contractSignature(old, during));

    stack.clock.advance(60_000);
    const after = await publish();
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(standardVerify(rotated.secret, after)).toBeTruthy();
    expect(() => standardVerify(old, after)).toThrow('No matching signature');
    expect(after.headers['x-service-signature']).toBe(contractSignature(rotated.secret, after));
    expect(await webhookShow(stack.deps, { partner: partnerId })).not.toHaveProperty('secretOverlapEndsAt');
  });

  it('signs with both secrets from the first delivery after a rotation made by another process, however recently the old secret was read', async () => {
    const { partnerId, secret: old, publish } = await aPartnerReceiving();
    expect(String((await publish()).headers['webhook-signature']).split(' ')).toHaveLength(1);
    // The ops CLI: its own store, so the running dispatcher's cached copy is not forgotten by the rotation.
    const { deps } = stack;
    const cli = new WebhookAdmin({
      partners: deps.partners,
      endpoints: deps.webhookEndpoints,
      secrets: new SecretsManagerSigningSecretStore(deps.aws.secrets, deps.config.RESOURCE_PREFIX, stack.clock),
      deliveries: deps.deliveries,
      queue: { send: async () => undefined },
      requireHttpsPublic: false,
      clock: stack.clock,
    });
    stack.clock.advance(1000);
    const rotated = await webhookRotateSecret({ ...deps, webhookAdmin: cli }, { partner: partnerId, overlap: 3600 });

    // Well inside the secret cache (60 s): only the endpoint's rotation mark makes the dispatcher read again.
    stack.clock.advance(1000);
    const first = await publish();
    expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(standardVerify(old, first)).toBeTruthy();
    expect(standardVerify(rotated.secret, first)).toBeTruthy();
  });

  it('deletes the expired secret from the stored value at the next rotation', async () => {
    const { partnerId, secret: first } = await aPartnerReceiving();
    const second = await webhookRotateSecret(stack.deps, { partner: partnerId, overlap: 60 });
    stack.clock.advance(61_000);
    const third = await webhookRotateSecret(stack.deps, { partner: partnerId, overlap: 60 });
    const stored = await stack.deps.functions.webhookDispatch.signingSecrets.get(partnerId);
    expect(stored).toEqual({
      current: third.secret,
      retiring: [{ secret: second.secret, expiresAt: third.secretOverlapEndsAt }],
    });
    expect(JSON.stringify(stored)).not.toContain(first);
  });
});

describe('the partner SDK verifies both schemes', () => {
  it('verifyStandardWebhook accepts a real delivery, with both secrets in an overlap, and refuses a tampered timestamp or an old capture', async () => {
    const { partnerId, secret: old, publish } = await aPartnerReceiving();
    const { secret: next } = await webhookRotateSecret(stack.deps, { partner: partnerId, overlap: 3600 });
    const request = await publish();
    const nowSeconds = Math.floor(stack.clock.now().getTime() / 1000);
    const at = (seconds: number) => ({ now: () => new Date(seconds * 1000) });
    const headers = headersOf(request);
    const standard = {
      id: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
    };

    expect(verifyStandardWebhook(request.rawBody, standard, old, at(nowSeconds))).toBe(true);
    expect(verifyStandardWebhook(request.rawBody, standard, next, at(nowSeconds))).toBe(true);
    expect(
      verifyStandardWebhook(
        request.rawBody,
        standard,
        'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
        at(nowSeconds),
      ),
    ).toBe(false);
    // A list verifies when any of its secrets does.
    expect(
      verifyStandardWebhook(
        request.rawBody,
        standard,
        ['whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', old],
        at(nowSeconds),
      ),
    ).toBe(true);
    expect(
      verifyStandardWebhook(request.rawBody, { ...standard, timestamp: String(nowSeconds + 1) }, next, at(nowSeconds)),
    ).toBe(false);
    expect(verifyStandardWebhook(request.rawBody, standard, next, at(nowSeconds + 301))).toBe(false);
    // The contract's signature stays on the old secret through the overlap; a receiver in the overlap passes both.
    expect(verifyWebhookSignature(request.rawBody, headers['x-service-signature'], [next, old])).toBe(true);
    expect(verifyWebhookSignature(request.rawBody, headers['x-service-signature'], next)).toBe(false);
    expect(verifyWebhook(request.rawBody, headers, [next, old], at(nowSeconds))).toBe(true);
    expect(verifyWebhook(request.rawBody, headers, [next], at(nowSeconds))).toBe(false);
  });
});
