/**
 * DynamoDB Local (3.x) enforces TTL: its sweeper deletes items whose TTL attribute lies in
 * the real past (within a second when it is idle; later when it has many tables to go
 * through). Whatever the service stores under the tests' manual clock must therefore
 * carry a TTL in the real future, or counts and tokens can vanish in the middle of a test
 * (manual-clock.ts: TEST_CLOCK_START; docs/decisions.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductId } from '../../functions/domain/catalog/product';
import { TABLES, type TableName } from '../../functions/resources/resource-definitions';
import { scanTable } from '../support/inspect';
import { aSetupBody } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';
import { orderCreatedData } from '../support/webhook-fixtures';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
});
afterAll(() => stack.close());

describe('TTLs written under the test clock', () => {
  it('lie in the real future for every kind of expiring item the service writes', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    await stack.deps.webhookAdmin.configureEndpoint({ partnerId, url: 'http://127.0.0.1:9/webhooks' });
    const body = aSetupBody();
    const setup = await stack.post('/v1/organizations/setup', body, {
      Authorization: `Bearer ${apiKey}`,
      'Idempotency-Key': 'ttl-check',
    });
    expect(setup.status).toBe(200);
    const handshake = await stack.post(
      '/v1/partner/handshake',
      { profile_id: setup.body.data.profile.id },
      { 'X-API-Key': apiKey },
    );
    expect(handshake.status).toBe(200);
    await stack.deps.orderEvents.publish({
      partnerId,
      event: 'order.created',
      data: orderCreatedData(body.internalOrgId),
    });
    await stack.consumers.orderEvents.pollOnce();
    const profile = (await stack.deps.organizations.getProfile(setup.body.data.profile.id))!;
    const organization = (await stack.deps.organizations.getOrganization(partnerId, body.internalOrgId))!;
    await stack.deps.cartService.add(profile.id, 'GLV-NIT-M-100' as ProductId, 1);
    await stack.deps.orderService.placeOrder({
      partner: { id: partnerId },
      profile,
      organization,
      items: [{ productId: 'PPR-LTR-5000' as ProductId, quantity: 1 }],
    });

    const expiring = Object.entries(TABLES).filter(([, table]) => table.ttlAttribute) as [
      TableName,
      { ttlAttribute: string },
    ][];
    const ttls: Record<string, number[]> = {};
    for (const [name, { ttlAttribute }] of expiring) {
      const items = await scanTable(stack, name);
      ttls[name] = items.flatMap((item) =>
        typeof item[ttlAttribute] === 'number' ? [item[ttlAttribute] as number] : [],
      );
    }

    expect(Object.keys(ttls).sort()).toEqual(['carts', 'idempotency', 'orders', 'rateLimits', 'sessions', 'webhooks']);
    const realNow = Date.now() / 1000;
    for (const [name, values] of Object.entries(ttls)) {
      expect(values.length, `${name} holds expiring items`).toBeGreaterThan(0);
      expect(
        values.filter((ttl) => ttl <= realNow),
        `${name}: TTLs already past in real time`,
      ).toEqual([]);
    }
  });
});
