import middy from '@middy/core';
import { type HttpContext, type HttpEvent, type HttpResult, filledIn, type HttpLambda } from '../http/http-context';
import type { EmbedBrowserScripts } from './browser-scripts';
import { routeNameOf } from '../route-names';
import { requestContext } from '../http/request-context';
import { requestLog } from '../http/request-log';
import type { EmbedHostDependencies } from './embed-pipeline';

/** The scripts' routes, by their names in the route table, and the script each serves. */
const SCRIPT_OF = {
  'embed-sdk': 'sdk',
  'module-bridge': 'bridge',
  'module-pages-script': 'pages',
} as const satisfies Readonly<Record<string, keyof EmbedBrowserScripts>>;
export type EmbedScriptRoute = keyof typeof SCRIPT_OF;

export const isEmbedScriptRoute = (name: string | undefined): name is EmbedScriptRoute =>
  name !== undefined && Object.hasOwn(SCRIPT_OF, name);

/**
 * How each script is served. The SDK is imported by partner pages on other origins (an ES
 * module needs CORS) and its path is versioned, so browsers keep it for a year. The bridge
 * and the pages' script are loaded only by our own pages and must follow a deploy of them: five minutes.
 */
const SCRIPT_HEADERS: Readonly<Record<EmbedScriptRoute, Record<string, string>>> = {
  'embed-sdk': {
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'Cache-Control': 'public, max-age=31536000, immutable',
  },
  'module-bridge': {
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'public, max-age=300',
  },
  'module-pages-script': {
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'public, max-age=300',
  },
};

export interface EmbedScriptDependencies extends EmbedHostDependencies {
  /** Undefined where nothing built them (the CLI's composition); the route then fails loudly. */
  readonly browserScripts: EmbedBrowserScripts | undefined;
}

/** The embed host's scripts: request id and log as on every route, no partner, no session. */
export function embedScriptHandler<D extends EmbedScriptDependencies>(getDependencies: () => Promise<D>): HttpLambda {
  return middy<HttpEvent, HttpResult, Error, HttpContext<D>>()
    .use(requestContext(getDependencies))
    .use(requestLog<D>('embed'))
    .handler(async (event, context) => {
      const scripts = filledIn(context.deps, 'deps').browserScripts;
      if (!scripts) throw new Error('The embed function was built without its browser scripts');
      const route = routeNameOf(event.routeKey);
      if (!isEmbedScriptRoute(route)) throw new Error(`No script is served at ${event.routeKey}`);
      return {
        statusCode: 200,
        headers: {
          'Content-Type': 'text/javascript; charset=utf-8',
          'X-Content-Type-Options': 'nosniff',
          ...SCRIPT_HEADERS[route],
        },
        body: scripts[SCRIPT_OF[route]],
      };
    });
}
