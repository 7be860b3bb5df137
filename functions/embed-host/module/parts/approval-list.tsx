/**
 * Approval requests as rows, with their badges and outcomes: the approvals page and a
 * requester's Orders page list them alike.
 */
import type { VNode } from 'preact';
import type { ApprovalRequest, ApprovalStatus } from '../../../domain/approvals/approval-request';
import { css } from '../../html-page';
import { type ModuleFrame, shortOrderId, TokenField, Usd, When } from '../layout';
import type { ModulePaths } from '../module-paths';

/** Requests as rows and their badges: the approvals page, the request page and a requester's Orders page. */
export const APPROVAL_STYLE = css`
.requests{list-style:none;margin:0;padding:0}
.requests li{display:grid;grid-template-columns:minmax(0,1.4fr) minmax(0,1.1fr) auto minmax(0,1fr);gap:4px 16px;align-items:start;padding:12px 16px;border-bottom:1px solid var(--line)}
.requests li:last-child{border-bottom:0}
.requests a.req{font-weight:650;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.requests .meta{color:var(--muted);font-size:13px;overflow-wrap:break-word}
.requests .amount{font-weight:700;text-align:right;font-variant-numeric:tabular-nums}
.requests .state{display:grid;gap:6px;justify-items:start}
.requests form{margin:0}
@media (max-width:560px){.requests li{grid-template-columns:minmax(0,1fr)}.requests .amount{text-align:left}}
.a-pending{background:var(--warn-bg);color:var(--warn);border-color:#f3d9a6}
.a-approved{background:var(--soft);color:var(--accent-ink);border-color:#bfe0d8}
.a-rejected,.a-expired{background:var(--bad-bg);color:var(--bad);border-color:#f5c6c1}
.mine{font-size:12px;color:var(--muted);font-weight:600}
.said{margin:0;color:var(--ink);font-size:14px;overflow-wrap:break-word}
`;

const STATUS_LABEL: Readonly<Record<ApprovalStatus, string>> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
  withdrawn: 'Withdrawn',
};

export const ApprovalBadge = ({ status }: { status: ApprovalStatus }): VNode => (
  <span class={`badge a-${status}`} data-testid="approval-status">
    {STATUS_LABEL[status]}
  </span>
);

/** The first 8 characters of a request's id, as orders are named. */
export const shortRequestId = (id: string): string => id.slice(0, 8);

/** "12 minutes", "5 hours", "3 days": how long a request has waited, in the largest whole unit. */
export function ageOf(createdAt: string, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(createdAt)) / 60_000));
  const [amount, unit] =
    minutes < 60
      ? [minutes, 'minute']
      : minutes < 48 * 60
        ? [Math.floor(minutes / 60), 'hour']
        : [Math.floor(minutes / 1440), 'day'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/** "Gauze Sponges × 3, Procedure Masks × 2 and 4 more". */
const itemsSummary = (request: ApprovalRequest): string => {
  const named = request.items
    .slice(0, 3)
    .map((item) => `${item.name} × ${item.quantity}`)
    .join(', ');
  const rest = request.items.length - 3;
  return rest > 0 ? `${named} and ${rest} more` : named;
};

/** What became of a decided request, in a sentence: who, when, why, which order. */
export const Outcome = ({
  request,
  paths,
  zone,
}: {
  request: ApprovalRequest;
  paths: ModulePaths;
  zone: string;
}): VNode | null => {
  const at = request.decidedAt ? <When iso={request.decidedAt} zone={zone} /> : null;
  switch (request.status) {
    case 'approved':
      return (
        <p class="said">
          Approved by {request.decidedBy?.name} on {at}.{' '}
          {request.orderId && <a href={paths.order(request.orderId)}>Order {shortOrderId(request.orderId)}</a>}
          {request.comment !== undefined && (
            <>
              <br />
              Comment: <span data-testid="approval-comment">{request.comment}</span>
            </>
          )}
        </p>
      );
    case 'rejected':
      return (
        <p class="said">
          Rejected by {request.decidedBy?.name} on {at}: <span data-testid="rejection-reason">{request.reason}</span>
        </p>
      );
    case 'withdrawn':
      return <p class="said">Withdrawn on {at}.</p>;
    case 'expired':
      return <p class="said">Expired on {at}: no one decided it within 7 days, so nothing was ordered.</p>;
    default:
      return null;
  }
};

export const WithdrawForm = ({ request, frame }: { request: ApprovalRequest; frame: ModuleFrame }): VNode => (
  <form method="post" action={frame.paths.approvalAction(request.id, 'withdraw')}>
    <TokenField token={frame.token} />
    <button type="submit" class="danger" aria-label={`Withdraw request ${shortRequestId(request.id)}`}>
      Withdraw
    </button>
  </form>
);

export interface ApprovalListOptions {
  /** Approvers' lists name the requester; a requester's own list does not. */
  readonly showRequester: boolean;
  readonly now: Date;
  readonly label: string;
}

/** Requests as rows: the request's link, requester, items, PO number, age or outcome, total and state. */
export const ApprovalList = ({
  requests,
  frame,
  options,
}: {
  requests: readonly ApprovalRequest[];
  frame: ModuleFrame;
  options: ApprovalListOptions;
}): VNode => {
  const { paths, view } = frame;
  return (
    <section class="panel" style="padding:4px 0" aria-label={options.label}>
      <ul class="requests">
        {requests.map((r) => {
          const mine = r.profileId === view.profile.id;
          return (
            <li>
              <span>
                <a class="req" href={paths.approval(r.id)}>
                  Request {shortRequestId(r.id)}
                </a>
                {options.showRequester && mine && <span class="mine"> · your request</span>}
                {options.showRequester && (
                  <>
                    <br />
                    <span class="meta" data-testid="requester">
                      {r.requesterName} · {r.email}
                    </span>
                  </>
                )}
                <br />
                <span class="meta">{itemsSummary(r)}</span>
                {r.limitReason === 'monthly_limit' && <span class="meta"> · over the monthly limit</span>}
              </span>
              <span class="meta">
                submitted <When iso={r.createdAt} zone={frame.timeZone} />
                {r.status === 'pending' && (
                  <>
                    <br />
                    waiting {ageOf(r.createdAt, options.now)}
                  </>
                )}
                {r.poNumber !== undefined && (
                  <>
                    <br />
                    PO {r.poNumber}
                  </>
                )}
              </span>
              <span class="amount">
                <Usd cents={r.totalCents} />
              </span>
              <span class="state">
                <ApprovalBadge status={r.status} />
                <Outcome request={r} paths={paths} zone={frame.timeZone} />
                {r.status === 'pending' && mine && <WithdrawForm request={r} frame={frame} />}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
};
