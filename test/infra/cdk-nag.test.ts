import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { routesOn } from '../../functions/routes';
import { STAGES } from '../../functions/resources/stages';
import { addServiceStacks } from '../../lib/infrastructure/service-stack';

/**
 * cdk-nag 3 runs as a CDK validation plugin: synthesis throws on any finding that is not
 * acknowledged (`Validations.of(construct).acknowledge({ id, reason })`, next to the
 * construct it concerns). Zero unacknowledged findings on both stacks.
 */
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stacks = addServiceStacks(app);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));

describe('cdk-nag (AwsSolutions and Serverless packs)', () => {
  it('finds nothing unacknowledged in either stack', () => {
    expect(() => app.synth()).not.toThrow();
  }, 120_000); // both stacks' synthesis with every rule pack: over 30 s on a loaded 2-core machine

  it.each(STAGES)('%s: alarm e-mails SNS cannot deliver are kept in a dead-letter queue', (stage) => {
    const subscriptions = Template.fromStack(stacks[stage]).findResources('AWS::SNS::Subscription');
    const email = Object.values(subscriptions).filter((s) => s.Properties.Protocol === 'email');
    expect(email).toHaveLength(1);
    expect(email[0]?.Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: expect.anything() });
  });

  it.each(STAGES)('%s: every route has its own throttle', (stage) => {
    const apiStages = Object.values(Template.fromStack(stacks[stage]).findResources('AWS::ApiGatewayV2::Stage'));
    const settings = Object.assign({}, ...apiStages.map((s) => s.Properties.RouteSettings));
    const routes = routesOn(stage).map((route) => `${route.method} ${route.path}`);
    expect(Object.keys(settings).sort()).toEqual(routes.sort());
    expect(settings).toMatchObject({
      'POST /v1/organizations/setup': { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
      'POST /v1/partner/handshake': { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      'GET /embedded/{partnerId}': { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      'POST /embedded/{partnerId}/logout': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
    });
  });
});
