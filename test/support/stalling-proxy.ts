import { connect, createServer, type Socket } from 'node:net';

export interface StallingProxy {
  /** `http://127.0.0.1:<port>`: use it as the service endpoint instead of the stand-in's. */
  readonly url: string;
  /** From now on, bytes from clients are swallowed: connections stay open and nothing ever answers. */
  stall(): void;
  /** Forward again. */
  resume(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a stand-in that can stop answering without closing anything,
 * the way a dependency stalls in real life (a hung host, a black-holed route): the
 * cases no timeout of ours covered until clients got connection and request timeouts.
 */
export async function startStallingProxy(upstream: string): Promise<StallingProxy> {
  const target = new URL(upstream);
  let stalled = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    const server = connect(Number(target.port), target.hostname);
    sockets.add(server);
    client.on('data', (chunk) => {
      if (!stalled) server.write(chunk);
    });
    server.on('data', (chunk) => {
      if (!stalled) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
    };
    client.on('close', end).on('error', end);
    server.on('close', end).on('error', end);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stall: () => void (stalled = true),
    resume: () => void (stalled = false),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
