/**
 * A partner's product as the SDK meets it: its own small HTTP server, on its own port (so
 * its origin differs from the embed host's and every message crosses origins). Its page
 * imports the SDK from the embed host and mounts the module; its backend route performs
 * the handshake with the partner's key, which never reaches the browser. `/foreign` is
 * another site's page the tests put beside the module to post lookalike messages.
 */
import { createServer, type Server } from 'node:http';

export interface PartnerPageServer {
  readonly port: number;
  /** How many times the page's `fetchEmbedUrl` asked the backend for a link. */
  readonly handshakes: number;
  close(): Promise<void>;
}

const partnerPage = (embedHost: string, loadTimeoutMs: number) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Partner app</title>
<style>body{margin:0;font:15px system-ui}main{max-width:900px;margin:0 auto;padding:12px}</style></head>
<body><main><h1>Partner app</h1><div id="supplies"></div></main>
<script type="module">
  window.embedEvents = [];
  window.fetchEmbedUrlCalls = 0;
  const { mount } = await import(${JSON.stringify(`${embedHost}/sdk/v1/embed.js`)});
  window.embed = await mount(document.getElementById('supplies'), {
    loadTimeoutMs: ${loadTimeoutMs},
    fetchEmbedUrl: async () => {
      window.fetchEmbedUrlCalls += 1;
      const res = await fetch('/supplies-session', { method: 'POST' });
      return (await res.json()).iframe_embed_url;
    },
    onEvent: (event) => window.embedEvents.push(event),
  });
</script>
</body></html>`;

/** Another origin's page inside the partner's: it posts messages shaped like the protocol's both ways and keeps what it receives. */
const foreignPage = (embedHost: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Foreign</title></head><body>
<script>
  window.received = [];
  addEventListener('message', (event) => window.received.push({ origin: event.origin, data: event.data }));
  const message = (type, data) => ({ protocol: 'supplies-embed', version: 1, type, data });
  // To the partner's page, as if from the module.
  parent.postMessage(message('session.ended', {}), '*');
  parent.postMessage(message('page', { page: 'order', item_count: 42, order: { order_id: 'forged', total: 1 } }), '*');
  parent.postMessage(message('resize', { height: 5000 }), '*');
  parent.postMessage(message('link.unusable', {}), '*');
  parent.postMessage(message('signed_out', {}), '*');
  // To the module, as if from the partner's page.
  parent.frames[0].postMessage(message('hello', {}), ${JSON.stringify(embedHost)});
  window.posted = true;
</script></body></html>`;

export async function startPartnerPageServer(options: {
  embedHost: string;
  apiUrl: string;
  apiKey: string;
  profileId: string;
  loadTimeoutMs?: number;
}): Promise<PartnerPageServer> {
  let handshakes = 0;
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://partner');
    if (req.method === 'POST' && url.pathname === '/supplies-session') {
      handshakes += 1;
      const answer = await fetch(`${options.apiUrl}/v1/partner/handshake`, {
        method: 'POST',
        headers: { 'X-API-Key': options.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ profile_id: options.profileId }),
      });
      const body = (await answer.json()) as { iframe_embed_url?: string };
      res
        .writeHead(answer.status, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ iframe_embed_url: body.iframe_embed_url }));
      return;
    }
    const html =
      url.pathname === '/foreign'
        ? foreignPage(options.embedHost)
        : url.pathname === '/'
          ? partnerPage(options.embedHost, options.loadTimeoutMs ?? 10_000)
          : undefined;
    if (!html) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    get handshakes() {
      return handshakes;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
