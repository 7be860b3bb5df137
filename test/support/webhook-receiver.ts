import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedWebhook {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  readonly rawBody: Buffer;
}

/** How the receiver answers its nth request (0-based): a status code (with headers, after `afterMs`), or 'hang' to never answer. */
export type Responder = (
  index: number,
) =>
  | number
  | 'hang'
  | { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly afterMs?: number };

export interface WebhookReceiver {
  readonly url: string;
  readonly requests: ReceivedWebhook[];
  close(): Promise<void>;
}

/** A real partner-side HTTP server on 127.0.0.1 that records what it receives. */
export async function startWebhookReceiver(
  respond: Responder = () => 200,
  path = '/webhooks',
): Promise<WebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = requests.length;
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
      });
      const answer = respond(index);
      if (answer === 'hang') return;
      const { status, headers, afterMs } = typeof answer === 'number' ? { status: answer, afterMs: 0 } : answer;
      const send = () =>
        res.writeHead(status, { 'Content-Type': 'text/plain', ...headers }).end(`answer ${status} to request ${index}`);
      if (afterMs) setTimeout(send, afterMs);
      else send();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Receivers a test file starts as it goes, all closed together (in an afterEach). */
export function receiverPool() {
  const open: WebhookReceiver[] = [];
  return {
    async start(respond?: Responder): Promise<WebhookReceiver> {
      const started = await startWebhookReceiver(respond);
      open.push(started);
      return started;
    },
    closeAll: () => Promise.all(open.splice(0).map((r) => r.close())),
  };
}
