import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AWS_REQUEST_BOUNDS } from '../../functions/adapters/aws/request-bounds';
import { createQueueConsumer } from '../../lib/local-runtime/queue-poller';
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

describe('a queue consumer with several loops', () => {
  it('keeps one receive open while the queue is idle, and all loops at work once messages come, a slow batch holding none', async () => {
    const sqs = stack.deps.aws.sqs;
    let open = 0;
    const name = `countOpenReceives-${Date.now()}`;
    sqs.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'ReceiveMessageCommand') return next(args);
        open += 1;
        try {
          return await next(args);
        } finally {
          open -= 1;
        }
      },
      { step: 'initialize', name },
    );
    const held: (() => void)[] = [];
    const consumer = createQueueConsumer({
      sqs,
      queueUrl: stack.queueUrls.orderEvents,
      queueArn: 'arn:aws:sqs:us-east-1:000000000000:order-events',
      batchSize: 1,
      concurrency: 4,
      // Each batch waits until the test lets it go, as one waiting on a hanging receiver does.
      handler: () => new Promise<void>((done) => held.push(done)),
    });
    const ticks = async (n: number) => {
      for (let i = 0; i < n; i += 1) await new Promise((next) => setImmediate(next));
    };
    try {
      consumer.start();
      while (open === 0) await ticks(1);
      await ticks(20);
      expect(open).toBe(1);
      for (let i = 0; i < 4; i += 1)
        await sqs.send(new SendMessageCommand({ QueueUrl: stack.queueUrls.orderEvents, MessageBody: `{"n":${i}}` }));
      while (held.length < 4) await ticks(1);
      expect(held).toHaveLength(4);
    } finally {
      held.forEach((done) => done());
      await consumer.stop();
      sqs.middlewareStack.remove(name);
    }
  }, 30_000);
});
