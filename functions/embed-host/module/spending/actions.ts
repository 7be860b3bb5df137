import type { SpendMonth } from '../../../domain/spending/monthly-spend';
import { previousMonth } from '../../../domain/spending/spend-report';
import { html, type HttpResponse } from '../../../http/responses';
import { type ModuleRequest, moduleFrame, moduleSession } from '../module-session';
import { spendingPage } from './page';
import { spendingCsv } from './spending-csv';

/** The chart's months, the one shown included. */
const CHART_MONTHS = 6;
/** The picker's months: this one and the eleven before (any other `YYYY-MM` is still served by its address). */
const PICKER_MONTHS = 12;

/**
 * The approver, the organization and the month a Spending request is about: a buyer is
 * refused (the 403 page) before anything is read; `month` is `YYYY-MM` (blank: this month,
 * malformed: the 400 page).
 */
async function spendingRequest(request: ModuleRequest) {
  const session = await moduleSession(request);
  const { spendReports } = request.deps;
  spendReports.assertMaySee(session.view.profile);
  const aggregate = await spendReports.organization(request.partnerId, session.view.organization.internalOrgId);
  const asked = request.event.queryStringParameters?.month;
  const month = spendReports.monthOf(aggregate, asked === '' ? undefined : asked);
  return { session, aggregate, month, thisMonth: spendReports.monthOf(aggregate, undefined) };
}

const pickerMonths = (thisMonth: SpendMonth, shown: SpendMonth): SpendMonth[] => {
  const months = [thisMonth];
  while (months.length < PICKER_MONTHS) months.push(previousMonth(months.at(-1) as SpendMonth));
  // A month reached by its address (older, or ahead) is offered too, so the picker says what is shown.
  return months.includes(shown) ? months : [...months, shown].sort().reverse();
};

/** `GET /embedded/{partnerId}/spending[?month=YYYY-MM]`: the month's totals and six months' chart, for approvers. */
export async function showSpending(request: ModuleRequest): Promise<HttpResponse> {
  const { session, aggregate, month, thisMonth } = await spendingRequest(request);
  const [frame, history, scales] = await Promise.all([
    moduleFrame(request.deps, session),
    request.deps.spendReports.history(aggregate, month, CHART_MONTHS),
    import('d3-scale'),
  ]);
  return html(
    200,
    spendingPage(frame, {
      history,
      months: pickerMonths(thisMonth, month),
      csvHref: session.paths.spendingCsv(month),
      scales,
    }),
  );
}

/** `GET /embedded/{partnerId}/spending/csv?month=YYYY-MM`: the month's orders, a row each, as a CSV download, for approvers. */
export async function downloadSpendingCsv(request: ModuleRequest): Promise<HttpResponse> {
  const { aggregate, month } = await spendingRequest(request);
  const { rows, timeZone } = await request.deps.spendReports.rows(aggregate, month);
  return {
    statusCode: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="spending-${month}.csv"`,
      'Cache-Control': 'no-store',
    },
    body: spendingCsv(rows, timeZone),
  };
}
