import { CfnOutput, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CfnStage,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import { apiRoutes, EMBED_ROUTES, type FunctionName } from '../../../functions/resources/resource-definitions';
import { serviceLogGroup } from './node-function';

type RouteDefinition = { readonly method: keyof typeof HttpMethod; readonly path: string; readonly fn: FunctionName };

/**
 * What an access log line keeps. Never headers: they carry the API key, and on the embed host
 * the session cookie. The session token in the embed query string is not logged either.
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    routeKey: '$context.routeKey',
    status: '$context.status',
    responseLatency: '$context.responseLatency',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/**
 * Account-wide backstop across all partners; per-partner limits (setup 100/min, handshake
 * 300/min) are enforced by the service itself with the contract's 429 body.
 */
const STAGE_THROTTLE = { rateLimit: 50, burstLimit: 100 };

/**
 * Each route's own ceiling (requests per second, burst), so a flood against one route
 * (unauthenticated requests are not counted per partner: there is no partner) throttles
 * that route only. Setup is the lowest: every new organization creates a Stripe customer.
 * Keyed by API Gateway route key; a route missing here fails the synth.
 */
const ROUTE_THROTTLE: Readonly<Record<string, { rate: number; burst: number }>> = {
  'POST /v1/organizations/setup': { rate: 20, burst: 40 },
  'POST /v1/partner/handshake': { rate: 50, burst: 100 },
  // Reads are cheap single queries; the per-partner limits (60 catalog, 300 order reads a minute) bind long before these.
  'GET /v1/catalog/products': { rate: 20, burst: 40 },
  'GET /v1/orders': { rate: 50, burst: 100 },
  'GET /v1/orders/{order_id}': { rate: 50, burst: 100 },
  // Sandbox only: a partner's CI placing and advancing orders.
  'POST /v1/sandbox/orders': { rate: 10, burst: 20 },
  'POST /v1/sandbox/orders/{order_id}/confirm': { rate: 10, burst: 20 },
  'POST /v1/sandbox/orders/{order_id}/ship': { rate: 10, burst: 20 },
  'POST /v1/sandbox/orders/{order_id}/deliver': { rate: 10, burst: 20 },
  'POST /v1/sandbox/orders/{order_id}/cancel': { rate: 10, burst: 20 },
  'POST /v1/sandbox/orders/{order_id}/refund': { rate: 10, burst: 20 },
  // Sandbox only: each test event is one POST to the partner's own endpoint.
  'POST /v1/webhooks/test': { rate: 5, burst: 10 },
  'GET /embedded/{partnerId}': { rate: 50, burst: 100 },
  'POST /embedded/{partnerId}/logout': { rate: 10, burst: 20 },
  // The module's pages: people clicking, a few requests a second per user at most.
  'GET /embedded/{partnerId}/cart': { rate: 50, burst: 100 },
  'POST /embedded/{partnerId}/cart/items': { rate: 50, burst: 100 },
  'POST /embedded/{partnerId}/cart/items/{productId}': { rate: 50, burst: 100 },
  'GET /embedded/{partnerId}/checkout': { rate: 50, burst: 100 },
  'GET /embedded/{partnerId}/orders': { rate: 50, burst: 100 },
  // Placing an order writes a transaction: the lowest of the module's routes.
  'POST /embedded/{partnerId}/orders': { rate: 20, burst: 40 },
  'GET /embedded/{partnerId}/orders/{orderId}': { rate: 50, burst: 100 },
  // Buy again writes up to 50 cart lines: a click, not a stream.
  'POST /embedded/{partnerId}/orders/{orderId}/buy-again': { rate: 20, burst: 40 },
  'GET /embedded/{partnerId}/order-guide': { rate: 50, burst: 100 },
  'POST /embedded/{partnerId}/order-guide': { rate: 50, burst: 100 },
  'POST /embedded/{partnerId}/order-guide/items': { rate: 50, burst: 100 },
  // Scripts: browsers cache the SDK for a year and the bridge for five minutes, so these are mostly first visits.
  'GET /sdk/v1/embed.js': { rate: 50, burst: 100 },
  'GET /embedded/assets/bridge-v1.js': { rate: 50, burst: 100 },
  // One per mount of the SDK on a page of another origin.
  'GET /embedded/{partnerId}/frame-check': { rate: 50, burst: 100 },
};

interface LoggedHttpApiProps {
  readonly config: EnvironmentConfig;
  readonly apiName: string;
  readonly description: string;
  readonly routes: readonly RouteDefinition[];
  readonly functions: Readonly<Record<FunctionName, IFunction>>;
}

/** An HTTP API (payload format 2.0, no CORS: callers are servers and same-origin pages) with an access-logged $default stage. */
class LoggedHttpApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;

  constructor(scope: Construct, id: string, { config, apiName, description, routes, functions }: LoggedHttpApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'HttpApi', { apiName, description, createDefaultStage: false });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: STAGE_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(serviceLogGroup(this, 'AccessLogs', config)),
        format: ACCESS_LOG_FORMAT,
      },
    });
    const integrations = new Map<FunctionName, HttpLambdaIntegration>();
    for (const route of routes) {
      let integration = integrations.get(route.fn);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${route.fn}Integration`, functions[route.fn], {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        });
        integrations.set(route.fn, integration);
      }
      this.api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration });
    }
    const routeSettings = Object.fromEntries(
      routes.map((route) => {
        const routeKey = `${route.method} ${route.path}`;
        const throttle = ROUTE_THROTTLE[routeKey];
        if (!throttle) throw new Error(`No throttle for route ${routeKey} in ROUTE_THROTTLE`);
        return [routeKey, { ThrottlingRateLimit: throttle.rate, ThrottlingBurstLimit: throttle.burst }];
      }),
    );
    (this.stage.node.defaultChild as CfnStage).routeSettings = routeSettings;
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions::AwsSolutions-APIG4',
      reason:
        'The partner API authenticates API keys in the Lambda (contract: Bearer on setup, X-API-Key on the handshake, one 401 body); the embed host is public by design and authenticates single-use session tokens and session cookies',
    });
  }
}

export interface ApiProps {
  readonly config: EnvironmentConfig;
  readonly functions: Readonly<Record<FunctionName, IFunction>>;
}

/**
 * The partner API and the embed host, one HTTP API each.
 *
 * Custom domains are not created here: their ACM certificates live in the account. After the
 * first deploy an operator creates the API Gateway custom domain names printed in the outputs
 * (with a certificate for each) and maps each to its API's `$default` stage with an empty
 * mapping key, then points DNS at the domain's regional endpoint.
 */
export class Api extends Construct {
  readonly partnerApi: HttpApi;
  readonly embedApi: HttpApi;

  constructor(scope: Construct, id: string, { config, functions }: ApiProps) {
    super(scope, id);
    const partner = new LoggedHttpApi(this, 'Partner', {
      config,
      apiName: `${config.resourcePrefix}-partner-api`,
      description: `Partner API (${config.stage})`,
      // Per stage: production has no sandbox routes at all.
      routes: apiRoutes(config.stage),
      functions,
    });
    const embed = new LoggedHttpApi(this, 'Embed', {
      config,
      apiName: `${config.resourcePrefix}-embed`,
      description: `Embed host (${config.stage})`,
      routes: EMBED_ROUTES,
      functions,
    });
    this.partnerApi = partner.api;
    this.embedApi = embed.api;

    new CfnOutput(this, 'PartnerApiUrl', { value: partner.stage.url, description: 'Partner API endpoint' });
    new CfnOutput(this, 'EmbedUrl', { value: embed.stage.url, description: 'Embed host endpoint' });
    new CfnOutput(this, 'PartnerApiDomainName', {
      value: config.apiDomainName,
      description: `Custom domain to map to the partner API's $default stage (needs an ACM certificate)`,
    });
    new CfnOutput(this, 'EmbedDomainName', {
      value: config.embedDomainName,
      description: `Custom domain to map to the embed host's $default stage (needs an ACM certificate)`,
    });
  }
}
