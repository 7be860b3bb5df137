/**
 * The HTTP baseline: a plain node:http server on loopback that answers each benchmarked
 * route with only its bare calls (bare-calls.ts), one after another, and a small JSON body.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { EMBED_SESSION_COOKIE } from '../functions/embed-host/session-cookie';
import type { BareCalls, BareOrderBody, BareSetupBody } from './bare-calls';
import { CONFIRM_ORDER_PATH, HANDSHAKE_PATH, MODULE_PAGE_PATH, PLACE_ORDER_PATH, SETUP_PATH } from './workloads';

export interface BaselineServer {
  readonly url: string;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
}

const bearer = (req: IncomingMessage) => String(req.headers.authorization).replace(/^Bearer /, '');
const sessionCookie = (req: IncomingMessage) =>
  String(req.headers.cookie ?? '')
    .split(/;\s*/)
    .find((pair) => pair.startsWith(`${EMBED_SESSION_COOKIE}=`))
    ?.slice(EMBED_SESSION_COOKIE.length + 1) ?? '';

export async function startBaselineServer(bare: BareCalls): Promise<BaselineServer> {
  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    void (async () => {
      const url = req.url ?? '';
      const page = MODULE_PAGE_PATH.exec(url);
      if (req.method === 'GET' && page) {
        return answer(200, { success: true, ...(await bare.moduleCatalog(page[1] as string, sessionCookie(req))) });
      }
      const body = await readJson(req);
      if (url === HANDSHAKE_PATH) {
        const issued = await bare.handshake(String(req.headers['x-api-key']), String(body.profile_id));
        return answer(200, {
          success: true,
          session_key: issued.sessionKey,
          iframe_embed_url: `http://localhost/embedded/${issued.partnerId}?session_key=${issued.sessionKey}`,
          expires_at: issued.expiresAt,
          profile: { id: issued.profile.id, first_name: issued.profile.firstName, last_name: issued.profile.lastName, email: issued.profile.email },
        });
      }
      if (url === SETUP_PATH) {
        const created = await bare.setup(bearer(req), body as unknown as BareSetupBody);
        return answer(200, { success: true, data: created });
      }
      if (url === PLACE_ORDER_PATH) {
        const order = await bare.placeOrder(bearer(req), body as unknown as BareOrderBody);
        return answer(201, { success: true, order: { id: order.id, status: order.status } });
      }
      const confirm = CONFIRM_ORDER_PATH.exec(url);
      if (confirm) {
        const order = await bare.confirmOrder(bearer(req), confirm[1] as string);
        return answer(200, { success: true, order: { id: order.id, status: order.status } });
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
