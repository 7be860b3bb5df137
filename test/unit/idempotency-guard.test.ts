import { beforeEach, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_RETENTION_MS,
  IdempotencyGuard,
  type IdempotentAttempt,
} from '../../functions/domain/idempotency/idempotency-guard';
import { InMemoryIdempotencyStore } from '../support/fakes/in-memory-idempotency-store';
import { ManualClock } from '../support/manual-clock';

const SCOPE = 'setup#partner-1';
const BODY = { internalOrgId: 'org-1', user: { email: 'a@example.com' } };
const OUTCOME = { statusCode: 200, body: '{"success":true}' };

let clock: ManualClock;
let store: InMemoryIdempotencyStore;
let guard: IdempotencyGuard;

beforeEach(() => {
  clock = new ManualClock();
  store = new InMemoryIdempotencyStore();
  guard = new IdempotencyGuard(store, clock);
});

const firstRun = (attempt: IdempotentAttempt) => {
  if (attempt.kind !== 'first') throw new Error(`expected a first run, got ${attempt.kind}`);
  return attempt;
};

describe('an Idempotency-Key', () => {
  it('runs the first request and replays its completed outcome to the next, whatever the key order of the body', async () => {
    await firstRun(await guard.begin(SCOPE, 'k', BODY)).complete(OUTCOME);
    const again = await guard.begin(SCOPE, 'k', { user: { email: 'a@example.com' }, internalOrgId: 'org-1' });
    expect(again).toEqual({ kind: 'replay', outcome: OUTCOME });
  });

  it('answers in flight while the first request still holds its claim', async () => {
    await guard.begin(SCOPE, 'k', BODY);
    await expect(guard.begin(SCOPE, 'k', BODY)).rejects.toMatchObject({ name: 'IdempotencyKeyInFlight' });
  });

  it('refuses the same key with another body, claimed or completed', async () => {
    const first = firstRun(await guard.begin(SCOPE, 'k', BODY));
    await expect(guard.begin(SCOPE, 'k', { ...BODY, internalOrgId: 'org-2' })).rejects.toMatchObject({
      name: 'IdempotencyKeyReused',
    });
    await first.complete(OUTCOME);
    await expect(guard.begin(SCOPE, 'k', { ...BODY, internalOrgId: 'org-2' })).rejects.toMatchObject({
      name: 'IdempotencyKeyReused',
    });
  });

  it('lets a retry take over a claim that lapsed, and the crashed holder can no longer complete it', async () => {
    const crashed = firstRun(await guard.begin(SCOPE, 'k', BODY));
    clock.advance(IDEMPOTENCY_LOCK_MS + 1);
    const retry = firstRun(await guard.begin(SCOPE, 'k', BODY));
    expect(await crashed.complete({ statusCode: 200, body: 'stale' })).toBe(false);
    expect(await retry.complete(OUTCOME)).toBe(true);
    expect(await guard.begin(SCOPE, 'k', BODY)).toEqual({ kind: 'replay', outcome: OUTCOME });
  });

  it('frees the key when the first request releases it (a 500), so the retry runs again', async () => {
    await firstRun(await guard.begin(SCOPE, 'k', BODY)).release();
    expect((await guard.begin(SCOPE, 'k', BODY)).kind).toBe('first');
  });

  it('runs again after 24 hours, with any body', async () => {
    await firstRun(await guard.begin(SCOPE, 'k', BODY)).complete(OUTCOME);
    clock.advance(IDEMPOTENCY_RETENTION_MS + 1);
    expect((await guard.begin(SCOPE, 'k', { other: true })).kind).toBe('first');
  });

  it('claims again when the holder released the key between the refused write and the read', async () => {
    await guard.begin(SCOPE, 'k', BODY);
    store.vanishingHolders = 1;
    expect((await guard.begin(SCOPE, 'k', BODY)).kind).toBe('first');
  });

  it('keeps two scopes (partners) with the same key apart', async () => {
    await guard.begin(SCOPE, 'k', BODY);
    expect((await guard.begin('setup#partner-2', 'k', BODY)).kind).toBe('first');
  });

  it('keeps an outcome completed in the guarded transaction: the settlement writes nothing more, and an error afterwards never frees the key', async () => {
    const first = firstRun(await guard.begin(SCOPE, 'k', BODY));
    const completion = first.completionWith(OUTCOME);
    expect(completion).toMatchObject({ scope: SCOPE, key: 'k', outcome: OUTCOME });
    expect(store.completeNow(completion)).toBe(true); // the transaction committed it
    const completes: unknown[] = [];
    const complete = store.complete.bind(store);
    store.complete = async (...args) => {
      completes.push(args);
      return complete(...args);
    };
    expect(await first.complete(OUTCOME)).toBe(true);
    expect(completes).toEqual([]);
    await first.release(); // as after a commit whose answer was lost: the request saw an error
    expect(await guard.begin(SCOPE, 'k', BODY)).toEqual({ kind: 'replay', outcome: OUTCOME });
  });

  it('completes through the store when the guarded work ended otherwise than with the completion it was handed', async () => {
    const first = firstRun(await guard.begin(SCOPE, 'k', BODY));
    first.completionWith(OUTCOME); // its transaction failed: nothing committed
    const conflict = { statusCode: 409, body: '{"code":"USER_ALREADY_EXISTS"}' };
    expect(await first.complete(conflict)).toBe(true);
    expect(await guard.begin(SCOPE, 'k', BODY)).toEqual({ kind: 'replay', outcome: conflict });
  });
});
