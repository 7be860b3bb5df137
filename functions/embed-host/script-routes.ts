import middy from '@middy/core';
import { type ApiContext, type ApiEvent, type ApiResult, filledIn, type HttpLambda } from '../api/pipeline/api-context';
import type { EmbedBrowserScripts } from './browser-scripts';
import { requestContext } from '../api/pipeline/request-context';
import { requestLog } from '../api/pipeline/request-log';
import type { EmbedHostDependencies } from '../api/pipeline/pipeline-dependencies';

const EMBED_SDK_ROUTE = 'GET /sdk/v1/embed.js';
const MODULE_BRIDGE_ROUTE = 'GET /embedded/assets/bridge-v1.js';
const MODULE_PAGES_ROUTE = 'GET /embedded/assets/module-v1.js';
export type EmbedScriptRoute = typeof EMBED_SDK_ROUTE | typeof MODULE_BRIDGE_ROUTE | typeof MODULE_PAGES_ROUTE;

const SCRIPT_OF: Readonly<Record<EmbedScriptRoute, keyof EmbedBrowserScripts>> = {
  [EMBED_SDK_ROUTE]: 'sdk',
  [MODULE_BRIDGE_ROUTE]: 'bridge',
  [MODULE_PAGES_ROUTE]: 'pages',
};

export const isEmbedScriptRoute = (routeKey: string): routeKey is EmbedScriptRoute =>
  Object.hasOwn(SCRIPT_OF, routeKey);

/**
 * How each script is served. The SDK is imported by partner pages on other origins (an ES
 * module needs CORS) and its path is versioned, so browsers keep it for a year. The bridge
 * and the pages' script are loaded only by our own pages and must follow a deploy of them: five minutes.
 */
const SCRIPT_HEADERS: Readonly<Record<EmbedScriptRoute, Record<string, string>>> = {
  [EMBED_SDK_ROUTE]: {
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'Cache-Control': 'public, max-age=31536000, immutable',
  },
  [MODULE_BRIDGE_ROUTE]: {
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'public, max-age=300',
  },
  [MODULE_PAGES_ROUTE]: {
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
  return middy<ApiEvent, ApiResult, Error, ApiContext<D>>()
    .use(requestContext(getDependencies))
    .use(requestLog<D>('embed'))
    .handler(async (event, context) => {
      const scripts = filledIn(context.deps, 'deps').browserScripts;
      if (!scripts) throw new Error('The embed function was built without its browser scripts');
      const route = event.routeKey as EmbedScriptRoute;
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
