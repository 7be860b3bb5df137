import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGatewayListener } from '../../lib/local-runtime/api-gateway-adapter';

/** A handler that never answers, behind a route whose function times out after 50 ms. */
const server = createServer(
  apiGatewayListener([
    { method: 'GET', path: '/hangs', timeoutSeconds: 0.05, handler: () => new Promise(() => undefined) },
    {
      method: 'GET',
      path: '/answers',
      timeoutSeconds: 0.05,
      handler: (_event, context) =>
        Promise.resolve({ statusCode: 200, body: String(context.getRemainingTimeInMillis() > 0) }),
    },
  ]),
);
let url: string;
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('the local API Gateway enforces each function timeout as Lambda does', () => {
  it('answers a bare 500 when the handler outlives its timeout', async () => {
    const res = await fetch(`${url}/hangs`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Internal Server Error' });
  });

  it('tells the handler the time it has left', async () => {
    const res = await fetch(`${url}/answers`);
    expect(await res.text()).toBe('true');
  });
});
