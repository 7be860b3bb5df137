import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import {
  TABLES,
  tableName,
  type TableDefinition,
  type TableName,
} from '../../../functions/resources/resource-definitions';

export interface TablesProps {
  readonly config: EnvironmentConfig;
}

/** Every table of functions/resources/resource-definitions.ts, under the stage's explicit names so the operator CLI can address them. */
export class Tables extends Construct {
  readonly table: Readonly<Record<TableName, Table>>;

  constructor(scope: Construct, id: string, { config }: TablesProps) {
    super(scope, id);
    const definitions = Object.entries(TABLES) as [TableName, TableDefinition][];
    this.table = Object.fromEntries(
      definitions.map(([name, definition]) => [name, this.createTable(config, name, definition)]),
    ) as Record<TableName, Table>;
  }

  private createTable(config: EnvironmentConfig, name: TableName, definition: TableDefinition): Table {
    const table = new Table(this, name, {
      tableName: tableName(config.resourcePrefix, name),
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
