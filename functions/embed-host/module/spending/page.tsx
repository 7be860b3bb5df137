/**
 * The approvers' Spending page (docs/module.md, "Spending"): a month's placed totals by
 * user (with their limits and what remains), by shipping location and by category (the
 * goods), and a stacked bar chart of six months by shipping location, whose bars are the
 * months' totals. Every number is read from the domain's SpendReport, the one the partner
 * API's spend route answers with; nothing is summed here.
 */
import type { VNode } from 'preact';
import type { Cents } from '../../../domain/money';
import type { SpendMonth } from '../../../domain/spending/monthly-spend';
import type { SpendReport } from '../../../domain/spending/spend-report';
import { css } from '../../html-page';
import { type ModuleFrame, modulePage, Usd } from '../layout';
import { monthName } from '../parts/month-name';

const SPENDING_STYLE = css`
.picker{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0 0 16px}
.picker label{font-weight:600}
.picker .button{margin-left:auto}
.headline{display:flex;flex-wrap:wrap;gap:4px 18px;align-items:baseline;margin:0 0 18px}
.headline strong{font-size:26px;font-variant-numeric:tabular-nums}
.spend-grid{display:grid;gap:18px;grid-template-columns:repeat(auto-fit,minmax(min(100%,320px),1fr));margin:18px 0}
.spend-grid>*{min-width:0}
.boxed{overflow-x:auto}
.boxed:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.spend{width:100%;border-collapse:collapse;font-size:14px}
.spend caption{text-align:left;font-weight:650;font-size:16px;padding:0 0 10px}
.spend th,.spend td{padding:7px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;overflow-wrap:break-word}
.spend thead th{color:var(--muted);font-weight:600;font-size:13px}
.spend .num{text-align:right;font-variant-numeric:tabular-nums}
.spend td.num{white-space:nowrap}
.spend tbody tr:last-child>*{border-bottom:0}
.chart svg{display:block;width:100%;max-width:480px;height:auto}
@media (max-width:520px){.spend{font-size:13px}.spend th,.spend td{padding:6px 4px}}
.legend{display:flex;flex-wrap:wrap;gap:6px 16px;list-style:none;margin:10px 0 0;padding:0;font-size:13px}
.legend li{display:flex;align-items:center;gap:6px}
.legend i{display:inline-block;width:12px;height:12px;border-radius:3px}
.warn{background:var(--warn-bg);color:var(--warn);border:1px solid #f3d9a6;border-radius:10px;padding:10px 14px;margin:0 0 16px}
`;

/** Eight hues told apart by most color vision (Okabe-Ito, black swapped for slate); a ninth category repeats the first. */
const PALETTE = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#5a6675'] as const;

/**
 * d3-scale, which the action loads on demand (ON_DEMAND_PACKAGES, lib/infrastructure/bundling.ts): with its d3
 * dependencies it is about 32 KB that only this page uses, so the module's other pages do not read it at a cold start.
 */
type ChartScales = Pick<typeof import('d3-scale'), 'scaleBand' | 'scaleLinear'>;

export interface SpendingView {
  /** Six months' reports, oldest first; the last is the month shown. */
  readonly history: readonly SpendReport[];
  /** The months the picker offers, newest first. */
  readonly months: readonly SpendMonth[];
  readonly csvHref: string;
  readonly scales: ChartScales;
}

const Limit = ({ cents, none }: { cents: number | undefined; none: string }): VNode =>
  cents === undefined ? <span class="meta">{none}</span> : <Usd cents={cents as Cents} />;

/**
 * Six months' totals by shipping location, stacked, so each bar is the month's total
 * (tax and shipping in, cancellations and refunds out) as the headline says; geometry
 * from d3-scale, drawn as JSX (so every label is escaped).
 */
function LocationChart({
  history,
  scales: { scaleBand, scaleLinear },
}: {
  history: readonly SpendReport[];
  scales: ChartScales;
}): VNode {
  const totals = new Map<string, number>();
  const names = new Map<string, string>();
  for (const report of history)
    for (const l of report.locations) {
      totals.set(l.internalShippingLocationId, (totals.get(l.internalShippingLocationId) ?? 0) + l.totalCents);
      names.set(l.internalShippingLocationId, l.name);
    }
  const locations = [...totals]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([id]) => ({ id, name: names.get(id) ?? id }));
  const ids = locations.map((l) => l.id);
  const colorOf = (id: string) => PALETTE[ids.indexOf(id) % PALETTE.length] as string;
  const width = 420;
  const height = 240;
  const margin = { top: 10, right: 8, bottom: 26, left: 64 };
  const x = scaleBand<string>()
    .domain(history.map((r) => r.month))
    .range([margin.left, width - margin.right])
    .padding(0.28);
  // Dollars on the axis, so its ticks are round dollar amounts; an empty half year still gets a $0-$100 scale.
  const y = scaleLinear()
    .domain([0, Math.max(...history.map((r) => r.totalCents), 10000) / 100])
    .nice(4)
    .range([height - margin.bottom, margin.top]);
  const first = history[0];
  const last = history.at(-1);
  const span = first && last ? `${monthName(first.month, 'long')} to ${monthName(last.month, 'long')}` : '';
  return (
    <figure class="panel chart" style="margin:0">
      <h2 id="chart-heading">Six months by location</h2>
      <svg
        role="img"
        viewBox={`0 0 ${width} ${height}`}
        aria-labelledby="chart-title chart-desc"
        font-size="14"
        font-family="inherit"
      >
        <title id="chart-title">Placed by shipping location, {span}</title>
        <desc id="chart-desc">
          A stacked bar for each month, its height the month's total; the table "Six months by location" below gives the
          same amounts.
        </desc>
        {y.ticks(4).map((tick) => (
          <g>
            <line x1={margin.left} x2={width - margin.right} y1={y(tick)} y2={y(tick)} stroke="#e2e6eb" />
            <text x={margin.left - 6} y={y(tick)} dy="0.32em" text-anchor="end" fill="#5a6675">
              ${tick.toLocaleString('en-US')}
            </text>
          </g>
        ))}
        {history.map((report) => {
          let base = 0;
          const left = x(report.month) ?? 0;
          return (
            <g data-month={report.month}>
              {[...report.locations]
                .sort((a, b) => ids.indexOf(a.internalShippingLocationId) - ids.indexOf(b.internalShippingLocationId))
                .map((l) => {
                  const bottom = y(base / 100);
                  base += l.totalCents;
                  const top = y(base / 100);
                  return (
                    <rect
                      x={left}
                      y={top}
                      width={x.bandwidth()}
                      height={Math.max(bottom - top, 0)}
                      fill={colorOf(l.internalShippingLocationId)}
                    >
                      <title>
                        {monthName(report.month, 'short')} · {l.name}: <Usd cents={l.totalCents} />
                      </title>
                    </rect>
                  );
                })}
              <text x={left + x.bandwidth() / 2} y={height - 8} text-anchor="middle" fill="#17212b">
                {monthName(report.month, 'short').replace(/ \d{4}$/, '')}
              </text>
            </g>
          );
        })}
        <line
          x1={margin.left}
          x2={width - margin.right}
          y1={height - margin.bottom}
          y2={height - margin.bottom}
          stroke="#5a6675"
        />
      </svg>
      {locations.length > 0 && (
        <ul class="legend" aria-hidden="true">
          {locations.map((location) => (
            <li>
              <i style={`background:${colorOf(location.id)}`} />
              {location.name}
            </li>
          ))}
        </ul>
      )}
      {/* On the element around the table: a table is never narrower than its cells, so it cannot be the 1px box itself. */}
      <div class="sr">
        <table data-testid="chart-table">
          <caption>Six months by location</caption>
          <thead>
            <tr>
              <th scope="col">Location</th>
              {history.map((r) => (
                <th scope="col">{monthName(r.month, 'long')}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {locations.map((location) => (
              <tr>
                <th scope="row">{location.name}</th>
                {history.map((r) => (
                  <td>
                    <Usd
                      cents={
                        r.locations.find((l) => l.internalShippingLocationId === location.id)?.totalCents ??
                        (0 as Cents)
                      }
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              {history.map((r) => (
                <td>
                  <Usd cents={r.totalCents} />
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>
    </figure>
  );
}

/** The approvers' Spending page for the last report of `view.history`. */
export function spendingPage(frame: ModuleFrame, view: SpendingView): string {
  const report = view.history.at(-1) as SpendReport;
  const { paths } = frame;
  return modulePage(
    frame,
    'spending',
    'Spending',
    <>
      <h1>Spending</h1>
      <p class="lede">
        What {frame.view.organization.name} ordered, by calendar month in {report.timeZone}: every order not cancelled,
        less its refunds.
      </p>
      <form class="picker" method="get" action={paths.spending()}>
        <label for="month">Month</label>
        <select id="month" name="month" data-apply-on-change>
          {view.months.map((month, index) => (
            <option value={month} selected={month === report.month}>
              {monthName(month, 'long')}
              {index === 0 ? ' (this month)' : ''}
            </option>
          ))}
        </select>
        <button type="submit">Show</button>
        <a class="button" href={view.csvHref} download>
          Download CSV
        </a>
      </form>
      {!report.complete && (
        <p class="warn" role="status">
          This month has more orders than one report reads: only the first 5000 are counted here and in the CSV.
        </p>
      )}
      <section class="panel headline" aria-labelledby="month-total">
        <h2 id="month-total" style="margin:0">
          Placed in {monthName(report.month, 'long')}
        </h2>
        <strong data-testid="month-total">
          <Usd cents={report.totalCents} />
        </strong>
        <span class="meta">
          {report.orderCount} {report.orderCount === 1 ? 'order' : 'orders'}
        </span>
      </section>
      <div class="spend-grid">
        {/* A box that may scroll sideways is reachable by keyboard (axe: scrollable-region-focusable) and named. */}
        <section class="panel boxed" style="grid-column:1/-1" tabindex={0} aria-labelledby="spend-users-caption">
          <table class="spend" data-testid="spend-users">
            <caption id="spend-users-caption">By user</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col" class="num">
                  Placed
                </th>
                <th scope="col" class="num">
                  Order limit
                </th>
                <th scope="col" class="num">
                  Monthly limit
                </th>
                <th scope="col" class="num">
                  Remaining
                </th>
              </tr>
            </thead>
            <tbody>
              {report.users.map((user) => (
                <tr data-user={user.internalUserId}>
                  <th scope="row">{user.name}</th>
                  <td class="num" data-testid="user-total">
                    <Usd cents={user.totalCents} />
                  </td>
                  <td class="num">
                    <Limit cents={user.orderLimitCents} none="None" />
                  </td>
                  <td class="num">
                    <Limit cents={user.monthlyLimitCents} none="None" />
                  </td>
                  <td class="num" data-testid="user-remaining">
                    <Limit
                      cents={user.remainingCents}
                      none={user.monthlyLimitCents === undefined ? 'No limit' : 'Past month'}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section class="panel boxed" tabindex={0} aria-label="By shipping location">
          <TotalsTable
            testId="spend-locations"
            caption="By shipping location"
            heading="Location"
            amountHeading="Placed"
            rows={report.locations.map((location) => ({
              key: { 'data-location': location.internalShippingLocationId },
              label: location.name,
              cents: location.totalCents,
            }))}
          />
        </section>
        <section class="panel boxed" tabindex={0} aria-label="By category">
          <TotalsTable
            testId="spend-categories"
            caption="By category"
            heading="Category"
            amountHeading="Goods"
            rows={report.categories.map((category) => ({
              key: { 'data-category': category.category },
              label: category.category,
              cents: category.totalCents,
            }))}
          />
          <p class="note">Categories count the goods (price times quantity), before tax and shipping.</p>
        </section>
      </div>
      <LocationChart history={view.history} scales={view.scales} />
    </>,
    [SPENDING_STYLE],
  );
}

/** A month's totals by one dimension: a row a location or category, or a line saying there were no orders. */
function TotalsTable(props: {
  readonly testId: string;
  readonly caption: string;
  readonly heading: string;
  readonly amountHeading: string;
  readonly rows: readonly { readonly key: Record<string, string>; readonly label: string; readonly cents: number }[];
}) {
  return (
    <table class="spend" data-testid={props.testId}>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{props.heading}</th>
          <th scope="col" class="num">
            {props.amountHeading}
          </th>
        </tr>
      </thead>
      <tbody>
        {props.rows.length === 0 && (
          <tr>
            <td colspan={2} class="meta">
              No orders this month
            </td>
          </tr>
        )}
        {props.rows.map((row) => (
          <tr {...row.key}>
            <th scope="row">{row.label}</th>
            <td class="num">
              <Usd cents={row.cents} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
