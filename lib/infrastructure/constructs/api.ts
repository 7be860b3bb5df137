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
import type { FunctionName } from '../../../functions/resources/resource-definitions';
import { ROUTES, type Route, routeKey, routesOn } from '../../../functions/routes';
import { serviceLogGroup } from './node-function';

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

interface LoggedHttpApiProps {
  readonly config: EnvironmentConfig;
  readonly apiName: string;
  readonly description: string;
  readonly routes: readonly Route[];
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
    // Each route's own ceiling (its row's throttle), so a flood against one route (unauthenticated requests
    // are not counted per partner: there is no partner) throttles that route only.
    const routeSettings = Object.fromEntries(
      routes.map((route) => [
        routeKey(route),
        { ThrottlingRateLimit: route.throttle.rate, ThrottlingBurstLimit: route.throttle.burst },
      ]),
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
  /** The route table (functions/routes.ts); a test passes one with a row removed. */
  readonly routes?: readonly Route[];
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

  constructor(scope: Construct, id: string, { config, functions, routes = ROUTES }: ApiProps) {
    super(scope, id);
    const partner = new LoggedHttpApi(this, 'Partner', {
      config,
      apiName: `${config.resourcePrefix}-partner-api`,
      description: `Partner API (${config.stage})`,
      // Per stage: production has no sandbox-only routes at all.
      routes: routesOn(config.stage, routes).filter((route) => route.host === 'api'),
      functions,
    });
    const embed = new LoggedHttpApi(this, 'Embed', {
      config,
      apiName: `${config.resourcePrefix}-embed`,
      description: `Embed host (${config.stage})`,
      routes: routesOn(config.stage, routes).filter((route) => route.host === 'embed'),
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
