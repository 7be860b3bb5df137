import { Stack, Tags, Validations, type App, type StackProps } from 'aws-cdk-lib';
import type { CfnTable, ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { functionEnvironment } from '../../functions/resources/function-environment';
import { ENVIRONMENTS, STAGES, type EnvironmentConfig, type Stage } from '../../functions/resources/stages';
import { TABLES, type FunctionName, type TableName } from '../../functions/resources/resource-definitions';
import { Alarms } from './constructs/alarms';
import { Invoicing } from './constructs/invoicing';
import { ApprovalExpiry } from './constructs/approval-expiry';
import { OperationsDashboard } from './constructs/dashboard';
import { Api } from './constructs/api';
import { Deployments } from './constructs/deployments';
import { NodeFunction } from './constructs/node-function';
import { ProductImages } from './constructs/product-images';
import { Queues } from './constructs/queues';
import { Secrets } from './constructs/secrets';
import { TableBackups } from './constructs/table-backups';
import { Tables } from './constructs/tables';
import { Webhooks } from './constructs/webhooks';
import { embedBrowserScriptDefines } from '../browser-bundling/embed-browser-scripts';

export interface ServiceStackProps extends StackProps {
  readonly config: EnvironmentConfig;
}

type TableAccess = { read: readonly TableName[]; readWrite: readonly TableName[] };

/** Which tables each function may read, and which it may also write: nothing more. */
const TABLE_ACCESS: Readonly<Record<FunctionName, TableAccess>> = {
  // Sessions: deactivating a user (PATCH .../users/{id} `active: false`) ends its embedded sessions.
  setup: { read: ['partners'], readWrite: ['organizations', 'identityUsers', 'idempotency', 'rateLimits', 'sessions'] },
  handshake: { read: ['partners', 'organizations', 'identityUsers'], readWrite: ['sessions', 'rateLimits'] },
  embed: {
    read: ['partners', 'organizations', 'identityUsers', 'catalog'],
    readWrite: ['sessions', 'carts', 'orders'],
  },
  // Writes orders and approval requests only through the sandbox routes (whose decisions keep their
  // Idempotency-Key records); see `tableAccess` for production.
  ordersApi: {
    read: ['partners', 'organizations', 'identityUsers', 'catalog'],
    readWrite: ['orders', 'rateLimits', 'idempotency'],
  },
  // Sandbox only (see `tableAccess`): keys and the webhook endpoint, the organizations a sample names.
  webhookTest: { read: ['partners', 'organizations'], readWrite: ['rateLimits'] },
  // The partner's deliveries and endpoint: a retry starts a new chain on the delivery (webhooks) and queues it.
  webhooksApi: { read: ['partners'], readWrite: ['webhooks', 'rateLimits'] },
  orderOutboxRelay: { read: [], readWrite: [] },
  orderFanout: { read: ['partners', 'organizations'], readWrite: ['webhooks'] },
  webhookDispatch: { read: ['partners'], readWrite: ['webhooks'] },
  webhookSlowDispatch: { read: ['partners'], readWrite: ['webhooks'] },
  // Each expiry is a read and one transaction (the request, its due item, its outbox event) in the orders table.
  approvalExpiry: { read: [], readWrite: ['orders'] },
  // Reads the order and its organization (the Stripe customer, the terms); writes the invoice beside the order.
  invoicing: { read: ['organizations'], readWrite: ['orders'] },
  // The invoicing consumer's path for the shipped orders it finds uninvoiced (their markers: gsi1 of orders).
  invoiceSweep: { read: ['organizations'], readWrite: ['orders'] },
};

/**
 * Production has no sandbox routes, so its order API only reads orders (and approval
 * requests, in the same table) and keeps no Idempotency-Key records, and its webhookTest
 * function (which no route reaches there) may touch nothing.
 */
const tableAccess = (stage: Stage, name: FunctionName): TableAccess => {
  if (stage === 'sandbox') return TABLE_ACCESS[name];
  // Stripe's events change the invoice records beside the orders on every stage (POST /v1/stripe/events).
  if (name === 'ordersApi') return { read: TABLE_ACCESS.ordersApi.read, readWrite: ['orders', 'rateLimits'] };
  if (name === 'webhookTest') return { read: [], readWrite: [] };
  return TABLE_ACCESS[name];
};

/** One stage of the service; bin/app.ts builds one per entry of ENVIRONMENTS, sharing nothing. */
export class ServiceStack extends Stack {
  readonly tables: Tables;
  readonly queues: Queues;
  readonly productImages: ProductImages;
  /** Each function; callers invoke its `live` alias (NodeFunction). */
  readonly functions: Readonly<Record<FunctionName, NodeFunction>>;
  readonly deployments: Deployments;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { config } = props;

    const tables = (this.tables = new Tables(this, 'Tables', { config }));
    const queues = (this.queues = new Queues(this, 'Queues', { config }));

    const environment = functionEnvironment(config, {
      queueUrls: {
        orderEvents: queues.queue.orderEvents.queueUrl,
        webhookDeliveries: queues.queue.webhookDeliveries.queueUrl,
        webhookSlowDeliveries: queues.queue.webhookSlowDeliveries.queueUrl,
        invoicing: queues.queue.invoicing.queueUrl,
      },
    });

    const apiFunction = (id: string, name: FunctionName, define?: Record<string, string>): NodeFunction =>
      new NodeFunction(this, id, { config, name, environment, ...(define ? { define } : {}) });
    const setup = apiFunction('Setup', 'setup');
    const handshake = apiFunction('Handshake', 'handshake');
    // The embed host serves the SDK and the module bridge from its own bundle: no bucket, no second origin.
    const embed = apiFunction('Embed', 'embed', embedBrowserScriptDefines());
    const ordersApi = apiFunction('OrdersApi', 'ordersApi');
    const productImages = (this.productImages = new ProductImages(this, 'ProductImages', { config }));
    productImages.grantReadPictures(embed);
    // Exists on every stage (one function set per stack), but only sandbox routes to it and lets it publish.
    const webhookTest = apiFunction('WebhookTest', 'webhookTest');
    if (config.stage === 'sandbox') queues.queue.orderEvents.grantSendMessages(webhookTest);

    const webhooksApi = apiFunction('WebhooksApi', 'webhooksApi');
    queues.queue.webhookDeliveries.grantSendMessages(webhooksApi);

    const secrets = new Secrets(this, 'Secrets', { config });
    secrets.stripeSecret.grantRead(setup);
    // Checkout's Stripe Tax calculations (docs/billing.md, "Sales tax").
    secrets.stripeSecret.grantRead(embed);
    // Stripe's events in (verified with the endpoint secret, the SDK built with the key) and their invoice.* webhooks.
    secrets.stripeSecret.grantRead(ordersApi);
    secrets.stripeWebhookSecret.grantRead(ordersApi);
    queues.queue.orderEvents.grantSendMessages(ordersApi);
    const webhooks = new Webhooks(this, 'Webhooks', {
      config,
      queues,
      secrets,
      ordersTable: tables.table.orders,
      environment,
    });
    const approvalExpiry = new ApprovalExpiry(this, 'ApprovalExpiry', { config, environment });
    const invoicing = new Invoicing(this, 'Invoicing', { config, queues, environment });
    secrets.stripeSecret.grantRead(invoicing.consumer);
    secrets.stripeSecret.grantRead(invoicing.sweep);
    queues.queue.invoicing.grantSendMessages(webhooks.orderOutboxRelay);

    const functions = (this.functions = {
      setup,
      handshake,
      embed,
      ordersApi,
      webhookTest,
      webhooksApi,
      orderOutboxRelay: webhooks.orderOutboxRelay,
      orderFanout: webhooks.orderFanout,
      webhookDispatch: webhooks.webhookDispatch,
      webhookSlowDispatch: webhooks.webhookSlowDispatch,
      approvalExpiry: approvalExpiry.sweep,
      invoicing: invoicing.consumer,
      invoiceSweep: invoicing.sweep,
    });
    for (const name of Object.keys(TABLE_ACCESS) as FunctionName[]) {
      const access = tableAccess(config.stage, name);
      for (const table of access.read) tables.table[table].grantReadData(functions[name]);
      for (const table of access.readWrite) tables.table[table].grantReadWriteData(functions[name]);
      for (const table of new Set([...access.read, ...access.readWrite])) {
        if (TABLES[table].globalIndexes.length === 0) continue;
        Validations.of(functions[name]).acknowledge({
          id: `AwsSolutions::AwsSolutions-IAM5[Resource::${this.tableArnInFindings(tables.table[table])}/index/*]`,
          reason: `Queries ${table}'s global secondary indexes (${TABLES[table].globalIndexes.map((index) => index.name).join(', ')}); the wildcard covers only that table's indexes`,
        });
      }
    }

    const aliases = Object.fromEntries(Object.entries(functions).map(([name, fn]) => [name, fn.live])) as Record<
      FunctionName,
      NodeFunction['live']
    >;
    const api = new Api(this, 'Api', { config, functions: aliases });

    const apis = { partner: api.partnerApi, embed: api.embedApi };
    const alarms = new Alarms(this, 'Alarms', {
      config,
      queues: queues.queue,
      deadLetterQueues: queues.deadLetterQueue,
      apis,
      functions,
    });
    this.deployments = new Deployments(this, 'Deployments', { config, functions, alarms });
    if (config.backupTables) {
      new TableBackups(this, 'TableBackups', {
        config,
        tables: Object.values(tables.table),
        alarmTopic: alarms.topic,
      });
    }
    new OperationsDashboard(this, 'Dashboard', {
      config,
      queues: queues.queue,
      deadLetterQueues: queues.deadLetterQueue,
      apis,
      alarms: alarms.alarms,
    });
  }

  /** A table's ARN as cdk-nag spells it in a finding: its logical ID's, or the name's for a restored (imported) table. */
  private tableArnInFindings(table: ITable): string {
    const created = table.node.defaultChild as CfnTable | undefined;
    if (created) return `<${this.resolve(created.logicalId) as string}.Arn>`;
    return `arn:<AWS::Partition>:dynamodb:<AWS::Region>:<AWS::AccountId>:table/${table.tableName}`;
  }
}

/** The service: one stack per stage, named `EmbedService-<stage>`. */
export const addServiceStacks = (app: App): Readonly<Record<Stage, ServiceStack>> =>
  Object.fromEntries(
    STAGES.map((stage) => {
      const stack = new ServiceStack(app, `EmbedService-${stage}`, {
        config: ENVIRONMENTS[stage],
        description: `Partner provisioning and embedded sessions (${stage})`,
      });
      // Not on the dashboard: CloudFormation's schema in some regions (us-east-1 among them) has no Tags there (cfn-lint E3002).
      const untaggable = { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] };
      Tags.of(stack).add('service', 'embed-service', untaggable);
      Tags.of(stack).add('stage', stage, untaggable);
      return [stage, stack];
    }),
  ) as Record<Stage, ServiceStack>;
