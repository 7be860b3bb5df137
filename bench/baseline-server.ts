/**
 * The HTTP baseline: a plain node:http server on loopback that answers the two API
 * routes with only their bare DynamoDB calls (bare-calls.ts) and a small JSON body.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { BareCalls, BareSetupBody } from './bare-calls';
import { HANDSHAKE_PATH, SETUP_PATH } from './workloads';

export interface BaselineServer {
  readonly url: string;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

export async function startBaselineServer(bare: BareCalls): Promise<BaselineServer> {
  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    void (async () => {
      const body = await readJson(req);
      if (req.url === HANDSHAKE_PATH) {
        const issued = await bare.handshake(String(req.headers['x-api-key']), String(body.profile_id));
        return answer(200, {
          success: true,
          session_key: issued.sessionKey,
          iframe_embed_url: `http://localhost/embedded/${issued.partnerId}?session_key=${issued.sessionKey}`,
          expires_at: issued.expiresAt,
          profile: { id: issued.profile.id, first_name: issued.profile.firstName, last_name: issued.profile.lastName, email: issued.profile.email },
        });
      }
      if (req.url === SETUP_PATH) {
        const apiKey = String(req.headers.authorization).replace(/^Bearer /, '');
        const created = await bare.setup(apiKey, body as unknown as BareSetupBody);
        return answer(200, { success: true, data: created });
      }
      answer(404, { message: 'Not Found' });
    })().catch((error: unknown) => answer(500, { message: String(error) }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
