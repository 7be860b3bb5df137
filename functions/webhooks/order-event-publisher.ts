import { randomUUID } from 'node:crypto';
import type { Clock } from '../domain/clock';
import { NotFound, OrganizationNotFound, ValidationFailed } from '../domain/errors';
import type { OrganizationRepository } from '../domain/organizations/organization-repository';
import type { PartnerId } from '../domain/partners/partner';
import type { PartnerRepository } from '../domain/partners/partner-repository';
import { toValidationIssues } from '../domain/validation';
import type { MessageQueue } from '../domain/events/message-queue';
import { ORDER_EVENT_DATA, OrderEventKind, type OrderEventMessage } from '../domain/events/order-events';

const EVENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface PublishOrderEventInput {
  readonly partnerId: PartnerId;
  readonly event: string;
  readonly data: unknown;
  /** The producer's id for this change; publishing the same id again delivers nothing new. Generated when absent. */
  readonly eventId?: string;
}

/**
 * Ingestion: the one way order changes enter the webhook pipeline. Validates the data of
 * the kind, resolves the organization it belongs to, and puts the event on the
 * order-events queue, from where the fan-out creates the deliveries.
 */
export class OrderEventPublisher {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly organizations: OrganizationRepository,
    private readonly queue: MessageQueue<OrderEventMessage>,
    private readonly clock: Clock,
  ) {}

  async publish(input: PublishOrderEventInput): Promise<OrderEventMessage & { organizationId: string }> {
    const kind = OrderEventKind.safeParse(input.event);
    if (!kind.success) {
      throw new ValidationFailed(
        [
          {
            code: 'INVALID_VALUE',
            message: `event must be one of ${OrderEventKind.options.join(', ')}`,
            path: ['event'],
          },
        ],
        `Unknown event kind "${input.event}"`,
      );
    }
    if (input.eventId !== undefined && !EVENT_ID.test(input.eventId)) {
      throw new ValidationFailed([
        {
          code: 'INVALID_FORMAT',
          message: 'eventId must be 1-128 characters of A-Z a-z 0-9 . _ : -',
          path: ['eventId'],
        },
      ]);
    }
    const parsed = ORDER_EVENT_DATA[kind.data].safeParse(input.data);
    if (!parsed.success) {
      const issues = toValidationIssues(parsed.error).map((issue) => ({ ...issue, path: ['data', ...issue.path] }));
      throw new ValidationFailed(issues, `Invalid ${kind.data} data: ${issues.map((i) => i.message).join('; ')}`);
    }
    const data = parsed.data;

    if (!(await this.partners.getPartner(input.partnerId))) throw new NotFound(`No partner ${input.partnerId}`);
    const organization = await this.organizations.getOrganization(input.partnerId, data.partner_org_id);
    if (!organization) throw new OrganizationNotFound(input.partnerId, data.partner_org_id);

    const message: OrderEventMessage = {
      eventId: input.eventId ?? randomUUID(),
      partnerId: input.partnerId,
      event: kind.data,
      timestamp: this.clock.now().toISOString(),
      data,
    };
    await this.queue.send(message, 0);
    return { ...message, organizationId: organization.organization.id };
  }
}
