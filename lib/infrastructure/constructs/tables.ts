import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type ITable,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { stageTableNames } from '../../../functions/resources/function-environment';
import type { EnvironmentConfig, RestoredTable } from '../../../functions/resources/stages';
import { TABLES, type TableDefinition, type TableName } from '../../../functions/resources/resource-definitions';

export interface TablesProps {
  readonly config: EnvironmentConfig;
}

/** DynamoDB's table names: 3 to 255 of letters, digits, `_`, `-` and `.`. */
const TABLE_NAME_PATTERN = /^[A-Za-z0-9_.-]{3,255}$/;

/**
 * Every table of functions/resources/resource-definitions.ts, under the stage's explicit names
 * so the operator CLI can address them. A table the stage's `restoredTables` names is imported
 * (docs/operations.md, "Restoring a table"): the stack neither creates nor owns it, and the
 * table it replaces leaves the stack (production's is retained, under deletion protection).
 */
export class Tables extends Construct {
  readonly table: Readonly<Record<TableName, ITable>>;

  constructor(scope: Construct, id: string, { config }: TablesProps) {
    super(scope, id);
    const names = stageTableNames(config);
    const definitions = Object.entries(TABLES) as [TableName, TableDefinition][];
    this.table = Object.fromEntries(
      definitions.map(([name, definition]) => {
        const restored = config.restoredTables?.[name];
        if (restored) return [name, this.importTable(config, name, definition, restored)];
        return [name, this.createTable(config, name, names[name], definition)];
      }),
    ) as Record<TableName, ITable>;
  }

  private importTable(
    config: EnvironmentConfig,
    name: TableName,
    definition: TableDefinition,
    restored: RestoredTable,
  ): ITable {
    const setting = `restoredTables.${name} of ${config.stage}`;
    if (!TABLE_NAME_PATTERN.test(restored.tableName))
      throw new Error(`${setting}: "${restored.tableName}" is not a DynamoDB table name`);
    if (definition.stream && !restored.streamArn)
      throw new Error(
        `${setting} needs streamArn (its stream feeds the outbox relay): enable the stream (NEW_IMAGE) on ${restored.tableName} and give its LatestStreamArn`,
      );
    if (restored.streamArn && !restored.streamArn.includes(`:table/${restored.tableName}/stream/`))
      throw new Error(`${setting}: streamArn ${restored.streamArn} is not a stream of ${restored.tableName}`);
    return Table.fromTableAttributes(this, name, {
      tableName: restored.tableName,
      ...(restored.streamArn ? { tableStreamArn: restored.streamArn } : {}),
      // Grants then cover the indexes the functions query, as they do on a created table.
      globalIndexes: definition.globalIndexes.map((index) => index.name),
    });
  }

  private createTable(
    config: EnvironmentConfig,
    name: TableName,
    physicalName: string,
    definition: TableDefinition,
  ): Table {
    const table = new Table(this, name, {
      tableName: physicalName,
      partitionKey: { name: definition.partitionKey, type: AttributeType.STRING },
      sortKey: definition.sortKey ? { name: definition.sortKey, type: AttributeType.STRING } : undefined,
      timeToLiveAttribute: definition.ttlAttribute,
      stream: definition.stream ? StreamViewType.NEW_IMAGE : undefined,
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: config.retainData,
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    for (const index of definition.globalIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
    return table;
  }
}
