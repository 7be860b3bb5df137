/**
 * The route table (functions/routes.ts) is the only list of routes: the CDK stack, the
 * local gateway and the partner API document each serve or describe exactly its routes,
 * so a row taken out of it is gone from all three.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, type IFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import type { HttpLambda } from '../../functions/http/http-context';
import { FUNCTION_ENTRIES, type FunctionName } from '../../functions/resources/resource-definitions';
import { ENVIRONMENTS, STAGES, type Stage } from '../../functions/resources/stages';
import { type Route, ROUTES, routeKey, routesOn } from '../../functions/routes';
import { buildOpenApiDocument } from '../../lib/api-docs/openapi-document';
import { Api } from '../../lib/infrastructure/constructs/api';
import { localGatewayRoutes } from '../../lib/local-runtime/local-stack';

/** The route keys API Gateway gets from the Api construct built from `table`. */
function cdkRouteKeys(stage: Stage, table: readonly Route[]): string[] {
  const stack = new Stack(new App(), 'Routes');
  const functions = Object.fromEntries(
    (Object.keys(FUNCTION_ENTRIES) as FunctionName[]).map((name) => [
      name,
      new LambdaFunction(stack, name, {
        runtime: Runtime.NODEJS_22_X,
        handler: 'index.handler',
        code: Code.fromInline('exports.handler = async () => {}'),
      }),
    ]),
  ) as unknown as Record<FunctionName, IFunction>;
  new Api(stack, 'Api', { config: ENVIRONMENTS[stage], functions, routes: table });
  return Object.values(Template.fromStack(stack).findResources('AWS::ApiGatewayV2::Route')).map(
    (route) => route.Properties.RouteKey as string,
  );
}

const unused: HttpLambda = async () => ({ statusCode: 500 });
const localRouteKeys = (stage: Stage, table: readonly Route[]) =>
  localGatewayRoutes(stage, () => unused, table).map((route) => `${route.method} ${route.path}`);

/** Every operation of the document, as a route key. */
const documentedRouteKeys = (table: readonly Route[]) =>
  Object.entries(buildOpenApiDocument(table).paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );

const sorted = (keys: readonly string[]) => [...keys].sort();
const apiKeys = (table: readonly Route[]) => table.filter((route) => route.host === 'api').map(routeKey);

describe('the route table', () => {
  it.each(STAGES)(
    '%s: the CDK stack and the local gateway serve exactly its routes for the stage',
    (stage) => {
      const expected = sorted(routesOn(stage).map(routeKey));
      expect(sorted(cdkRouteKeys(stage, ROUTES))).toEqual(expected);
      expect(sorted(localRouteKeys(stage, ROUTES))).toEqual(expected);
    },
    120_000,
  ); // a whole stack's synthesis: seconds alone, over 30 s on a loaded 2-core machine

  it('the partner API document describes exactly its API routes, sandbox-only ones included', () => {
    expect(sorted(documentedRouteKeys(ROUTES))).toEqual(sorted(apiKeys(ROUTES)));
  });

  it.each([
    ['an API route', 'order-get'],
    ['a sandbox-only route', 'webhook-test'],
    ['an embed route', 'module-cart'],
  ])('a row removed (%s, %s) is missing everywhere: CDK, local gateway and document', (_, name) => {
    const row = ROUTES.find((route) => route.name === name);
    if (!row) throw new Error(`no route ${name}`);
    const removed = routeKey(row);
    const table = ROUTES.filter((route) => route !== row);
    expect(table).toHaveLength(ROUTES.length - 1);
    const served = cdkRouteKeys('sandbox', table);
    expect(served).not.toContain(removed);
    expect(localRouteKeys('sandbox', table)).not.toContain(removed);
    expect(documentedRouteKeys(table)).not.toContain(removed);
    // And nothing else went missing with it.
    expect(sorted(served)).toEqual(sorted(routesOn('sandbox', table).map(routeKey)));
    expect(sorted(documentedRouteKeys(table))).toEqual(sorted(apiKeys(table)));
  });

  it('names each route once: handlers, documents and links find a row by its name', () => {
    const names = ROUTES.map((route) => route.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('is the only place a route key is written: no `METHOD /path` string literal in functions/ or lib/', () => {
    expect(routeKeyLiteralsOutsideTheTable()).toEqual([]);
  });
});

/** Every `'GET /…'`-like string literal in the Lambda code and the infrastructure, but for the table's own. */
function routeKeyLiteralsOutsideTheTable(): string[] {
  const literal = /['"](GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \//;
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
    );
  return [...files('functions'), ...files('lib')]
    .filter(
      (file) =>
        ![
          join('functions', 'routes.ts'),
          join('functions', 'api-routes.ts'),
          join('functions', 'embed-routes.ts'),
        ].includes(file),
    )
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (literal.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
}
