import type { InvoiceRepository } from '../billing/invoice-repository';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { ProductId } from '../catalog/product';
import type { Clock } from '../clock';
import { OrganizationNotFound, SpendingForbidden, ValidationFailed } from '../errors';
import { organizationTimeZone, spendMonthOf, type SpendMonth } from './monthly-spend';
import type { OrderRepository } from '../orders/order-repository';
import { roleOf, type OrganizationAggregate, type Profile } from '../organizations/organization';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { PartnerId } from '../partners/partner';
import {
  FIRST_SPEND_MONTH,
  isServedMonth,
  LAST_SPEND_MONTH,
  MAX_SPEND_REPORT_ORDERS,
  monthBounds,
  parseSpendMonth,
  previousMonth,
  spendReport,
  spendRows,
  type SpendReport,
  type SpendRow,
} from './spend-report';
import type { Order } from '../orders/order';

/** Invoices a CSV row names: the orders that can have one (shipped, delivered or refunded), read this many at a time. */
const INVOICE_READS_AT_ONCE = 16;
const INVOICED_STATUSES: ReadonlySet<Order['status']> = new Set(['shipped', 'delivered', 'refunded']);

/**
 * Reads one organization's spend report: one gsi1 range of the month's orders (at most
 * MAX_SPEND_REPORT_ORDERS), the products they name, and each user's month counter (what
 * the monthly limit weighs this month, the limit a past month recorded).
 */
export class SpendReports {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly orders: OrderRepository,
    private readonly catalog: CatalogRepository,
    private readonly clock: Clock,
    /** The orders' invoices, which the CSV names. */
    private readonly invoices: Pick<InvoiceRepository, 'getByOrder'>,
  ) {}

  /** The partner's organization, else OrganizationNotFound (another partner's is not found either). */
  async organization(partnerId: PartnerId, internalOrgId: string): Promise<OrganizationAggregate> {
    const aggregate = await this.organizations.getOrganization(partnerId, internalOrgId);
    if (!aggregate) throw new OrganizationNotFound(partnerId, internalOrgId);
    return aggregate;
  }

  /**
   * The month in the organization's zone: `month` as `YYYY-MM`, else the current one; a
   * malformed month, or one outside FIRST_SPEND_MONTH to LAST_SPEND_MONTH, is a ValidationFailed.
   */
  monthOf(aggregate: OrganizationAggregate, month: string | undefined): SpendMonth {
    if (month === undefined) return spendMonthOf(this.clock.now(), organizationTimeZone(aggregate));
    const parsed = parseSpendMonth(month);
    if (!parsed || !isServedMonth(parsed))
      throw new ValidationFailed([
        {
          code: 'INVALID_MONTH',
          message: `month must be YYYY-MM from ${FIRST_SPEND_MONTH} to ${LAST_SPEND_MONTH}, e.g. 2026-11`,
          path: ['month'],
        },
      ]);
    return parsed;
  }

  /** In the module only approvers read the organization's spending (a partner's key reads any of its own). */
  assertMaySee(viewer: Profile): void {
    if (roleOf(viewer) !== 'approver') throw new SpendingForbidden(viewer.id);
  }

  async report(aggregate: OrganizationAggregate, month: SpendMonth): Promise<SpendReport> {
    const timeZone = organizationTimeZone(aggregate);
    const { orders, complete } = await this.monthOrders(aggregate, month);
    const productIds = [...new Set(orders.flatMap((order) => order.items.map((item) => item.productId)))];
    const products = productIds.length === 0 ? new Map() : await this.catalog.get(productIds);
    const counters = await this.orders.monthCounters(
      aggregate.profiles.map((p) => p.id),
      month,
    );
    return spendReport({
      month,
      timeZone,
      orders,
      complete,
      profiles: aggregate.profiles,
      locationIds: new Map(aggregate.locations.map((l) => [l.id, l.internalShippingLocationId])),
      categoryOf: (productId) => products.get(productId as ProductId)?.category,
      counters,
      current: spendMonthOf(this.clock.now(), timeZone) === month,
    });
  }

  /** The reports of `count` months ending with `month`, oldest first (the Spending page's chart; its last is `month`'s report). */
  async history(aggregate: OrganizationAggregate, month: SpendMonth, count: number): Promise<SpendReport[]> {
    const months = [month];
    while (months.length < count && (months[0] as SpendMonth) > FIRST_SPEND_MONTH)
      months.unshift(previousMonth(months[0] as SpendMonth));
    return Promise.all(months.map((m) => this.report(aggregate, m)));
  }

  /**
   * The month's counted orders, a row each with its invoice number (the Spending page's
   * CSV), read as the report reads its orders, so the rows' net sums to its total.
   */
  async rows(
    aggregate: OrganizationAggregate,
    month: SpendMonth,
  ): Promise<{ readonly rows: SpendRow[]; readonly complete: boolean; readonly timeZone: string }> {
    const { orders, complete } = await this.monthOrders(aggregate, month);
    const invoiced = orders.filter((order) => INVOICED_STATUSES.has(order.status));
    const invoiceNumbers = new Map<string, string>();
    for (let start = 0; start < invoiced.length; start += INVOICE_READS_AT_ONCE) {
      const batch = invoiced.slice(start, start + INVOICE_READS_AT_ONCE);
      const invoices = await Promise.all(batch.map((order) => this.invoices.getByOrder(order.id)));
      for (const invoice of invoices) if (invoice) invoiceNumbers.set(invoice.orderId, invoice.number);
    }
    return {
      rows: spendRows(orders, aggregate.profiles, invoiceNumbers),
      complete,
      timeZone: organizationTimeZone(aggregate),
    };
  }

  private monthOrders(
    aggregate: OrganizationAggregate,
    month: SpendMonth,
  ): Promise<{ readonly orders: Order[]; readonly complete: boolean }> {
    const { start, end } = monthBounds(month, organizationTimeZone(aggregate));
    return this.orders.listCreatedBetween(aggregate.organization.id, {
      from: start.toISOString(),
      to: end.toISOString(),
      maxOrders: MAX_SPEND_REPORT_ORDERS,
    });
  }
}
