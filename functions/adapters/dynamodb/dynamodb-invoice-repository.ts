import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { InvoiceRecord, orderIdOfInvoice } from '../../domain/billing/invoice';
import type { InvoicePage, InvoicePageRequest, InvoiceRepository } from '../../domain/billing/invoice-repository';
import { ConcurrentModification, StripeEventAlreadyProcessed, ValidationFailed } from '../../domain/errors';
import { epochSeconds, type Clock } from '../../domain/clock';
import { orderKeys } from './dynamodb-order-items';
import { failedConditions, lostTransactionConflict } from './transactions';

/** Stripe retries an event for three days; its processed mark outlives that. */
const PROCESSED_EVENT_RETENTION_SECONDS = 30 * 24 * 3600;

/**
 * Key shapes of invoices in the orders table: an order's invoice beside the order (same
 * partition, so one query reads both), listed per organization through gsi1 (newest
 * first), and one item per Stripe event processed.
 */
const invoiceKeys = {
  invoice: (orderId: string) => ({ pk: `ORDER#${orderId}`, sk: 'INVOICE' }),
  invoicesOfOrganization: (organizationId: string) => `INVOICES#ORG#${organizationId}`,
  taxTransaction: (orderId: string) => ({ pk: `ORDER#${orderId}`, sk: 'TAX_TRANSACTION' }),
  stripeEvent: (eventId: string) => ({ pk: `STRIPE_EVENT#${eventId}`, sk: 'STRIPE_EVENT' }),
};

const invoiceItem = (invoice: InvoiceRecord) => ({
  ...invoiceKeys.invoice(invoice.orderId),
  gsi1pk: invoiceKeys.invoicesOfOrganization(invoice.organizationId),
  gsi1sk: `${invoice.issuedAt}#${invoice.id}`,
  version: invoice.version,
  invoice,
});

export class DynamoInvoiceRepository implements InvoiceRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly clock: Clock,
  ) {}

  /** The invoice and the removal of its order's uninvoiced-shipment marker, in one transaction. */
  async record(invoice: InvoiceRecord) {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: invoiceItem(invoice),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Delete: { TableName: this.table, Key: orderKeys.uninvoiced(invoice.orderId) } },
          ],
        }),
      );
      return { invoice, created: true };
    } catch (error) {
      if (!failedConditions(error)?.includes(0)) throw error;
      const stored = await this.getByOrder(invoice.orderId);
      if (!stored) throw error;
      return { invoice: stored, created: false };
    }
  }

  async getByOrder(orderId: string) {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: invoiceKeys.invoice(orderId), ConsistentRead: true }),
    );
    return Item ? InvoiceRecord.parse(Item.invoice) : undefined;
  }

  async update(invoice: InvoiceRecord, stripeEventId?: string) {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: invoiceItem(invoice),
                ConditionExpression: '#version = :expected',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':expected': invoice.version - 1 },
              },
            },
            ...(stripeEventId ? [{ Put: this.processedEventPut(stripeEventId) }] : []),
          ],
        }),
      );
    } catch (error) {
      const failed = failedConditions(error);
      if (stripeEventId && failed?.includes(1)) throw new StripeEventAlreadyProcessed(stripeEventId);
      if (failed || lostTransactionConflict(error))
        throw new ConcurrentModification(`Invoice ${invoice.id} changed since it was read`, { cause: error });
      throw error;
    }
  }

  /** The id names the order (`orderIdOfInvoice`): the invoice is read beside it. */
  async get(invoiceId: string) {
    const orderId = orderIdOfInvoice(invoiceId);
    const invoice = orderId === undefined ? undefined : await this.getByOrder(orderId);
    return invoice?.id === invoiceId ? invoice : undefined;
  }

  /**
   * gsi1 newest first, with the status as a filter: as many reads as it takes to find one
   * more invoice than the page holds, so `hasMore` promises only what exists.
   */
  async listByOrganization(organizationId: string, page: InvoicePageRequest): Promise<InvoicePage> {
    let exclusiveStartKey: Record<string, unknown> | undefined;
    if (page.startingAfter !== undefined) {
      const after = await this.get(page.startingAfter);
      if (after?.organizationId !== organizationId)
        throw new ValidationFailed([
          {
            code: 'INVALID_CURSOR',
            message: 'starting_after is no invoice of this organization',
            path: ['starting_after'],
          },
        ]);
      const { pk, sk, gsi1pk, gsi1sk } = invoiceItem(after);
      exclusiveStartKey = { pk, sk, gsi1pk, gsi1sk };
    }
    const found: InvoiceRecord[] = [];
    do {
      const { Items = [], LastEvaluatedKey } = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ...(page.status === undefined
            ? { ExpressionAttributeValues: { ':pk': invoiceKeys.invoicesOfOrganization(organizationId) } }
            : {
                FilterExpression: '#invoice.#status = :status',
                ExpressionAttributeNames: { '#invoice': 'invoice', '#status': 'status' },
                ExpressionAttributeValues: {
                  ':pk': invoiceKeys.invoicesOfOrganization(organizationId),
                  ':status': page.status,
                },
              }),
          ScanIndexForward: false,
          Limit: Math.max(page.limit + 1, 25),
          ExclusiveStartKey: exclusiveStartKey,
        }),
      );
      found.push(...Items.map((item) => InvoiceRecord.parse(item.invoice)));
      exclusiveStartKey = LastEvaluatedKey;
    } while (found.length <= page.limit && exclusiveStartKey);
    return { invoices: found.slice(0, page.limit), hasMore: found.length > page.limit };
  }

  async taxTransactionOf(orderId: string) {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: invoiceKeys.taxTransaction(orderId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return typeof Item.transactionId === 'string' ? { transactionId: Item.transactionId } : {};
  }

  async recordTaxTransaction(orderId: string, transactionId: string | undefined) {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...invoiceKeys.taxTransaction(orderId),
            ...(transactionId === undefined ? {} : { transactionId }),
            recordedAt: this.clock.now().toISOString(),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async markEventProcessed(stripeEventId: string) {
    try {
      await this.db.send(new PutCommand(this.processedEventPut(stripeEventId)));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  private processedEventPut(stripeEventId: string) {
    return {
      TableName: this.table,
      Item: {
        ...invoiceKeys.stripeEvent(stripeEventId),
        ttl: epochSeconds(this.clock.now()) + PROCESSED_EVENT_RETENTION_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    };
  }
}
