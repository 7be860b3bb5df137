import type { VNode } from 'preact';
import {
  type ApprovalRequest,
  type ApprovalStatus,
  MAX_REJECTION_REASON_LENGTH,
} from '../../../domain/approvals/approval-request';
import { salesTaxRate } from '../../../domain/orders/sales-tax';
import { STATE_TIME_ZONES } from '../../../domain/time-zones';
import { css } from '../../html-page';
import { ItemsTable, ORDER_PARTS_STYLE, References, SnapshotAddress } from '../parts/order-parts';
import { LINES_STYLE } from '../parts/lines-style';
import { Totals } from '../parts/totals';
import { roleOf } from '../../../domain/organizations/organization';
import { type ModuleFrame, modulePage, shortOrderId, TokenField, Usd, When } from '../layout';
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

/** The request page's own rules. */
const REQUEST_STYLE = css`
.decide{display:grid;gap:10px}
.decide label{font-weight:600;font-size:14px}
.decide textarea{width:100%;font:inherit;border:1px solid #c9d0d8;border-radius:8px;padding:8px 10px}
.danger{border-color:#f5c6c1;color:var(--bad)}
.danger:hover{border-color:var(--bad)}
.outcome{background:#fff;border:1px solid var(--line);border-radius:12px;padding:12px 18px;margin:0 0 18px}
.outcome p{margin:0}
.submitted{display:flex;gap:12px;align-items:center;background:var(--warn-bg);border:1px solid #f3d9a6;border-radius:12px;padding:16px 18px;margin-bottom:18px}
.submitted h1{margin:0}
.submitted p{margin:2px 0 0;color:var(--muted)}
`;

const STATUS_LABEL: Readonly<Record<ApprovalStatus, string>> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
  withdrawn: 'Withdrawn',
};

const ApprovalBadge = ({ status }: { status: ApprovalStatus }): VNode => (
  <span class={`badge a-${status}`} data-testid="approval-status">
    {STATUS_LABEL[status]}
  </span>
);

/** The first 8 characters of a request's id, as orders are named. */
const shortRequestId = (id: string): string => id.slice(0, 8);

/** "12 minutes", "5 hours", "3 days": how long a request has waited, in the largest whole unit. */
function ageOf(createdAt: string, now: Date): string {
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
const Outcome = ({
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

const WithdrawForm = ({ request, frame }: { request: ApprovalRequest; frame: ModuleFrame }): VNode => (
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

export interface ApprovalsView {
  /** Approvers: the organization's requests waiting; buyers: none (they see their own below). */
  readonly waiting: readonly ApprovalRequest[];
  /** Approvers: the organization's requests decided lately; buyers: their own requests lately. */
  readonly recent: readonly ApprovalRequest[];
  readonly approver: boolean;
  readonly now: Date;
}

/** Approvers: what waits for a decision and what was decided lately. Buyers: their own requests. */
export function approvalsPage(frame: ModuleFrame, view: ApprovalsView): string {
  const { paths } = frame;
  return modulePage(
    frame,
    'approvals',
    'Approvals',
    view.approver ? (
      <>
        <h1>Approvals</h1>
        <p class="lede">
          Orders above their buyer's order limit wait here for an approver of {frame.view.organization.name}. Requests
          not decided within 7 days expire.
        </p>
        <h2>Waiting for a decision ({view.waiting.length})</h2>
        {view.waiting.length ? (
          <ApprovalList
            requests={view.waiting}
            frame={frame}
            options={{ showRequester: true, now: view.now, label: 'Waiting for a decision' }}
          />
        ) : (
          <p class="panel">Nothing is waiting for a decision.</p>
        )}
        <h2 style="margin-top:22px">Decided in the last 30 days</h2>
        {view.recent.length ? (
          <ApprovalList
            requests={view.recent}
            frame={frame}
            options={{ showRequester: true, now: view.now, label: 'Decided in the last 30 days' }}
          />
        ) : (
          <p class="panel">No request was decided in the last 30 days.</p>
        )}
      </>
    ) : (
      <>
        <h1>Your approval requests</h1>
        <p class="lede">Orders above your order limit, submitted for an approver's decision in the last 30 days.</p>
        {view.recent.length ? (
          <ApprovalList
            requests={view.recent}
            frame={frame}
            options={{ showRequester: false, now: view.now, label: 'Your approval requests' }}
          />
        ) : (
          <div class="panel problem">
            <h2>No approval requests</h2>
            <p class="lede">
              When an order is above your order limit, checkout offers Submit for approval, and the request shows here.
            </p>
            <div class="actions">
              <a class="button primary" href={paths.home}>
                Browse supplies
              </a>
            </div>
          </div>
        )}
      </>
    ),
    [ORDER_PARTS_STYLE, APPROVAL_STYLE],
  );
}

export interface ApprovalPageOptions {
  /** The requester just submitted it. */
  readonly submitted: boolean;
  /** What the user just did to it. */
  readonly done?: 'approved' | 'rejected' | 'withdrawn';
  readonly now: Date;
  /** The items' pictures, by product id. */
  readonly pictures: ReadonlyMap<string, string>;
}

const DONE_TEXT: Readonly<Record<NonNullable<ApprovalPageOptions['done']>, string>> = {
  approved: 'You approved this request, and its order was placed.',
  rejected: 'You rejected this request. The requester sees your reason on their Orders page.',
  withdrawn: 'You withdrew this request. Its products that are still sold are back in your cart.',
};

/** One request: its state, what it orders and where, and what the user may do with it (decide it, or withdraw it). */
export function approvalPage(frame: ModuleFrame, request: ApprovalRequest, options: ApprovalPageOptions): string {
  const { paths, view } = frame;
  const address = request.shippingAddress;
  const rate = salesTaxRate(address.state);
  const zone = frame.preferredTimeZone ?? STATE_TIME_ZONES[address.state];
  const mine = request.profileId === view.profile.id;
  const approver = roleOf(view.profile) === 'approver';
  const pending = request.status === 'pending';
  return modulePage(
    frame,
    mine && !approver ? 'orders' : 'approvals',
    `Request ${shortRequestId(request.id)}`,
    <>
      {options.submitted ? (
        <div class="submitted" role="status">
          <div>
            <h1>Submitted for approval</h1>
            <p>
              Its total is above your order limit, so an approver in your organization decides on it. Nothing is ordered
              until then; you can follow it under Orders.
            </p>
          </div>
        </div>
      ) : (
        <h1>Request {shortRequestId(request.id)}</h1>
      )}
      <p class="id">
        Request ID <span data-testid="approval-request-id">{request.id}</span>
      </p>
      {options.done && (
        <p class="flash" role="status">
          {DONE_TEXT[options.done]}
        </p>
      )}
      <div class="outcome">
        <p>
          <ApprovalBadge status={request.status} />{' '}
          <span class="meta">
            submitted <When iso={request.createdAt} zone={zone} /> by {request.requesterName} ({request.email})
          </span>
        </p>
        <p class="meta" data-testid="limit-reason">
          {request.limitReason === 'monthly_limit'
            ? 'Why: with it, the month’s orders would pass the monthly limit.'
            : 'Why: its total is above the order limit.'}
        </p>
        {pending ? (
          <p class="meta" style="margin-top:6px">
            Waiting {ageOf(request.createdAt, options.now)}; expires <When iso={request.expiresAt} zone={zone} /> unless
            an approver decides before.
          </p>
        ) : (
          <div style="margin-top:6px">
            <Outcome request={request} paths={paths} zone={zone} />
          </div>
        )}
      </div>
      <References poNumber={request.poNumber} notes={request.notes} label="References" />
      <div class="two">
        <div class="stack">
          <section class="panel" aria-labelledby="items">
            <h2 id="items">Items</h2>
            <ItemsTable items={request.items} pictures={options.pictures} />
            <p class="note">Prices as submitted: an approval orders exactly these.</p>
          </section>
          <section class="panel" aria-labelledby="shipping">
            <h2 id="shipping">Ship to</h2>
            <p style="margin:0">
              <SnapshotAddress address={address} />
            </p>
          </section>
        </div>
        <div class="stack">
          <aside class="panel" aria-labelledby="summary">
            <h2 id="summary">Summary</h2>
            <Totals pricing={request} state={`${rate.state} ${rate.percent}%`} />
          </aside>
          {pending && approver && !mine && (
            <section class="panel decide" aria-labelledby="decide">
              <h2 id="decide">Your decision</h2>
              <form method="post" action={paths.approvalAction(request.id, 'approve')} class="decide">
                <TokenField token={frame.token} />
                <label for="comment">Comment for the requester (optional)</label>
                <textarea id="comment" name="comment" rows={2} maxlength={MAX_REJECTION_REASON_LENGTH} />
                <button type="submit" class="primary big">
                  Approve
                </button>
              </form>
              <form method="post" action={paths.approvalAction(request.id, 'reject')} class="decide">
                <TokenField token={frame.token} />
                <label for="reason">Reason for rejecting</label>
                <textarea id="reason" name="reason" rows={3} required maxlength={MAX_REJECTION_REASON_LENGTH} />
                <button type="submit" class="danger">
                  Reject
                </button>
              </form>
            </section>
          )}
          {pending && mine && (
            <section class="panel decide" aria-labelledby="yours">
              <h2 id="yours">Your request</h2>
              <p class="meta" style="margin:0">
                {approver
                  ? 'Another approver of your organization decides on it.'
                  : 'An approver of your organization decides on it.'}{' '}
                You may withdraw it while it waits; its products go back to your cart.
              </p>
              <WithdrawForm request={request} frame={frame} />
            </section>
          )}
        </div>
      </div>
      <p>
        <a href={approver ? paths.approvals : paths.orders}>
          {approver ? 'All approval requests' : 'Your orders and requests'}
        </a>
      </p>
    </>,
    [LINES_STYLE, ORDER_PARTS_STYLE, APPROVAL_STYLE, REQUEST_STYLE],
    { page: 'approval' },
  );
}
