/**
 * Builds the partner API document (OpenAPI 3.1) from the route and webhook declarations
 * in the route table (`functions/routes.ts`) and each route's document (`functions/api/<route>/document.ts`): every schema in it is converted from the zod schema the
 * code uses, so regenerating is the only way to change it (`npm run openapi`; a test
 * fails when docs/openapi.json is stale).
 */
import type * as core from 'zod/v4/core';
import { IdempotencyKey } from '../../functions/api/pipeline/idempotency-key';
import { documentedRoutes, WEBHOOK_HEADERS, WEBHOOKS } from '../../functions/api/openapi/partner-api';
import { RESPONSE_HEADERS } from '../../functions/api/openapi/response-headers';
import type { DocumentedRoute, NamedSchema, ResponseDocument } from '../../functions/api/openapi/route-document';
import { ROUTES, type Route } from '../../functions/routes';
import { ENVIRONMENTS } from '../../functions/resources/stages';
import { apiOverview } from './api-overview';
import { type JsonSchema, toJsonSchema } from './json-schema';

export type OpenApiDocument = JsonSchema & {
  paths: Record<string, Record<string, JsonSchema>>;
  webhooks: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema> } & JsonSchema;
};

const SECURITY_SCHEMES = {
  bearerApiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Your API key (`sk_live_…` in production, `sk_test_…` in sandbox) as `Authorization: Bearer <API_KEY>`. Keys stay on your servers.',
  },
  headerApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description:
      'Your API key (`sk_live_…` in production, `sk_test_…` in sandbox) in the `X-API-Key` header. Keys stay on your servers.',
  },
  stripeSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'Stripe-Signature',
    description:
      "Stripe's signature of the exact body with the stack's endpoint secret (`whsec_…`). Only Stripe calls the route that uses it; partners never do.",
  },
} as const;

const SERVERS = {
  production: {
    url: '{base_url}',
    description: 'Production (`sk_live_` keys)',
    variables: {
      base_url: {
        default: `https://${ENVIRONMENTS.production.apiDomainName}`,
        description: 'The production address you were given, without `/v1`',
      },
    },
  },
  sandbox: {
    url: '{sandbox_base_url}',
    description: 'Sandbox (`sk_test_` keys; data isolated from production)',
    variables: {
      sandbox_base_url: {
        default: `https://${ENVIRONMENTS.sandbox.apiDomainName}`,
        description: 'The sandbox address you were given, without `/v1`',
      },
    },
  },
  local: {
    url: 'http://localhost:{port}',
    description: 'The local sandbox (`npm start`)',
    variables: { port: { default: '3000', description: 'PORT of `npm start`' } },
  },
};

const ref = (section: string, name: string) => ({ $ref: `#/components/${section}/${name}` });

/** Named schemas land in `components.schemas` once; one name must always mean one schema. */
class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly sources = new Map<string, core.$ZodType>();

  add({ name, schema }: NamedSchema, io: 'input' | 'output') {
    const known = this.sources.get(name);
    if (known && known !== schema) throw new Error(`Two schemas are named ${name} in the partner API document`);
    if (!known) {
      this.sources.set(name, schema);
      this.schemas[name] = toJsonSchema(schema, io);
    }
    return ref('schemas', name);
  }
}

/** The document of a route table's API routes (the table's, unless a test removes one), in the table's order. */
export function buildOpenApiDocument(table: readonly Route[] = ROUTES): OpenApiDocument {
  const routes = documentedRoutes(table);
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const operations = (paths[route.path] ??= {});
    if (operations[route.method]) throw new Error(`${route.method.toUpperCase()} ${route.path} is declared twice`);
    operations[route.method] = operation(route, components);
  }
  const webhooks: Record<string, Record<string, JsonSchema>> = {};
  for (const webhook of WEBHOOKS) {
    webhooks[webhook.kind] = {
      post: {
        operationId: `${webhook.kind.replace('.', '_')}_webhook`,
        tags: ['Webhooks'],
        summary: webhook.summary,
        description: `We POST this to your webhook URL when ${webhook.summary.charAt(0).toLowerCase()}${webhook.summary.slice(1)}.${webhook.kind.startsWith('approval.') ? ' Sent only to an endpoint subscribed to it: an endpoint set up without the approval kinds gets the order kinds only.' : ''} Verify \`X-Service-Signature\` over the raw body before parsing; de-duplicate by \`X-Service-Delivery-ID\`.`,
        security: [],
        parameters: Object.entries(WEBHOOK_HEADERS).map(([name, header]) => ({
          name,
          in: 'header',
          required: true,
          description: header.description,
          schema: toJsonSchema(header.schema, 'output'),
          example: header.example,
        })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: components.add(webhook.body, 'output'), example: webhook.example } },
        },
        responses: {
          '2XX': { description: 'Delivered: any 2xx within 30 seconds. Answer first, process afterwards.' },
          default: {
            description:
              'Any other status, a redirect, a refused connection or no answer within 30 seconds is a failed attempt: retried 1 min, 5 min, 15 min, 1 h, 6 h and 24 h after the attempt before, then marked failed and alerted by e-mail.',
          },
        },
      },
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner embed API',
      version: '1.0.0',
      summary:
        'Provision organizations and users, embed the procurement module, receive order, approval and invoice webhooks.',
      description: apiOverview(routes),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [SERVERS.production, SERVERS.sandbox, SERVERS.local],
    tags: [...new Set([...Object.keys(TAG_DESCRIPTIONS), ...routes.map((route) => route.tag)])].map((name) => ({
      name,
      ...(TAG_DESCRIPTIONS[name] === undefined ? {} : { description: TAG_DESCRIPTIONS[name] }),
    })),
    paths,
    webhooks,
    components: {
      schemas: components.schemas,
      securitySchemes: SECURITY_SCHEMES,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            "Makes retries safe (as Stripe's does): the first request with a key runs; the same key and body within 24 hours answers the first final outcome (200, 409, or a 400 validation error) again with `Idempotent-Replayed: true`. Same key, another body: 400 `IDEMPOTENCY_KEY_REUSED`; while the first is running: 409 `IDEMPOTENCY_KEY_IN_USE`; after a 500 the request runs again. Keys are per partner account; 1-255 printable ASCII characters.",
          schema: toJsonSchema(IdempotencyKey, 'input'),
          example: 'setup-acme-2-u-2',
        },
      },
    },
  };
}

/** The document's sections, in reading order; a route's tag not listed here comes after them, undescribed (redocly warns). */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Provisioning: 'Organizations, their users (profiles) and shipping locations.',
  Embedding: 'Sessions for the embedded module.',
  Catalog: 'The products your users can order.',
  Orders: "Your organizations' orders, to reconcile what a missed webhook would have told you.",
  'Sandbox orders': 'Sandbox only: place and advance orders so your CI can produce every webhook without a browser.',
  'Approval requests':
    "Carts above their user's order limit, waiting for (or given) an approver's decision: orders-to-be.",
  'Sandbox approval requests':
    'Sandbox only: decide approval requests as one of your approvers, so your CI drives the approval flow without a browser.',
  Invoices:
    'The invoices issued to your organizations when their orders ship (on account terms), and, on sandbox, actions that make Stripe pay an invoice or call it overdue.',
  Webhooks: 'What we send to your webhook URL when an order changes or an approval request is made or decided.',
  Stripe: "Stripe's own events about invoices, signed with the stack's endpoint secret: not a partner route.",
};

function operation(route: DocumentedRoute, components: SchemaComponents): JsonSchema {
  const parameters = [
    ...(route.parameters ?? []).map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      required: parameter.required,
      description: parameter.description,
      schema: toJsonSchema(parameter.schema, 'input'),
    })),
    ...(route.idempotencyKey ? [ref('parameters', 'IdempotencyKey')] : []),
  ];
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: route.description,
    security: [{ [route.security]: [] }],
    ...(route.scope === null ? { 'x-caller': 'stripe' } : { 'x-scope': route.scope }),
    ...(route.limitPerMinute === null ? {} : { 'x-rate-limit-per-minute': route.limitPerMinute }),
    ...(route.sandboxOnly ? { servers: [SERVERS.sandbox, SERVERS.local], 'x-sandbox-only': true } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.requestBody
      ? {
          requestBody: {
            required: route.requestBody.required ?? true,
            content: {
              'application/json': {
                schema: components.add(route.requestBody, 'input'),
                example: route.requestBody.example,
              },
            },
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [status, responseObject(response, components)]),
    ),
  };
}

function responseObject(response: ResponseDocument, components: SchemaComponents): JsonSchema {
  const headers = [
    ...response.headers.required.map((name) => [name, true] as const),
    ...(response.headers.optional ?? []).map((name) => [name, false] as const),
  ];
  return {
    description: response.description,
    headers: Object.fromEntries(
      headers.map(([name, required]) => [
        name,
        {
          description: RESPONSE_HEADERS[name].description,
          required,
          schema: toJsonSchema(RESPONSE_HEADERS[name].schema, 'output'),
        },
      ]),
    ),
    content: {
      'application/json': {
        schema: components.add(response.body, 'output'),
        examples: Object.fromEntries(
          Object.entries(response.examples).map(([name, example]) => [
            name,
            { summary: example.summary, value: example.value },
          ]),
        ),
      },
    },
  };
}
