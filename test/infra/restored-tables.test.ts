import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnAlias, CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { TABLE_NAME_VARIABLES } from '../../functions/config';
import { TABLES, tableName, type FunctionName, type TableName } from '../../functions/resources/resource-definitions';
import { ENVIRONMENTS, type EnvironmentConfig } from '../../functions/resources/stages';
import { ServiceStack } from '../../lib/infrastructure/service-stack';

/**
 * Issue 44, item 3: a table restored into a new name is a deploy, not an edit of the stack.
 * Production with `restoredTables` naming a restored orders table (whose stream feeds the
 * outbox relay) and a restored partners table (no stream): the stack imports both, names
 * them in every function's environment, grants on them as before, and creates the rest.
 */
type Resource = { Type: string; Properties?: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown };

const RESTORED_ORDERS = 'embed-production-orders-r20261128';
const RESTORED_ORDERS_STREAM = `arn:aws:dynamodb:eu-west-1:123456789012:table/${RESTORED_ORDERS}/stream/2026-11-28T04:10:00.000`;
const RESTORED_PARTNERS = 'embed-production-partners-r20261128';
const production = ENVIRONMENTS.production;
const restoredConfig: EnvironmentConfig = {
  ...production,
  restoredTables: {
    orders: { tableName: RESTORED_ORDERS, streamArn: RESTORED_ORDERS_STREAM },
    partners: { tableName: RESTORED_PARTNERS },
  },
};

const stackOf = (config: EnvironmentConfig) => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return { app, stack: new ServiceStack(app, 'EmbedService-production', { config }) };
};
const { app, stack } = stackOf(restoredConfig);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
// The first synthesis runs cdk-nag; the template is read from it afterwards.
let resources: Record<string, Resource> | undefined;
const template = () => (resources ??= Template.fromStack(stack).toJSON().Resources as Record<string, Resource>);
const ofType = (type: string) => Object.entries(template()).filter(([, r]) => r.Type === type);

const functionId = (fn: FunctionName) => stack.getLogicalId(stack.functions[fn].node.defaultChild as CfnFunction);
const statementsOf = (fn: FunctionName): Statement[] => {
  const role = template()[functionId(fn)]!.Properties!.Role['Fn::GetAtt'][0] as string;
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => JSON.stringify(p.Properties!.Roles).includes(`"${role}"`))
    .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as Statement[]);
};
/** The actions a function may take on the named table (or its indexes: `/index/*`). */
const actionsOnTable = (fn: FunctionName, name: string, suffix = '"') =>
  statementsOf(fn)
    .filter((s) => JSON.stringify(s.Resource).includes(`:table/${name}${suffix}`))
    .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

describe('a production stack pointed at restored tables (restoredTables)', () => {
  it('synthesizes with nothing unacknowledged by cdk-nag', () => {
    expect(() => app.synth()).not.toThrow();
  }, 120_000);

  it('creates no table for the restored ones, and every other table as before', () => {
    const created = ofType('AWS::DynamoDB::Table').map(([, t]) => t.Properties!.TableName as string);
    const expected = (Object.keys(TABLES) as TableName[])
      .filter((t) => t !== 'orders' && t !== 'partners')
      .map((t) => tableName(production.resourcePrefix, t));
    expect(created.sort()).toEqual(expected.sort());
  });

  it("names the restored tables in every function's environment, and the stage's own for the rest", () => {
    for (const fn of Object.keys(stack.functions) as FunctionName[]) {
      expect(template()[functionId(fn)]!.Properties!.Environment.Variables, fn).toMatchObject({
        [TABLE_NAME_VARIABLES.orders]: RESTORED_ORDERS,
        [TABLE_NAME_VARIABLES.partners]: RESTORED_PARTNERS,
        [TABLE_NAME_VARIABLES.sessions]: tableName(production.resourcePrefix, 'sessions'),
      });
    }
  });

  it('grants on the restored tables and their indexes what it granted on the tables they replace', () => {
    for (const fn of ['embed', 'ordersApi', 'approvalExpiry', 'invoicing', 'invoiceSweep'] as const) {
      expect(actionsOnTable(fn, RESTORED_ORDERS), fn).toEqual(expect.arrayContaining(['dynamodb:PutItem']));
      expect(actionsOnTable(fn, RESTORED_ORDERS, '/index/*"'), fn).toContain('dynamodb:Query');
    }
    for (const fn of ['setup', 'handshake', 'webhookDispatch'] as const) {
      expect(actionsOnTable(fn, RESTORED_ORDERS), fn).toEqual([]);
      expect(actionsOnTable(fn, RESTORED_PARTNERS), fn).toContain('dynamodb:GetItem');
      expect(actionsOnTable(fn, RESTORED_PARTNERS), fn).not.toContain('dynamodb:PutItem');
    }
  });

  it("relays the restored orders table's stream, by the ARN given", () => {
    const relayAlias = stack.getLogicalId(stack.functions.orderOutboxRelay.live.node.defaultChild as CfnAlias);
    const streams = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      JSON.stringify(m.Properties!.FunctionName).includes(`"${relayAlias}"`),
    );
    expect(streams.map(([, m]) => m.Properties!.EventSourceArn)).toEqual([RESTORED_ORDERS_STREAM]);
    const streamActions = statementsOf('orderOutboxRelay')
      .filter((s) => JSON.stringify(s.Resource) === JSON.stringify(RESTORED_ORDERS_STREAM))
      .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
    expect(streamActions).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator']));
  });

  it('keeps the restored tables in the backup plan', () => {
    const selection = JSON.stringify(ofType('AWS::Backup::BackupSelection').map(([, s]) => s.Properties));
    expect(selection).toContain(`:table/${RESTORED_ORDERS}"`);
    expect(selection).toContain(`:table/${RESTORED_PARTNERS}"`);
  });

  it.each([
    [{ orders: { tableName: RESTORED_ORDERS } }, /restoredTables\.orders of production needs streamArn/],
    [
      {
        orders: { tableName: RESTORED_ORDERS, streamArn: RESTORED_ORDERS_STREAM.replace(RESTORED_ORDERS, 'x-orders') },
      },
      /streamArn .* is not a stream of embed-production-orders-r20261128/,
    ],
    [{ catalog: { tableName: 'embed production catalog' } }, /"embed production catalog" is not a DynamoDB table name/],
  ])('refuses to synthesize a restored table it could not use: %j', (restoredTables, message) => {
    expect(() => stackOf({ ...production, restoredTables })).toThrow(message);
  });
});
