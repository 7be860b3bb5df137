import type { Clock } from '../clock';
import { zonedStamp } from '../zoned-stamp';
import { OrganizationNotFound } from '../errors';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { PartnerId } from '../partners/partner';
import { organizationTimeZone } from '../spending/monthly-spend';
import type { InvoiceRecord, InvoiceStatus } from './invoice';
import { MAX_INVOICE_PAGE_SIZE, type InvoiceRepository } from './invoice-repository';

/** How late an unpaid invoice is, in whole days past its due date: the four ages of `overdue`. */
export const OVERDUE_AGES = ['days_1_30', 'days_31_60', 'days_61_90', 'over_90'] as const;
type OverdueAge = (typeof OVERDUE_AGES)[number];

/** What an organization owes (docs/billing.md, "Statement"). */
export interface OrganizationStatement {
  readonly internalOrgId: string;
  /** The zone its days are counted in (the organization's, as for its months). */
  readonly timeZone: string;
  /** ISO 8601: the clock's now. */
  readonly asOf: string;
  /** Its open invoices (open and overdue), oldest first. */
  readonly invoices: readonly InvoiceRecord[];
  /** The sum of their amounts due. */
  readonly totalDueCents: number;
  /** Of that, what is past due, by age. */
  readonly overdueCents: Readonly<Record<OverdueAge, number>>;
}

/** The statuses that still owe: Stripe's `open`, and `overdue` (open past its due date). Void and uncollectible owe nothing. */
const OWING: readonly InvoiceStatus[] = ['open', 'overdue'];

const DAY_MS = 24 * 3600 * 1000;

/** The calendar day `iso` falls on in `timeZone`, as a day number (UTC midnight of that date / one day). */
const dayIn = (iso: string | Date, timeZone: string): number =>
  Date.parse(`${zonedStamp(iso, timeZone).slice(0, 10)}T00:00:00Z`) / DAY_MS;

/**
 * Whole calendar days from the due date to today in the organization's zone: 0 or less is
 * not yet late (due today is not overdue), as Stripe counts an invoice overdue the day after.
 */
const daysPastDue = (dueDate: string, now: Date, timeZone: string): number =>
  dayIn(now, timeZone) - dayIn(dueDate, timeZone);

function overdueAgeOf(days: number): OverdueAge | undefined {
  if (days < 1) return undefined;
  if (days <= 30) return 'days_1_30';
  if (days <= 60) return 'days_31_60';
  if (days <= 90) return 'days_61_90';
  return 'over_90';
}

/**
 * An organization's statement: every invoice it still owes on, read a page of each owing
 * status at a time until none is left, aged from its due date by the injected clock in the
 * organization's zone (the zone its months and the module's dates use).
 */
export class OrganizationStatements {
  constructor(
    private readonly invoices: Pick<InvoiceRepository, 'listByOrganization'>,
    private readonly organizations: Pick<OrganizationRepository, 'getOrganization'>,
    private readonly clock: Clock,
  ) {}

  async statement(partnerId: PartnerId, internalOrgId: string): Promise<OrganizationStatement> {
    const aggregate = await this.organizations.getOrganization(partnerId, internalOrgId);
    if (!aggregate) throw new OrganizationNotFound(partnerId, internalOrgId);
    const owing = (await Promise.all(OWING.map((status) => this.all(aggregate.organization.id, status)))).flat();
    owing.sort((a, b) => `${a.issuedAt}#${a.id}`.localeCompare(`${b.issuedAt}#${b.id}`));
    const now = this.clock.now();
    const timeZone = organizationTimeZone(aggregate);
    const overdueCents: Record<OverdueAge, number> = { days_1_30: 0, days_31_60: 0, days_61_90: 0, over_90: 0 };
    for (const invoice of owing) {
      const age = overdueAgeOf(daysPastDue(invoice.dueDate, now, timeZone));
      if (age) overdueCents[age] += invoice.amountDueCents;
    }
    return {
      internalOrgId,
      timeZone,
      asOf: now.toISOString(),
      invoices: owing,
      totalDueCents: owing.reduce((sum, invoice) => sum + invoice.amountDueCents, 0),
      overdueCents,
    };
  }

  private async all(organizationId: string, status: InvoiceStatus): Promise<InvoiceRecord[]> {
    const found: InvoiceRecord[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.invoices.listByOrganization(organizationId, {
        limit: MAX_INVOICE_PAGE_SIZE,
        status,
        ...(after === undefined ? {} : { startingAfter: after }),
      });
      found.push(...page.invoices);
      after = page.invoices.at(-1)?.id;
      if (!page.hasMore || after === undefined) return found;
    }
  }
}
