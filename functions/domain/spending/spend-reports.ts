import type { CatalogRepository } from '../catalog/catalog-repository';
import type { ProductId } from '../catalog/product';
import type { Clock } from '../clock';
import { OrganizationNotFound, SpendingForbidden, ValidationFailed } from '../errors';
import type { Cents } from '../money';
import { organizationTimeZone, spendMonthOf, type SpendMonth } from '../orders/monthly-spend';
import type { OrderRepository } from '../orders/order-repository';
import { roleOf, type OrganizationAggregate, type Profile } from '../organizations/organization';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { PartnerId } from '../partners/partner';
import {
  MAX_SPEND_REPORT_ORDERS,
  monthBounds,
  parseSpendMonth,
  previousMonth,
  spendLines,
  spendReport,
  type SpendLine,
  type SpendReport,
} from './spend-report';
import type { Order } from '../orders/order';

/**
 * Reads one organization's spend report: one gsi1 range of the month's orders (at most
 * MAX_SPEND_REPORT_ORDERS), the products they name, and, for the current month, each user's
 * month counter (what the monthly limit weighs).
 */
export class SpendReports {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly orders: OrderRepository,
    private readonly catalog: CatalogRepository,
    private readonly clock: Clock,
  ) {}

  /** The partner's organization, else OrganizationNotFound (another partner's is not found either). */
  async organization(partnerId: PartnerId, internalOrgId: string): Promise<OrganizationAggregate> {
    const aggregate = await this.organizations.getOrganization(partnerId, internalOrgId);
    if (!aggregate) throw new OrganizationNotFound(partnerId, internalOrgId);
    return aggregate;
  }

  /** The month in the organization's zone: `month` as `YYYY-MM`, else the current one; a malformed month is a ValidationFailed. */
  monthOf(aggregate: OrganizationAggregate, month: string | undefined): SpendMonth {
    if (month === undefined) return spendMonthOf(this.clock.now(), organizationTimeZone(aggregate));
    const parsed = parseSpendMonth(month);
    if (!parsed)
      throw new ValidationFailed([
        { code: 'INVALID_MONTH', message: 'month must be YYYY-MM, e.g. 2026-11', path: ['month'] },
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
    const current = spendMonthOf(this.clock.now(), timeZone) === month;
    const currentMonthSpend = current
      ? new Map<string, Cents>(
          await Promise.all(
            aggregate.profiles.map(async (p) => [p.id, await this.orders.monthSpend(p.id, month)] as const),
          ),
        )
      : undefined;
    return spendReport({
      month,
      timeZone,
      orders,
      complete,
      profiles: aggregate.profiles,
      locationIds: new Map(aggregate.locations.map((l) => [l.id, l.internalShippingLocationId])),
      categoryOf: (productId) => products.get(productId as ProductId)?.category,
      ...(currentMonthSpend ? { currentMonthSpend } : {}),
    });
  }

  /** The reports of `count` months ending with `month`, oldest first (the Spending page's chart; its last is `month`'s report). */
  async history(aggregate: OrganizationAggregate, month: SpendMonth, count: number): Promise<SpendReport[]> {
    const months = [month];
    while (months.length < count) months.unshift(previousMonth(months[0] as SpendMonth));
    return Promise.all(months.map((m) => this.report(aggregate, m)));
  }

  /** The month's counted order lines (the Spending page's CSV), read as the report reads its orders. */
  async lines(
    aggregate: OrganizationAggregate,
    month: SpendMonth,
  ): Promise<{ readonly lines: SpendLine[]; readonly complete: boolean; readonly timeZone: string }> {
    const { orders, complete } = await this.monthOrders(aggregate, month);
    return { lines: spendLines(orders, aggregate.profiles), complete, timeZone: organizationTimeZone(aggregate) };
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
