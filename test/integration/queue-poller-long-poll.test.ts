import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AWS_REQUEST_BOUNDS } from '../../functions/adapters/aws/request-bounds';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
});
afterAll(() => stack.close());

describe('the local queue poller under bounded SDK requests', () => {
  it('long-polls longer than the SDK request timeout without failing', async () => {
    // An empty queue: the poll waits its full time, past the bound every other call gets.
    const waitSeconds = AWS_REQUEST_BOUNDS.requestTimeoutMs / 1000 + 1;
    await expect(stack.consumers.orderEvents.pollOnce({ waitSeconds })).resolves.toEqual({ received: 0, failed: [] });
  }, 30_000);
});
