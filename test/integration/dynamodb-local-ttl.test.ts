/**
 * DynamoDB Local (3.x) enforces TTL: within seconds it deletes items whose TTL attribute
 * lies in the real past. Whatever the service stores under the tests' manual clock must
 * stay out of its reach, or counts and tokens vanish in the middle of a test
 * (manual-clock.ts: TEST_CLOCK_START).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableName } from '../../lib/resources';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

describe('DynamoDB Local and TTL', () => {
  it('deletes an item whose TTL is in the real past, and leaves the rate-limit counts made on the test clock alone', async () => {
    const { partnerId } = await stack.createPartner();
    const before = await stack.deps.rateLimiter.consume(partnerId, 'handshake', 300);

    const TableName = tableName(stack.config.RESOURCE_PREFIX, 'rateLimits');
    const probe = { pk: `ttl-probe-${partnerId}` };
    await stack.deps.aws.db.send(new PutCommand({ TableName, Item: { ...probe, ttl: Math.floor(Date.now() / 1000) - 3600 } }));
    const stillThere = async () => (await stack.deps.aws.db.send(new GetCommand({ TableName, Key: probe, ConsistentRead: true }))).Item;
    const deadline = Date.now() + 25_000;
    while ((await stillThere()) && Date.now() < deadline) await sleep(250);
    expect(await stillThere(), 'DynamoDB Local no longer sweeps expired items: TEST_CLOCK_START may move back').toBeUndefined();

    const after = await stack.deps.rateLimiter.consume(partnerId, 'handshake', 300);
    expect([before.remaining, after.remaining]).toEqual([299, 298]);
  });
});
