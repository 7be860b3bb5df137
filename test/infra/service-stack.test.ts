import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { type CfnAlias, CfnFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { TABLE_NAME_VARIABLES } from '../../functions/config';
import { ENVIRONMENTS, STAGES, type Stage } from '../../functions/resources/stages';
import { ROUTES, routeKey, routesOn } from '../../functions/routes';
import {
  APPROVAL_EXPIRY_SWEEP_MINUTES,
  INVOICE_SWEEP_MINUTES,
  FUNCTION_TIMEOUT_SECONDS,
  OUTBOX_KEY_PREFIX,
  QUEUES,
  TABLES,
  deadLetterQueueName,
  productImagesBucketName,
  queueName,
  tableName,
  type FunctionName,
  type QueueName,
  type TableName,
} from '../../functions/resources/resource-definitions';
import { addServiceStacks } from '../../lib/infrastructure/service-stack';

type Resources = Record<string, { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string }>;
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stacks = addServiceStacks(app);
const templates = Object.fromEntries(STAGES.map((s) => [s, Template.fromStack(stacks[s])])) as Record<Stage, Template>;

const tableNames = Object.keys(TABLES) as TableName[];
const queueNames = Object.keys(QUEUES) as QueueName[];
const functionNames = Object.keys(stacks.production.functions) as FunctionName[];
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

const resourcesOf = (stage: Stage, type: string): Resources => templates[stage].findResources(type) as Resources;

const logicalIdWhere = (stage: Stage, type: string, property: string, value: unknown): string => {
  const ids = Object.entries(resourcesOf(stage, type))
    .filter(([, r]) => JSON.stringify(r.Properties?.[property]) === JSON.stringify(value))
    .map(([id]) => id);
  expect(ids, `${type} with ${property} = ${JSON.stringify(value)}`).toHaveLength(1);
  return ids[0]!;
};
const tableId = (stage: Stage, table: TableName) =>
  logicalIdWhere(stage, 'AWS::DynamoDB::Table', 'TableName', tableName(ENVIRONMENTS[stage].resourcePrefix, table));
const queueId = (stage: Stage, queue: QueueName) =>
  logicalIdWhere(stage, 'AWS::SQS::Queue', 'QueueName', queueName(ENVIRONMENTS[stage].resourcePrefix, queue));
const dlqId = (stage: Stage, queue: QueueName) =>
  logicalIdWhere(stage, 'AWS::SQS::Queue', 'QueueName', deadLetterQueueName(ENVIRONMENTS[stage].resourcePrefix, queue));
const functionId = (stage: Stage, fn: FunctionName): string => {
  const stack = stacks[stage];
  return stack.getLogicalId((stack.functions[fn] as IFunction).node.defaultChild as CfnFunction);
};
/** The function's `live` alias: what every caller invokes. */
const aliasId = (stage: Stage, fn: FunctionName): string => {
  const stack = stacks[stage];
  return stack.getLogicalId(stack.functions[fn].live.node.defaultChild as CfnAlias);
};
/** How an event source mapping names the alias: `<function name>:live`, taken from the alias's ARN. */
const aliasQualifiedName = (stage: Stage, fn: FunctionName) => ({
  'Fn::Join': ['', [{ 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: aliasId(stage, fn) }] }] }, ':live']],
});

/** Every IAM statement attached to a function's execution role. */
const statementsOf = (stage: Stage, fn: FunctionName): Statement[] => {
  const role = resourcesOf(stage, 'AWS::Lambda::Function')[functionId(stage, fn)]!.Properties!.Role['Fn::GetAtt'][0];
  return Object.values(resourcesOf(stage, 'AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties!.Roles).includes(`"${role}"`))
    .flatMap((p) => p.Properties!.PolicyDocument.Statement as Statement[]);
};
const actionsOf = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const references = (s: Statement, logicalId: string) => JSON.stringify(s.Resource).includes(`"${logicalId}"`);
const actionsOn = (stage: Stage, fn: FunctionName, logicalId: string): string[] =>
  statementsOf(stage, fn)
    .filter((s) => references(s, logicalId))
    .flatMap(actionsOf);

describe.each(STAGES)('the %s stack', (stage) => {
  const template = templates[stage];
  const config = ENVIRONMENTS[stage];

  it.each(tableNames)(
    'defines the %s table as functions/resources/resource-definitions.ts does, with point-in-time recovery',
    (table) => {
      const definition = TABLES[table];
      const properties = resourcesOf(stage, 'AWS::DynamoDB::Table')[tableId(stage, table)]!.Properties!;
      expect(properties.KeySchema).toEqual([
        { AttributeName: definition.partitionKey, KeyType: 'HASH' },
        ...(definition.sortKey ? [{ AttributeName: definition.sortKey, KeyType: 'RANGE' }] : []),
      ]);
      expect(properties.TimeToLiveSpecification).toEqual(
        definition.ttlAttribute ? { AttributeName: definition.ttlAttribute, Enabled: true } : undefined,
      );
      expect(properties.GlobalSecondaryIndexes ?? []).toEqual(
        definition.globalIndexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      );
      expect(properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      // SSEEnabled without a key means the AWS-managed aws/dynamodb key.
      expect(properties.SSESpecification).toEqual({ SSEEnabled: true });
    },
  );

  it('keeps its tables on stack deletion and protects them only where the stage retains data', () => {
    for (const table of tableNames) {
      const resource = resourcesOf(stage, 'AWS::DynamoDB::Table')[tableId(stage, table)]!;
      expect(resource.DeletionPolicy).toBe(config.retainData ? 'Retain' : 'Delete');
      expect(resource.Properties!.DeletionProtectionEnabled ?? false).toBe(config.retainData);
    }
  });

  it.each(queueNames)('moves %s messages to its dead-letter queue after the defined receives', (queue) => {
    const definition = QUEUES[queue];
    const queues = resourcesOf(stage, 'AWS::SQS::Queue');
    const main = queues[queueId(stage, queue)]!.Properties!;
    const dlq = queues[dlqId(stage, queue)]!.Properties!;
    expect(main.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId(stage, queue), 'Arn'] },
      maxReceiveCount: definition.maxReceiveCount,
    });
    expect(main.VisibilityTimeout).toBe(definition.visibilityTimeoutSeconds);
    expect(dlq.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    for (const properties of [main, dlq]) expect(properties.SqsManagedSseEnabled).toBe(true);
    for (const id of [queueId(stage, queue), dlqId(stage, queue)]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  it.each(functionNames)('runs %s on Node.js 22, arm64, traced, with the runtime configuration', (fn) => {
    const properties = resourcesOf(stage, 'AWS::Lambda::Function')[functionId(stage, fn)]!.Properties!;
    expect(properties.Runtime).toBe('nodejs22.x');
    expect(properties.Architectures).toEqual(['arm64']);
    expect(properties.MemorySize).toBe(512);
    expect(properties.TracingConfig).toEqual({ Mode: 'Active' });
    expect(properties.Environment.Variables).toMatchObject({
      STAGE: stage,
      API_KEY_PREFIX: config.apiKeyPrefix,
      RESOURCE_PREFIX: config.resourcePrefix,
      EMBED_BASE_URL: `https://${config.embedDomainName}`,
      ORDER_EVENTS_QUEUE_URL: { Ref: queueId(stage, 'orderEvents') },
      WEBHOOK_DELIVERIES_QUEUE_URL: { Ref: queueId(stage, 'webhookDeliveries') },
      STRIPE_SECRET_NAME: config.stripeSecretName,
      ALERT_SENDER_EMAIL: config.alertSenderEmail,
      WEBHOOK_REQUIRE_HTTPS_PUBLIC: String(config.webhookRequireHttpsPublic),
      DEFAULT_FRAME_ANCESTORS: config.defaultFrameAncestors.join(','),
      // No restored table on the stage: each variable names the stage's own table.
      ...Object.fromEntries(tableNames.map((t) => [TABLE_NAME_VARIABLES[t], tableName(config.resourcePrefix, t)])),
    });
    // Source maps stay off at run time: each cold start would parse the map (docs/decisions.md).
    expect(properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
    const logGroup = properties.LoggingConfig.LogGroup.Ref as string;
    expect(resourcesOf(stage, 'AWS::Logs::LogGroup')[logGroup]!.Properties!.RetentionInDays).toBe(
      config.logRetentionDays,
    );
  });

  it('gives the handshake no write access to organizations and no secrets', () => {
    const onOrganizations = actionsOn(stage, 'handshake', tableId(stage, 'organizations'));
    expect(onOrganizations).toContain('dynamodb:GetItem');
    expect(onOrganizations.filter((a) => WRITE_ACTIONS.includes(a))).toEqual([]);
    expect(
      statementsOf(stage, 'handshake')
        .flatMap(actionsOf)
        .filter((a) => a.startsWith('secretsmanager:')),
    ).toEqual([]);
    expect(actionsOn(stage, 'handshake', tableId(stage, 'sessions'))).toContain('dynamodb:UpdateItem');
  });

  it('lets setup end sessions (a user deactivated by PATCH) and read only its own stage’s Stripe secret', () => {
    expect(actionsOn(stage, 'setup', tableId(stage, 'sessions'))).toEqual(
      expect.arrayContaining(['dynamodb:Query', 'dynamodb:UpdateItem']),
    );
    expect(actionsOn(stage, 'setup', tableId(stage, 'organizations'))).toContain('dynamodb:PutItem');
    expect(actionsOn(stage, 'setup', tableId(stage, 'partners'))).not.toContain('dynamodb:PutItem');
    const secretId = logicalIdWhere(stage, 'AWS::SecretsManager::Secret', 'Name', config.stripeSecretName);
    const secretStatements = statementsOf(stage, 'setup').filter((s) =>
      actionsOf(s).some((a) => a.startsWith('secretsmanager:')),
    );
    expect(secretStatements.flatMap(actionsOf)).not.toContain('secretsmanager:PutSecretValue');
    expect(secretStatements.every((s) => JSON.stringify(s.Resource) === JSON.stringify({ Ref: secretId }))).toBe(true);
  });

  it('lets the dispatcher batch-read and conditionally update deliveries, and only read endpoints', () => {
    const onWebhooks = actionsOn(stage, 'webhookDispatch', tableId(stage, 'webhooks'));
    expect(onWebhooks).toEqual(
      expect.arrayContaining(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem']),
    );
    const onPartners = actionsOn(stage, 'webhookDispatch', tableId(stage, 'partners'));
    expect(onPartners).toContain('dynamodb:GetItem');
    expect(onPartners.filter((a) => WRITE_ACTIONS.includes(a))).toEqual([]);
  });

  it('lets the dispatcher read only secrets under its stage’s webhook-secret prefix, and write none', () => {
    const secretStatements = statementsOf(stage, 'webhookDispatch').filter((s) =>
      actionsOf(s).some((a) => a.startsWith('secretsmanager:')),
    );
    expect(secretStatements).toHaveLength(1);
    const [statement] = secretStatements;
    expect(actionsOf(statement!).sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
    expect(statement!.Resource).toEqual({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':secretsmanager:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          `:secret:${config.resourcePrefix}/webhook-secrets/*`,
        ],
      ],
    });
    const sesActions = statementsOf(stage, 'webhookDispatch')
      .filter((s) => actionsOf(s).some((a) => a.startsWith('ses:')))
      .map((s) => ({ actions: actionsOf(s), resource: JSON.stringify(s.Resource) }));
    expect(sesActions).toHaveLength(1);
    expect(sesActions[0]!.actions).toEqual(['ses:SendEmail']);
    expect(sesActions[0]!.resource).toContain(`identity/`);
  });

  it('serves the sandbox order routes on sandbox only: production has no such routes at all', () => {
    const routeKeys = Object.values(resourcesOf(stage, 'AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties!.RouteKey as string,
    );
    const sandboxKeys = ROUTES.filter((r) => r.host === 'api' && r.sandboxOnly).map(routeKey);
    expect(routeKeys).toEqual(
      expect.arrayContaining(ROUTES.filter((r) => r.host === 'api' && !r.sandboxOnly).map(routeKey)),
    );
    if (stage === 'sandbox') expect(routeKeys).toEqual(expect.arrayContaining(sandboxKeys));
    else expect(routeKeys.filter((key) => key.includes('/sandbox/') || sandboxKeys.includes(key))).toEqual([]);
  });

  it("lets the orders API write orders on both stages (Stripe's events change invoices), Idempotency-Key records on sandbox only, and never carts, sessions or organizations", () => {
    const writes = (table: TableName) =>
      actionsOn(stage, 'ordersApi', tableId(stage, table)).filter((a) => WRITE_ACTIONS.includes(a));
    expect(actionsOn(stage, 'ordersApi', tableId(stage, 'orders'))).toContain('dynamodb:Query');
    expect(writes('orders').length > 0).toBe(true);
    expect(writes('idempotency').length > 0).toBe(stage === 'sandbox');
    expect(writes('rateLimits')).toContain('dynamodb:UpdateItem');
    for (const table of [
      'carts',
      'sessions',
      'organizations',
      'identityUsers',
      'catalog',
      'partners',
      'webhooks',
    ] as const) {
      expect(writes(table), table).toEqual([]);
    }
    expect(actionsOn(stage, 'ordersApi', tableId(stage, 'carts'))).toEqual([]);
  });

  it('routes POST /v1/webhooks/test on sandbox only: production has no such route', () => {
    const routeKeys = Object.values(resourcesOf(stage, 'AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties!.RouteKey as string,
    );
    expect(routeKeys.includes('POST /v1/webhooks/test')).toBe(stage === 'sandbox');
  });

  it('lets the webhook test function publish order events on sandbox only, and write no table but the rate limits', () => {
    const tableActions = (table: TableName) => actionsOn(stage, 'webhookTest', tableId(stage, table));
    const sqsActions = (queue: QueueName) =>
      actionsOn(stage, 'webhookTest', queueId(stage, queue)).filter((a) => a.startsWith('sqs:'));
    expect(sqsActions('orderEvents').includes('sqs:SendMessage')).toBe(stage === 'sandbox');
    expect(sqsActions('webhookDeliveries')).toEqual([]);
    expect(tableActions('partners').includes('dynamodb:GetItem')).toBe(stage === 'sandbox');
    for (const table of tableNames.filter((t) => t !== 'rateLimits')) {
      expect(
        tableActions(table).filter((a) => WRITE_ACTIONS.includes(a)),
        table,
      ).toEqual([]);
    }
    if (stage === 'production')
      expect(
        statementsOf(stage, 'webhookTest')
          .flatMap(actionsOf)
          .filter((a) => !a.startsWith('xray:')),
      ).toEqual([]);
  });

  it('lets the webhooks API read keys and endpoints, change deliveries and queue their attempts: nothing else', () => {
    const writes = (table: TableName) =>
      actionsOn(stage, 'webhooksApi', tableId(stage, table)).filter((a) => WRITE_ACTIONS.includes(a));
    expect(actionsOn(stage, 'webhooksApi', tableId(stage, 'webhooks'))).toEqual(
      expect.arrayContaining(['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:UpdateItem']),
    );
    expect(actionsOn(stage, 'webhooksApi', tableId(stage, 'partners'))).toContain('dynamodb:GetItem');
    for (const table of tableNames.filter((t) => t !== 'rateLimits' && t !== 'webhooks'))
      expect(writes(table), table).toEqual([]);
    for (const table of [
      'organizations',
      'identityUsers',
      'sessions',
      'orders',
      'carts',
      'catalog',
      'idempotency',
    ] as const) {
      expect(actionsOn(stage, 'webhooksApi', tableId(stage, table)), table).toEqual([]);
    }
    const sqsActions = (queue: QueueName) =>
      actionsOn(stage, 'webhooksApi', queueId(stage, queue)).filter((a) => a.startsWith('sqs:'));
    expect(sqsActions('webhookDeliveries')).toContain('sqs:SendMessage');
    expect(sqsActions('orderEvents')).toEqual([]);
    // No signing secret: nothing it answers is signed.
    expect(
      statementsOf(stage, 'webhooksApi')
        .flatMap(actionsOf)
        .filter((a) => a.startsWith('secretsmanager:')),
    ).toEqual([]);
  });

  it('keeps product pictures in a private, encrypted, SSL-only bucket that only the embed function reads, and only there', () => {
    const bucketId = logicalIdWhere(
      stage,
      'AWS::S3::Bucket',
      'BucketName',
      productImagesBucketName(config.resourcePrefix),
    );
    const bucket = resourcesOf(stage, 'AWS::S3::Bucket')[bucketId]!;
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    expect(bucket.DeletionPolicy).toBe(config.retainData ? 'Retain' : 'Delete');
    const policy = Object.values(resourcesOf(stage, 'AWS::S3::BucketPolicy')).find((p) =>
      JSON.stringify(p.Properties!.Bucket).includes(bucketId),
    );
    expect(policy!.Properties!.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        Principal: { AWS: '*' },
      }),
    );
    expect(actionsOn(stage, 'embed', bucketId)).toEqual(['s3:GetObject']);
    const onPictures = statementsOf(stage, 'embed').find((s) => references(s, bucketId))!;
    expect(JSON.stringify(onPictures.Resource)).toContain('/products/*');
    for (const fn of functionNames.filter((name) => name !== 'embed'))
      expect(actionsOn(stage, fn, bucketId), fn).toEqual([]);
  });

  it('grants no function a wildcard resource beyond X-Ray and ListStreams, which have no resource-level permissions', () => {
    for (const fn of functionNames) {
      const wildcard = statementsOf(stage, fn).filter((s) => s.Resource === '*');
      expect(
        wildcard.flatMap(actionsOf).every((a) => a.startsWith('xray:') || a === 'dynamodb:ListStreams'),
        fn,
      ).toBe(true);
    }
  });

  it('relays only inserted outbox items of the orders stream to the order-events queue, resuming from a failed record', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [tableId(stage, 'orders'), 'StreamArn'] },
      FunctionName: aliasQualifiedName(stage, 'orderOutboxRelay'),
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { Keys: { pk: { S: [{ prefix: OUTBOX_KEY_PREFIX }] } } },
            }),
          },
        ],
      },
    });
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: tableName(ENVIRONMENTS[stage].resourcePrefix, 'orders'),
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
    expect(actionsOn(stage, 'orderOutboxRelay', queueId(stage, 'orderEvents'))).toContain('sqs:SendMessage');
  });

  it('feeds the fan-out from order events and the dispatcher from deliveries, reporting item failures', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId(stage, 'orderEvents'), 'Arn'] },
      FunctionName: aliasQualifiedName(stage, 'orderFanout'),
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId(stage, 'webhookDeliveries'), 'Arn'] },
      FunctionName: aliasQualifiedName(stage, 'webhookDispatch'),
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: QUEUES.webhookDeliveries.consumerConcurrency },
    });
    const timeout = (fn: FunctionName) =>
      resourcesOf(stage, 'AWS::Lambda::Function')[functionId(stage, fn)]!.Properties!.Timeout as number;
    expect(timeout('webhookDispatch')).toBeLessThan(QUEUES.webhookDeliveries.visibilityTimeoutSeconds);
    expect(timeout('orderFanout')).toBeLessThan(QUEUES.orderEvents.visibilityTimeoutSeconds);
    expect(actionsOn(stage, 'orderFanout', queueId(stage, 'webhookDeliveries'))).toContain('sqs:SendMessage');
    expect(actionsOn(stage, 'webhookDispatch', queueId(stage, 'webhookDeliveries'))).toContain('sqs:SendMessage');
    expect(actionsOn(stage, 'webhookDispatch', queueId(stage, 'orderEvents'))).toEqual([]);
  });

  it(`runs the approval expiry sweep every ${APPROVAL_EXPIRY_SWEEP_MINUTES} minutes on an EventBridge schedule, with the orders table only`, () => {
    const sweep = functionId(stage, 'approvalExpiry');
    const rules = Object.values(resourcesOf(stage, 'AWS::Events::Rule'))
      .map((rule) => rule.Properties!)
      .filter((rule) => JSON.stringify(rule.Targets).includes(`"${aliasId(stage, 'approvalExpiry')}"`));
    expect(rules).toEqual([
      expect.objectContaining({
        ScheduleExpression: `rate(${APPROVAL_EXPIRY_SWEEP_MINUTES} minutes)`,
        State: 'ENABLED',
        Targets: [
          expect.objectContaining({
            Arn: { Ref: aliasId(stage, 'approvalExpiry') },
            RetryPolicy: expect.objectContaining({ MaximumRetryAttempts: 0 }),
          }),
        ],
      }),
    ]);
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { Ref: aliasId(stage, 'approvalExpiry') },
      Principal: 'events.amazonaws.com',
    });
    const handler = resourcesOf(stage, 'AWS::Lambda::Function')[sweep]!.Properties!;
    expect(handler.Timeout).toBe(FUNCTION_TIMEOUT_SECONDS.approvalExpiry);
    expect(actionsOn(stage, 'approvalExpiry', tableId(stage, 'orders'))).toEqual(
      expect.arrayContaining(['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem']),
    );
    for (const table of tableNames.filter((t) => t !== 'orders'))
      expect(actionsOn(stage, 'approvalExpiry', tableId(stage, table)), table).toEqual([]);
    for (const queue of queueNames)
      expect(actionsOn(stage, 'approvalExpiry', queueId(stage, queue)), queue).toEqual([]);
  });

  it(`runs the invoice sweep every ${INVOICE_SWEEP_MINUTES} minutes on an EventBridge schedule, with the invoicing consumer's access`, () => {
    const sweep = functionId(stage, 'invoiceSweep');
    const rules = Object.values(resourcesOf(stage, 'AWS::Events::Rule'))
      .map((rule) => rule.Properties!)
      .filter((rule) => JSON.stringify(rule.Targets).includes(`"${aliasId(stage, 'invoiceSweep')}"`));
    expect(rules).toEqual([
      expect.objectContaining({
        ScheduleExpression: `rate(${INVOICE_SWEEP_MINUTES} minutes)`,
        State: 'ENABLED',
        Targets: [
          expect.objectContaining({
            Arn: { Ref: aliasId(stage, 'invoiceSweep') },
            RetryPolicy: expect.objectContaining({ MaximumRetryAttempts: 0 }),
          }),
        ],
      }),
    ]);
    const handler = resourcesOf(stage, 'AWS::Lambda::Function')[sweep]!.Properties!;
    expect(handler.Timeout).toBe(FUNCTION_TIMEOUT_SECONDS.invoiceSweep);
    expect(actionsOn(stage, 'invoiceSweep', tableId(stage, 'orders'))).toEqual(
      expect.arrayContaining(['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem']),
    );
    expect(actionsOn(stage, 'invoiceSweep', queueId(stage, 'orderEvents'))).toContain('sqs:SendMessage');
    expect(JSON.stringify(statementsOf(stage, 'invoiceSweep'))).toContain('secretsmanager:GetSecretValue');
  });

  describe.each([
    ['partner API', `${config.resourcePrefix}-partner-api`, routesOn(stage).filter((r) => r.host === 'api')],
    ['embed host', `${config.resourcePrefix}-embed`, routesOn(stage).filter((r) => r.host === 'embed')],
  ] as const)('its %s', (_, apiName, routes) => {
    const apiId = () => logicalIdWhere(stage, 'AWS::ApiGatewayV2::Api', 'Name', apiName);

    it('is an HTTP API without CORS', () => {
      const properties = resourcesOf(stage, 'AWS::ApiGatewayV2::Api')[apiId()]!.Properties!;
      expect(properties.ProtocolType).toBe('HTTP');
      expect(properties.CorsConfiguration).toBeUndefined();
    });

    it('routes exactly the defined routes to their functions’ live aliases with payload format 2.0', () => {
      const apiRoutes = Object.values(resourcesOf(stage, 'AWS::ApiGatewayV2::Route')).filter(
        (r) => r.Properties!.ApiId.Ref === apiId(),
      );
      const integrations = resourcesOf(stage, 'AWS::ApiGatewayV2::Integration');
      const routed = apiRoutes.map((r) => {
        const integration = integrations[r.Properties!.Target['Fn::Join'][1][1].Ref]!.Properties!;
        expect(integration.PayloadFormatVersion).toBe('2.0');
        return { key: r.Properties!.RouteKey, target: integration.IntegrationUri.Ref };
      });
      expect(routed.sort((a, b) => a.key.localeCompare(b.key))).toEqual(
        routes
          .map((r) => ({ key: `${r.method} ${r.path}`, target: aliasId(stage, r.fn) }))
          .sort((a, b) => a.key.localeCompare(b.key)),
      );
    });

    it('logs access as JSON without headers, throttled, on the $default stage', () => {
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        ApiId: { Ref: apiId() },
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
        AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.anyValue() },
      });
      const apiStage = Object.values(resourcesOf(stage, 'AWS::ApiGatewayV2::Stage')).find(
        (s) => s.Properties!.ApiId.Ref === apiId(),
      )!;
      const format = JSON.parse(apiStage.Properties!.AccessLogSettings.Format as string) as Record<string, string>;
      expect(Object.keys(format).sort()).toEqual(
        ['integrationError', 'ip', 'requestId', 'requestTime', 'responseLatency', 'routeKey', 'status'].sort(),
      );
      expect(Object.values(format).join(' ')).not.toMatch(/header|querystring|authorizer/i);
    });

    it('alarms the operators on any 5xx', () => {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/ApiGateway',
        MetricName: '5xx',
        Dimensions: [{ Name: 'ApiId', Value: { Ref: apiId() } }],
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0,
        AlarmActions: [{ Ref: Match.anyValue() }],
      });
    });
  });

  it('alarms the operators by e-mail when a dead-letter queue holds a message or a function fails', () => {
    const topicId = Object.keys(resourcesOf(stage, 'AWS::SNS::Topic'))[0]!;
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: config.operatorAlarmEmail,
      TopicArn: { Ref: topicId },
    });
    for (const queue of queueNames) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId(stage, queue), 'QueueName'] } }],
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0,
        AlarmActions: [{ Ref: topicId }],
      });
    }
    for (const fn of functionNames) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/Lambda',
        MetricName: 'Errors',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId(stage, fn) } }],
        AlarmActions: [{ Ref: topicId }],
      });
    }
  });

  it('verifies the stage’s alert sender with SES', () => {
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: config.alertSenderEmail });
  });
});

describe('the two stages', () => {
  it('are separate stacks, one per stage', () => {
    expect(app.node.children.filter((c) => c instanceof Stack).map((s) => (s as Stack).stackName)).toEqual(
      STAGES.map((stage) => `EmbedService-${stage}`),
    );
  });

  it('share no table, queue or secret: every name carries its own stage prefix', () => {
    const namesOf = (stage: Stage): string[] => [
      ...Object.values(resourcesOf(stage, 'AWS::DynamoDB::Table')).map((r) => r.Properties!.TableName as string),
      ...Object.values(resourcesOf(stage, 'AWS::SQS::Queue')).map((r) => r.Properties!.QueueName as string),
      ...Object.values(resourcesOf(stage, 'AWS::SecretsManager::Secret')).map((r) => r.Properties!.Name as string),
    ];
    const names = Object.fromEntries(STAGES.map((s) => [s, namesOf(s)])) as Record<Stage, string[]>;
    for (const stage of STAGES) {
      const prefix = ENVIRONMENTS[stage].resourcePrefix;
      // + the Stripe API key, Stripe's webhook endpoint secret and the alarm subscription's dead-letter queue
      expect(names[stage]).toHaveLength(tableNames.length + 2 * queueNames.length + 3);
      for (const name of names[stage]) expect(name).toMatch(new RegExp(`^${prefix}[-/]`));
    }
    expect(names.production.filter((n) => names.sandbox.includes(n))).toEqual([]);
    expect(ENVIRONMENTS.production.resourcePrefix.startsWith(ENVIRONMENTS.sandbox.resourcePrefix)).toBe(false);
    expect(ENVIRONMENTS.sandbox.resourcePrefix.startsWith(ENVIRONMENTS.production.resourcePrefix)).toBe(false);
  });

  it('let the dispatcher of one stage read none of the other stage’s webhook secrets', () => {
    const prefixIn = (stage: Stage) =>
      JSON.stringify(
        statementsOf(stage, 'webhookDispatch').filter((s) => actionsOf(s).includes('secretsmanager:GetSecretValue')),
      );
    expect(prefixIn('production')).not.toContain(`${ENVIRONMENTS.sandbox.resourcePrefix}/`);
    expect(prefixIn('sandbox')).not.toContain(`${ENVIRONMENTS.production.resourcePrefix}/`);
  });
});

describe.each(STAGES)('the %s stack: dashboard and alarms (issue 31)', (stage) => {
  const template = templates[stage];
  const { resourcePrefix } = ENVIRONMENTS[stage];
  const topicId = () => Object.keys(resourcesOf(stage, 'AWS::SNS::Topic'))[0]!;
  const alarms = () => Object.values(resourcesOf(stage, 'AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties!);
  /** The dashboard's body, with CloudFormation's intrinsic functions flattened to text. */
  const dashboardBody = (): string => {
    const dashboards = Object.values(resourcesOf(stage, 'AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    return JSON.stringify(dashboards[0]!.Properties!.DashboardBody);
  };

  it(`defines one dashboard, ${resourcePrefix}-operations, with API traffic and errors, p99 per route, delivery lag, webhook outcomes and circuits, queues and DLQs, and every alarm`, () => {
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: `${resourcePrefix}-operations` });
    const body = dashboardBody();
    for (const title of [
      'API requests',
      'API errors (4xx, 5xx)',
      'p99 latency per route (ms)',
      'Webhook delivery lag (ms): change committed → 2xx',
      'Webhook attempts by outcome; retries; open circuits',
      'Queue depth and oldest message (s)',
      'Dead-letter queues',
    ]) {
      expect(body).toContain(title);
    }
    // The service's own metrics of this stage only, by the names the handlers publish.
    expect(body).toContain(
      `SEARCH('{PartnerEmbed,service,route} MetricName=\\\\\\"RequestLatency\\\\\\" service=\\\\\\"${resourcePrefix}\\\\\\"', 'p99', 300)`,
    );
    expect(body).toContain('CircuitStateChanges');
    for (const metric of [
      'DeliveryLag',
      'RetriesScheduled',
      'OrdersPlaced',
      'Handshakes',
      'SessionsRedeemed',
      'RateLimited',
    ]) {
      expect(body).toContain(`"PartnerEmbed\\",\\"${metric}\\",\\"service\\",\\"${resourcePrefix}`);
    }
    for (const outcome of ['delivered', 'retry-scheduled', 'failed']) {
      expect(body).toContain(
        `"PartnerEmbed\\",\\"WebhookAttempts\\",\\"outcome\\",\\"${outcome}\\",\\"service\\",\\"${resourcePrefix}`,
      );
    }
    for (const metric of ['"5xx', '"4xx', 'ApproximateAgeOfOldestMessage', 'ApproximateNumberOfMessagesVisible'])
      expect(body).toContain(metric);
    for (const queue of queueNames) {
      expect(body).toContain(dlqId(stage, queue));
      expect(body).toContain(queueId(stage, queue));
    }
    // The alarm status widget lists every alarm of the stack.
    for (const id of Object.keys(resourcesOf(stage, 'AWS::CloudWatch::Alarm'))) expect(body).toContain(id);
  });

  it("shows the webhooks' fast and slow paths: each queue's depth and oldest message, attempts moved by reason, endpoints moved to and from the slow path", () => {
    const body = dashboardBody();
    expect(body).toContain('Webhooks: fast and slow paths');
    for (const label of ['fast path visible', 'slow path visible', 'fast path oldest (s)', 'slow path oldest (s)'])
      expect(body).toContain(label);
    expect(body).toContain(queueId(stage, 'webhookSlowDeliveries'));
    expect(body).toContain('MetricName=\\\\\\"SlowPathMoves\\\\\\"');
    expect(body).toContain('{PartnerEmbed,service,to} MetricName=\\\\\\"EndpointPathChanges\\\\\\"');
  });

  it('has a billing row: invoices issued and paid, invoicing failures by event, uninvoiced shipments swept, the invoicing DLQ depth', () => {
    const body = dashboardBody();
    expect(body).toContain(
      'Invoices issued, paid; invoicing failures; uninvoiced shipments swept; invoicing DLQ depth',
    );
    for (const metric of ['InvoicesIssued', 'InvoicesPaid', 'UninvoicedShipmentsSwept'])
      expect(body).toContain(`"PartnerEmbed\\",\\"${metric}\\",\\"service\\",\\"${resourcePrefix}`);
    expect(body).toContain(
      `SEARCH('{PartnerEmbed,service,event} MetricName=\\\\\\"InvoicingFailures\\\\\\" service=\\\\\\"${resourcePrefix}\\\\\\"', 'Sum', 300)`,
    );
    expect(body).toContain('invoicing DLQ');
  });

  it('alarms on the first uninvoiced shipment the invoice sweep finds', () => {
    expect(alarms()).toContainEqual(
      expect.objectContaining({
        Namespace: 'PartnerEmbed',
        MetricName: 'UninvoicedShipmentsSwept',
        Dimensions: [{ Name: 'service', Value: resourcePrefix }],
        Statistic: 'Sum',
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 1,
      }),
    );
  });

  it('alarms on the 5xx rate of each API, sustained', () => {
    const rates = alarms().filter((a) => a.MetricName === '5xx' && a.Statistic === 'Average');
    expect(rates).toHaveLength(2);
    for (const alarm of rates) {
      expect(alarm).toMatchObject({
        Namespace: 'AWS/ApiGateway',
        Threshold: 0.05,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
        AlarmActions: [{ Ref: topicId() }],
      });
    }
  });

  it('alarms on the p99 of webhook delivery lag over 10 minutes', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'PartnerEmbed',
      MetricName: 'DeliveryLag',
      Dimensions: [{ Name: 'service', Value: resourcePrefix }],
      ExtendedStatistic: 'p99',
      Threshold: 600_000,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [{ Ref: topicId() }],
    });
  });

  it("alarms when a busy endpoint's first attempts reach it over a minute after the change, sustained; its p99 is on the dashboard", () => {
    const lagAlarms = alarms().filter((a) =>
      a.Metrics?.some((m: { Expression?: string }) => m.Expression?.includes('MAX(DeliveryLag)')),
    );
    expect(lagAlarms).toHaveLength(1);
    expect(lagAlarms[0]).toMatchObject({
      Threshold: 60_000,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      AlarmActions: [{ Ref: topicId() }],
      Metrics: [
        {
          Expression: `SELECT MAX(DeliveryLag) FROM SCHEMA("PartnerEmbed", partner, service) WHERE service = '${resourcePrefix}'`,
          Period: 300,
        },
      ],
    });
    const body = dashboardBody();
    expect(body).toContain(
      `SEARCH('{PartnerEmbed,service,partner} MetricName=\\\\\\"DeliveryLag\\\\\\" service=\\\\\\"${resourcePrefix}\\\\\\"', 'p99', 300)`,
    );
  });

  it('alarms when over a quarter of webhook attempts fail, once there are 20', () => {
    const [failureRate, ...others] = alarms().filter(
      (a) =>
        Array.isArray(a.Metrics) && !a.Metrics.some((m: { Expression?: string }) => m.Expression?.startsWith('SELECT')),
    );
    expect(others).toEqual([]);
    const expression = failureRate!.Metrics.find((m: { Expression?: string }) => m.Expression);
    expect(expression.Expression).toBe(
      'IF(delivered + retried + failed >= 20, (retried + failed) / (delivered + retried + failed), 0)',
    );
    const outcomes = Object.fromEntries(
      failureRate!.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat).map(
        (m: {
          Id: string;
          MetricStat: {
            Metric: { MetricName: string; Namespace: string; Dimensions: { Name: string; Value: string }[] };
          };
        }) => [
          m.Id,
          {
            name: m.MetricStat.Metric.MetricName,
            namespace: m.MetricStat.Metric.Namespace,
            dimensions: m.MetricStat.Metric.Dimensions,
          },
        ],
      ),
    );
    for (const [id, outcome] of [
      ['delivered', 'delivered'],
      ['retried', 'retry-scheduled'],
      ['failed', 'failed'],
    ]) {
      expect(outcomes[id!]).toEqual({
        name: 'WebhookAttempts',
        namespace: 'PartnerEmbed',
        dimensions: expect.arrayContaining([
          { Name: 'service', Value: resourcePrefix },
          { Name: 'outcome', Value: outcome },
        ]),
      });
    }
    expect(failureRate).toMatchObject({
      Threshold: 0.25,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [{ Ref: topicId() }],
    });
  });

  it('alarms on each dead-letter queue holding a message and on each queue’s oldest message waiting too long', () => {
    for (const queue of queueNames) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId(stage, queue), 'QueueName'] } }],
        Threshold: 0,
        AlarmActions: [{ Ref: topicId() }],
      });
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateAgeOfOldestMessage',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId(stage, queue), 'QueueName'] } }],
        Threshold: { orderEvents: 300, webhookDeliveries: 1800, webhookSlowDeliveries: 300, invoicing: 1800 }[queue],
        ComparisonOperator: 'GreaterThanThreshold',
        AlarmActions: [{ Ref: topicId() }],
      });
    }
  });

  it('gives each function LOG_LEVEL for Powertools Logger', () => {
    for (const fn of functionNames) {
      expect(
        resourcesOf(stage, 'AWS::Lambda::Function')[functionId(stage, fn)]!.Properties!.Environment.Variables.LOG_LEVEL,
      ).toBe('INFO');
    }
  });
});
