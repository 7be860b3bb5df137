/**
 * One port for all of Stripe: the invoicing and Stripe Tax endpoints go to the project's
 * stand-ins, the rest to stripe-stateful-mock. With a data directory the stand-ins keep
 * their invoices, tax calculations and transactions there and serve at the port used
 * before, so the hosted-page and PDF links stored on invoices, and the calculations stored
 * on orders, survive a restart of `npm start`.
 */
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { createExpressApp as createStripeMock } from 'stripe-stateful-mock';
import { StandInStateFile } from './stripe-stand-in-state';
import { servesStripePath, StripeInvoicingStandIn } from './stripe-invoicing-stand-in';
import { servesStripeTaxPath, StripeTaxStandIn } from './stripe-tax-stand-in';

export interface StripeStandInServer {
  /** Base URL, used with the real `stripe` SDK. */
  readonly url: string;
  close(): Promise<void>;
}

/** The stand-in's state file in a data directory. */
const STRIPE_STAND_IN_STATE_FILE = 'stripe-stand-in.json';

export async function startStripeStandIn(
  options: { readonly dataDir?: string; readonly onWarning?: (message: string) => void } = {},
): Promise<StripeStandInServer> {
  const stateFile = options.dataDir
    ? new StandInStateFile(resolve(options.dataDir, STRIPE_STAND_IN_STATE_FILE))
    : undefined;
  const stripeMock = createStripeMock();
  let base = '';
  const invoicing = new StripeInvoicingStandIn({ baseUrl: () => base, ...(stateFile ? { stateFile } : {}) });
  const tax = new StripeTaxStandIn({
    ...(stateFile ? { stateFile } : {}),
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (servesStripeTaxPath(path)) void tax.handle(req, res);
    else if (servesStripePath(path)) void invoicing.handle(req, res);
    else stripeMock(req, res);
  });
  const remembered = stateFile?.read().port;
  let port = remembered ? await listen(server, remembered).catch(() => undefined) : undefined;
  if (remembered && port === undefined)
    options.onWarning?.(
      `The Stripe stand-in's port ${remembered} is taken: it serves at another, and the invoice links issued before lead nowhere until it has its port again.`,
    );
  port ??= await listen(server, 0);
  base = `http://127.0.0.1:${port}`;
  if (stateFile) stateFile.write({ ...stateFile.read(), port });
  return {
    url: base,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((done, fail) => {
    const refused = (error: Error) => fail(error);
    server.once('error', refused);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', refused);
      const address = server.address();
      if (typeof address === 'object' && address) done(address.port);
      else fail(new Error('server is not listening'));
    });
  });
}
