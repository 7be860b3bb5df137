import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SecretsManagerSigningSecretStore, SIGNING_SECRET_CACHE_SECONDS } from '../../functions/adapters/secret-store';
import type { PartnerId } from '../../functions/domain/partners/partner';
import {
  startSecretsManagerStandIn,
  type SecretsManagerStandIn,
} from '../../lib/local-runtime/secrets-manager-stand-in';
import { ManualClock } from '../support/manual-clock';

let standIn: SecretsManagerStandIn;
let client: SecretsManagerClient;
/**
 * GetSecretValue requests the store sent. `failNext` makes the next ones fail as a
 * throttled or unreachable service would; `held` keeps the next answer from reaching the
 * store until released.
 */
const reads: { sent: number; failNext: number; held?: { answered: () => void; release: Promise<void> } } = {
  sent: 0,
  failNext: 0,
};

beforeAll(async () => {
  standIn = await startSecretsManagerStandIn({ port: 0 });
  client = new SecretsManagerClient({
    endpoint: standIn.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'GetSecretValueCommand') {
        reads.sent += 1;
        if (reads.failNext > 0) {
          reads.failNext -= 1;
          throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
        }
      }
      const output = await next(args);
      const held = context.commandName === 'GetSecretValueCommand' ? reads.held : undefined;
      if (held) {
        reads.held = undefined;
        held.answered();
        await held.release;
      }
      return output;
    },
    { step: 'initialize' },
  );
});
afterAll(async () => {
  client.destroy();
  await standIn.close();
});

let clock: ManualClock;
let store: SecretsManagerSigningSecretStore;
let partnerId: PartnerId;
let sequence = 0;
beforeEach(async () => {
  Object.assign(reads, { sent: 0, failNext: 0, held: undefined });
  clock = new ManualClock();
  store = new SecretsManagerSigningSecretStore(client, 'store-test', clock);
  partnerId = `partner-${(sequence += 1)}` as PartnerId;
  await store.put(partnerId, { current: 'whsec_first', retiring: [] });
  reads.sent = 0;
});

const tenAtOnce = () => Promise.all(Array.from({ length: 10 }, () => store.get(partnerId)));

describe('the signing secret store', () => {
  it("reads a partner's secret once for a batch of deliveries arriving together on a cold cache", async () => {
    const secrets = await tenAtOnce();
    expect(secrets.map((s) => s?.current)).toEqual(Array(10).fill('whsec_first'));
    expect(reads.sent).toBe(1);
  });

  it('serves the secret from memory until the cache time has passed, then reads it again', async () => {
    await store.get(partnerId);
    clock.advance(SIGNING_SECRET_CACHE_SECONDS * 1000 - 1);
    await tenAtOnce();
    expect(reads.sent).toBe(1);
    clock.advance(1);
    await tenAtOnce();
    expect(reads.sent).toBe(2);
  });

  it('does not keep a failed read: the deliveries waiting on it fail, and the next one reads again', async () => {
    reads.failNext = 1;
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => store.get(partnerId)));
    expect(outcomes.every((o) => o.status === 'rejected' && (o.reason as Error).name === 'ThrottlingException')).toBe(
      true,
    );
    expect(reads.sent).toBe(1);
    expect((await store.get(partnerId))?.current).toBe('whsec_first');
    expect(reads.sent).toBe(2);
  });

  it('answers a new secret at once after it is stored, even with a read of the old one still in flight', async () => {
    let answered = () => {};
    let release = () => {};
    const oldAnswered = new Promise<void>((resolve) => (answered = resolve));
    reads.held = { answered, release: new Promise<void>((resolve) => (release = resolve)) };
    const inFlight = store.get(partnerId);
    await oldAnswered;
    await store.put(partnerId, { current: 'whsec_second', retiring: [] });
    release();
    expect((await inFlight)?.current).toBe('whsec_first');
    expect((await store.get(partnerId))?.current).toBe('whsec_second');
  });

  it('keeps a partner without a secret as without one for the cache time', async () => {
    const unknown = 'partner-without-secret' as PartnerId;
    expect(await Promise.all([store.get(unknown), store.get(unknown)])).toEqual([undefined, undefined]);
    expect(await store.get(unknown)).toBeUndefined();
    expect(reads.sent).toBe(1);
  });
});
