import type { Clock } from '../clock';
import { ConcurrentModification, InvoiceNotIssuedYet, StripeEventAlreadyProcessed } from '../errors';
import { invoiceStatusEvent } from '../events/invoice-events';
import type { MessageQueue } from '../events/message-queue';
import type { OrderEventMessage } from '../events/order-event-message';
import { METRIC, type Metrics } from '../metrics';
import { applyInvoiceEvent, type InvoiceEventState, type InvoiceRecord } from './invoice';
import type { InvoiceRepository } from './invoice-repository';

/** The invoice event kinds that change an invoice record; any other kind is answered and ignored. */
const HANDLED_STRIPE_EVENTS = [
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.overdue',
  'invoice.voided',
  'invoice.marked_uncollectible',
] as const;
type HandledKind = (typeof HANDLED_STRIPE_EVENTS)[number];

/** What the service reads of a verified Stripe event (the adapter maps `Stripe.Event` to it). */
export interface VerifiedStripeEvent {
  readonly id: string;
  readonly type: string;
  /** Epoch seconds. */
  readonly created: number;
  /** `data.object` when it is an invoice. */
  readonly invoice?: {
    readonly id: string;
    readonly amountPaidCents: number;
    readonly amountRemainingCents: number;
    /** The order it bills (the invoice's `metadata.orderId`). */
    readonly orderId?: string;
  };
}

export type StripeEventOutcome = 'applied' | 'unchanged' | 'duplicate' | 'ignored';

export interface StripeEventsOptions {
  readonly invoices: InvoiceRepository;
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

const isHandled = (type: string): type is HandledKind => (HANDLED_STRIPE_EVENTS as readonly string[]).includes(type);

function stateOf(kind: HandledKind, event: VerifiedStripeEvent, record: InvoiceRecord): InvoiceEventState {
  const invoice = event.invoice!;
  const base = {
    created: event.created,
    amountPaidCents: invoice.amountPaidCents,
    amountDueCents: invoice.amountRemainingCents,
  };
  switch (kind) {
    case 'invoice.paid':
      return { ...base, status: 'paid' };
    case 'invoice.overdue':
      return { ...base, status: 'overdue' };
    case 'invoice.voided':
      return { ...base, status: 'void' };
    case 'invoice.marked_uncollectible':
      return { ...base, status: 'uncollectible' };
    case 'invoice.payment_failed':
      // A failed attempt leaves the invoice open, or overdue if it already was.
      return {
        ...base,
        status: record.status === 'overdue' ? 'overdue' : 'open',
        paymentFailedAt: new Date(event.created * 1000).toISOString(),
      };
  }
}

/**
 * Stripe's invoice events, verified by the route: each event id changes the order's
 * invoice record at most once (marked processed in the same conditional write), and an
 * event older than the last one applied changes nothing (applyInvoiceEvent).
 */
export class StripeEvents {
  constructor(private readonly options: StripeEventsOptions) {}

  async handle(event: VerifiedStripeEvent): Promise<StripeEventOutcome> {
    if (!isHandled(event.type) || !event.invoice?.orderId) return 'ignored';
    const { invoices, clock, metrics } = this.options;
    const { orderId } = event.invoice;
    for (let attempt = 1; ; attempt += 1) {
      const record = await invoices.getByOrder(orderId);
      // Finalized but not yet recorded (the invoicing consumer is between its steps): a 503 with Retry-After, so Stripe sends it again.
      if (!record) throw new InvoiceNotIssuedYet(orderId);
      if (record.stripeInvoiceId !== event.invoice.id) return 'ignored';
      const next = applyInvoiceEvent(record, stateOf(event.type, event, record), clock.now().toISOString());
      if (!next) {
        if (await invoices.markEventProcessed(event.id)) return 'unchanged';
        await this.reannounce(orderId, event);
        return 'duplicate';
      }
      try {
        await invoices.update(next, event.id);
      } catch (error) {
        if (error instanceof StripeEventAlreadyProcessed) {
          await this.reannounce(orderId, event);
          return 'duplicate';
        }
        if (error instanceof ConcurrentModification && attempt < MAX_ATTEMPTS) continue;
        throw error;
      }
      if (next.status === 'paid' && record.status !== 'paid') metrics.count(METRIC.invoicesPaid);
      // Only a change of status is news to the partner; a failed attempt on an overdue invoice is not.
      if (next.status !== record.status) await this.announce(next, event);
      return 'applied';
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
