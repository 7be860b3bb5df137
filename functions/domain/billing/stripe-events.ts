import type { Clock } from '../clock';
import { correlate } from '../correlation';
import { ConcurrentModification, InvoiceNotIssuedYet, StripeEventAlreadyProcessed } from '../errors';
import { invoiceStatusEvent } from '../events/invoice-events';
import type { MessageQueue } from '../events/message-queue';
import type { OrderEventMessage } from '../events/order-event-message';
import { METRIC, type Metrics } from '../metrics';
import { applyInvoiceEvent, type InvoiceRecord, isOrderIdShape } from './invoice';
import type { InvoiceRepository } from './invoice-repository';
import type { InvoicingProvider } from './invoicing-provider';
import {
  HANDLED_STRIPE_EVENTS,
  type HandledKind,
  type IgnoredReason,
  invoiceRecordFits,
  stateFromStripe,
} from './stripe-invoice-state';

/** The last second of 9999: the latest `created` an ISO 8601 time (the log line's, the partner event's) can say. */
export const LATEST_STRIPE_EVENT_CREATED = 253_402_300_799;

/** What the service reads of a verified Stripe event (the adapter maps `Stripe.Event` to it). */
export interface VerifiedStripeEvent {
  readonly id: string;
  readonly type: string;
  /** Epoch seconds, 0 to LATEST_STRIPE_EVENT_CREATED (the adapter refuses others). */
  readonly created: number;
  /** `data.object` when it is an invoice. */
  readonly invoice?: {
    readonly id: string;
    /** The order it bills (the invoice's `metadata.orderId`). */
    readonly orderId?: string;
  };
}

type StripeEventOutcome = 'applied' | 'unchanged' | 'duplicate' | 'ignored';

/** The outcome, and for `ignored` why (logged, so an operator sees what was not applied). */
export interface StripeEventResult {
  readonly outcome: StripeEventOutcome;
  readonly reason?: IgnoredReason;
}

export interface StripeEventsOptions {
  readonly invoices: InvoiceRepository;
  /** Where the invoice's current state is read: the event only says that it changed. */
  readonly provider: Pick<InvoicingProvider, 'retrieve'>;
  readonly clock: Clock;
  readonly metrics: Metrics;
  /**
   * The order-events queue: `invoice.paid` and `invoice.overdue` go to the partner's
   * endpoints subscribed to them (void and uncollectible have no kind; docs/decisions.md).
   */
  readonly events: MessageQueue<OrderEventMessage>;
}

/** Lost races on one invoice record before the event is answered 500 (Stripe retries it). */
const MAX_ATTEMPTS = 5;

const ignored = (reason: IgnoredReason): StripeEventResult => ({ outcome: 'ignored', reason });

const isHandled = (type: string): type is HandledKind => (HANDLED_STRIPE_EVENTS as readonly string[]).includes(type);

/**
 * Stripe's invoice events, verified by the route. An event only says the invoice changed:
 * its state is read from Stripe (Stripe's advice, so delivery order does not matter),
 * checked against Stripe's transitions and the record's schema and total, and only then
 * written. Each event id changes the order's invoice record at most once (marked processed
 * in the same conditional write), and an event older than the last one applied changes
 * nothing (applyInvoiceEvent). What cannot be applied is `ignored`, with its reason.
 */
export class StripeEvents {
  constructor(private readonly options: StripeEventsOptions) {}

  async handle(event: VerifiedStripeEvent): Promise<StripeEventResult> {
    if (!isHandled(event.type) || !event.invoice) return ignored('kind_not_followed');
    const { orderId } = event.invoice;
    // Checked before any read: an id that can never name an order is not a key, and not worth Stripe's retries.
    if (orderId === undefined || !isOrderIdShape(orderId)) return ignored('not_an_order_of_ours');
    const { invoices, clock, metrics, provider } = this.options;
    for (let attempt = 1; ; attempt += 1) {
      const record = await invoices.getByOrder(orderId);
      // Finalized but not yet recorded (the invoicing consumer is between its steps): a 503 with Retry-After, so Stripe sends it again.
      if (!record) throw new InvoiceNotIssuedYet(orderId);
      // Only now is the order id known to be ours: the event joins the order's story (`ops order trace`).
      correlate({ orderId, action: event.type });
      if (record.stripeInvoiceId !== event.invoice.id) return ignored('another_invoice');
      const stripe = await provider.retrieve(record.stripeInvoiceId);
      if (!stripe) return ignored('unknown_to_stripe');
      const state = stateFromStripe(event.type, event.created, stripe, record);
      if (typeof state === 'string') return ignored(state);
      const next = applyInvoiceEvent(record, state, clock.now().toISOString());
      if (next && !invoiceRecordFits(next)) return ignored('amounts_invalid');
      if (!next) {
        if (await invoices.markEventProcessed(event.id)) return { outcome: 'unchanged' };
        await this.reannounce(orderId, event);
        return { outcome: 'duplicate' };
      }
      try {
        await invoices.update(next, event.id);
      } catch (error) {
        if (error instanceof StripeEventAlreadyProcessed) {
          await this.reannounce(orderId, event);
          return { outcome: 'duplicate' };
        }
        if (error instanceof ConcurrentModification && attempt < MAX_ATTEMPTS) continue;
        throw error;
      }
      if (next.status === 'paid' && record.status !== 'paid') metrics.count(METRIC.invoicesPaid);
      if (next.status === 'overdue' && record.status !== 'overdue') metrics.count(METRIC.invoicesOverdue);
      // Only a change of status is news to the partner; a failed attempt on an overdue invoice is not.
      if (next.status !== record.status) await this.announce(next, event);
      return { outcome: 'applied' };
    }
  }

  private async announce(record: InvoiceRecord, event: VerifiedStripeEvent): Promise<void> {
    const announcement = invoiceStatusEvent(record, new Date(event.created * 1000).toISOString());
    if (announcement) await this.options.events.send(announcement, 0);
  }

  /**
   * A replay of an event whose write landed: if that write is still the record's latest,
   * its announcement is sent again, because a crash between the write and the send would
   * otherwise lose it; the event id is derived from the invoice and kind, so the fan-out
   * makes one delivery of it.
   */
  private async reannounce(orderId: string, event: VerifiedStripeEvent): Promise<void> {
    const current = await this.options.invoices.getByOrder(orderId);
    if (current?.lastEventCreated === event.created) await this.announce(current, event);
  }
}
