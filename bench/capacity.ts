/**
 * DynamoDB capacity per request. A middleware on a client's stack asks every command for
 * `ReturnConsumedCapacity` and sums what DynamoDB Local reports. DynamoDB Local gets
 * single-item reads and writes right (0.5 unit per eventually consistent 4 KB read, 1 per
 * consistent one, 1 per 1 KB written to the table and to each index) but under-counts
 * TransactWriteItems (three 600-byte puts: 2 units where DynamoDB bills 6; a new
 * organization's six items: 8 where it bills 14). So transactions are counted by
 * DynamoDB's published rule instead: 2 write units per item per started KB (an update
 * at the item's size afterwards, read back unmetered), plus 1 per started KB for each
 * index entry the item has. That index writes cost the standard rate is an assumption
 * (docs/performance.md). Item sizes follow DynamoDB's formula: attribute names and
 * string values in UTF-8 bytes, numbers about one byte per two digits plus one, 1 byte
 * for booleans and null, 3 bytes plus 1 per element for lists and maps.
 *
 * Requests run one at a time through HTTP, the service and its floor (floors.ts), on
 * organizations of the same shape.
 */
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { TABLES } from '../functions/resources/resource-definitions';
import type { BenchStack } from './bench-stack';
import type { FloorServer } from './floors';
import {
  type BenchRequest,
  handshakeWorkload,
  sameOnBothSides,
  setupExistingWorkload,
  setupNewWorkload,
  type SideBySide,
} from './workloads';

const READ_COMMANDS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
]);
const KB = 1024;

export interface CapacityCount {
  readonly read: number;
  readonly write: number;
  /** Of `write`: index entries written by transactions. */
  readonly transactionIndexWrite: number;
  /** Write units as DynamoDB Local reported them (transactions under-counted), for comparison. */
  readonly localReportedWrite: number;
  /** DynamoDB calls by operation, e.g. { GetItem: 3, PutItem: 1 }. */
  readonly calls: Readonly<Record<string, number>>;
}

export interface CapacityMeter {
  take(): CapacityCount;
  stop(): void;
}

/** An item's size by DynamoDB's formula, from its document-client (plain JavaScript) form. */
function itemSize(item: Record<string, unknown>): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => (value === undefined ? sum : sum + Buffer.byteLength(name) + valueSize(value)),
    0,
  );
}

function valueSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint') {
    const digits = String(value).replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').replace(/e.*$/i, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1;
  }
  if (typeof value === 'boolean' || value === null) return 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, element) => sum + valueSize(element), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + valueSize(element), 0);
  if (typeof value === 'object') return 3 + Object.keys(value).length + itemSize(value as Record<string, unknown>);
  return 0;
}

/** Index entries the item has: one per global index whose key attributes it carries. */
function indexEntries(tableName: string, item: Record<string, unknown>): number {
  const table = Object.values(TABLES).find((definition) => tableName.endsWith(`-${definition.suffix}`));
  return (table?.globalIndexes ?? []).filter(
    (index) => item[index.partitionKey] !== undefined && item[index.sortKey] !== undefined,
  ).length;
}

interface TransactItemInput {
  readonly Put?: { TableName?: string; Item?: Record<string, unknown> };
  readonly Update?: { TableName?: string; Key?: Record<string, unknown> };
  readonly Delete?: { TableName?: string; Key?: Record<string, unknown> };
  readonly ConditionCheck?: { TableName?: string; Key?: Record<string, unknown> };
}

interface ConsumedCapacity {
  readonly CapacityUnits?: number;
}

let meters = 0;

/** Counts the capacity every command of `client` consumes until `stop()`. */
export function meterCapacity(client: DynamoDBDocumentClient): CapacityMeter {
  const name = `benchCapacityMeter${(meters += 1)}`;
  const unmetered = new WeakSet<object>();
  let count = { read: 0, write: 0, transactionIndexWrite: 0, localReportedWrite: 0 };
  let calls: Record<string, number> = {};

  /** Reads back (consistently, unmetered) an item a transaction updated. */
  const itemAfterUpdate = async (TableName: string, Key: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const read = new GetCommand({ TableName, Key, ConsistentRead: true });
    unmetered.add(read.input);
    return (await client.send(read)).Item ?? {};
  };

  /** DynamoDB's rule for a transaction: [table units, index units]. */
  const transactionUnits = async (items: readonly TransactItemInput[]): Promise<[number, number]> => {
    let table = 0;
    let index = 0;
    for (const item of items) {
      if (item.Put?.Item && item.Put.TableName) {
        const kb = Math.ceil(itemSize(item.Put.Item) / KB);
        table += 2 * kb;
        index += kb * indexEntries(item.Put.TableName, item.Put.Item);
      } else if (item.Update?.Key && item.Update.TableName) {
        const after = await itemAfterUpdate(item.Update.TableName, item.Update.Key);
        const kb = Math.ceil(itemSize(after) / KB);
        table += 2 * kb;
        index += kb * indexEntries(item.Update.TableName, after);
      } else if (item.Delete || item.ConditionCheck) {
        throw new Error('the capacity meter does not model transactional deletes or condition checks (none are used)');
      }
    }
    return [table, index];
  };

  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (unmetered.has(args.input as object)) return next(args);
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const command = context.commandName ?? 'unknown';
      const consumed = [
        (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity ?? [],
      ].flat();
      const reported = consumed.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      if (READ_COMMANDS.has(command)) {
        count.read += reported;
      } else if (command === 'TransactWriteItemsCommand') {
        const [table, index] = await transactionUnits((input.TransactItems ?? []) as TransactItemInput[]);
        count.write += table + index;
        count.transactionIndexWrite += index;
        count.localReportedWrite += reported;
      } else {
        count.write += reported;
        count.localReportedWrite += reported;
      }
      const operation = command.replace(/Command$/, '');
      calls[operation] = (calls[operation] ?? 0) + 1;
      return result;
    },
    { step: 'initialize', name, priority: 'high' },
  );
  return {
    take: () => {
      const taken = { ...count, calls };
      count = { read: 0, write: 0, transactionIndexWrite: 0, localReportedWrite: 0 };
      calls = {};
      return taken;
    },
    stop: () => {
      client.middlewareStack.remove(name);
    },
  };
}

export const perRequest = (count: CapacityCount, requests: number): CapacityCount => ({
  read: count.read / requests,
  write: count.write / requests,
  transactionIndexWrite: count.transactionIndexWrite / requests,
  localReportedWrite: count.localReportedWrite / requests,
  calls: Object.fromEntries(Object.entries(count.calls).map(([op, n]) => [op, n / requests])),
});

export interface CapacityRow {
  readonly operation: string;
  readonly service: CapacityCount;
  /** The floor's, where the operation has one: the calls must be the same. */
  readonly floor?: CapacityCount;
}

/** What the order and module rows need, `requests` of each per side, made beforehand. */
export interface CapacityInputs {
  readonly placeOrder: SideBySide;
  readonly moveOrder: SideBySide;
  readonly moduleCatalog: SideBySide;
}

/** Sends `request` and insists on its status. */
async function send(baseUrl: string, request: BenchRequest, expectStatus: number): Promise<void> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    redirect: 'manual',
  });
  if (response.status !== expectStatus)
    throw new Error(`${request.path} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

/**
 * Every benchmarked endpoint, `requests` of each one at a time through HTTP, the service
 * and its floor side by side, each metered on its own DynamoDB client.
 */
export async function measureApiCapacity(
  bench: BenchStack,
  floor: FloorServer,
  requests: number,
  inputs: CapacityInputs,
): Promise<CapacityRow[]> {
  const half = bench.capacityOrganizations.length / 2;
  if (half < requests)
    throw new Error(`need ${2 * requests} capacity organizations, have ${bench.capacityOrganizations.length}`);
  const serviceOrganizations = bench.capacityOrganizations.slice(0, requests);
  const floorOrganizations = bench.capacityOrganizations.slice(half, half + requests);
  const serviceMeter = meterCapacity(bench.stack.deps.aws.db);
  const floorMeter = meterCapacity(floor.clients.db);
  try {
    const measure = async ({ service, baseline }: SideBySide): Promise<CapacityRow> => {
      serviceMeter.take();
      for (let i = 0; i < requests; i += 1) await send(bench.stack.url, service.next(), service.expectStatus);
      const serviceCount = serviceMeter.take();
      floorMeter.take();
      for (let i = 0; i < requests; i += 1) await send(floor.url, baseline.next(), baseline.expectStatus);
      const floorCount = floorMeter.take();
      return {
        operation: service.endpoint,
        service: perRequest(serviceCount, requests),
        floor: perRequest(floorCount, requests),
      };
    };
    return [
      await measure({
        service: handshakeWorkload(serviceOrganizations),
        baseline: handshakeWorkload(floorOrganizations),
      }),
      await measure({
        service: setupExistingWorkload(serviceOrganizations),
        baseline: setupExistingWorkload(floorOrganizations),
      }),
      await measure(sameOnBothSides(setupNewWorkload(bench.partners))),
      await measure(inputs.placeOrder),
      await measure(inputs.moveOrder),
      await measure(inputs.moduleCatalog),
    ];
  } finally {
    serviceMeter.stop();
    floorMeter.stop();
  }
}
