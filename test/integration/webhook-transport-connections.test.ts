/**
 * The webhook transport's connections: one per attempt, and none left open, whether the
 * answer is complete (the connection closes itself: `Connection: close`, no agent) or cut
 * short at the first KiB. The receivers here ignore `Connection: close` and never close.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpWebhookTransport } from '../../functions/adapters/webhook-http/http-webhook-transport';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A raw HTTP/1.1 receiver that writes `answer` after the request's head and keeps the socket open. */
async function stubbornReceiver(answer: string) {
  const closedByClient: Promise<void>[] = [];
  server = createServer((socket: Socket) => {
    closedByClient.push(new Promise((closed) => socket.on('close', () => closed())));
    socket.once('data', () => socket.write(answer));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const connections = () => new Promise<number>((count) => server?.getConnections((_, n) => count(n)));
  return { url: `http://127.0.0.1:${port}/hooks`, closedByClient, connections };
}

const transport = new HttpWebhookTransport({ timeoutMs: 2000, requireHttpsPublic: false });
const post = (url: string) => transport.post(url, { 'Content-Type': 'application/json' }, '{"event":"order.created"}');
const within = <T>(ms: number, promise: Promise<T>) =>
  Promise.race([
    promise,
    new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`not within ${ms} ms`)), ms)),
  ]);

describe('the webhook transport', () => {
  it('answers a complete response and leaves no connection open, though the receiver keeps it', async () => {
    const receiver = await stubbornReceiver(
      'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok',
    );
    for (let i = 0; i < 3; i += 1)
      expect(await post(receiver.url)).toMatchObject({ kind: 'response', statusCode: 200, body: 'ok' });
    expect(receiver.closedByClient).toHaveLength(3);
    await within(1000, Promise.all(receiver.closedByClient));
    expect(await receiver.connections()).toBe(0);
  });

  it('keeps the first KiB of an answer that goes on, and cuts its connection', async () => {
    const receiver = await stubbornReceiver(
      `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n${'x'.repeat(4096)}`,
    );
    const result = await post(receiver.url);
    expect(result).toMatchObject({ kind: 'response', statusCode: 200 });
    expect(result.kind === 'response' && result.body.length).toBe(1024);
    await within(1000, Promise.all(receiver.closedByClient));
    expect(await receiver.connections()).toBe(0);
  });

  it('cuts off a receiver that answers 200 and then trickles its body, and calls the attempt a timeout', async () => {
    // The status line and 10 of the 100 promised bytes arrive at once; the rest never does.
    const receiver = await stubbornReceiver(
      `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n${'x'.repeat(10)}`,
    );
    const result = await post(receiver.url);
    expect(result).toMatchObject({
      kind: 'error',
      error: 'timed out after 2000 ms: the response body (HTTP 200) did not end in time',
    });
    await within(1000, Promise.all(receiver.closedByClient));
    expect(await receiver.connections()).toBe(0);
  });
});
