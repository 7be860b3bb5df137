import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { InvoiceRecord } from '../../domain/billing/invoice';
import type { InvoiceRepository } from '../../domain/billing/invoice-repository';
import { ConcurrentModification, StripeEventAlreadyProcessed } from '../../domain/errors';
import { epochSeconds, type Clock } from '../../domain/clock';
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

  async record(invoice: InvoiceRecord) {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: invoiceItem(invoice),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { invoice, created: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
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
