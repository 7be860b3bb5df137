/**
 * One approval request's page: its state, what it orders and where, and what the user may
 * do with it; and the confirmation before `Edit and resubmit` replaces a cart.
 */
import {
  type ApprovalRequest,
  isResubmittableAt,
  MAX_REJECTION_REASON_LENGTH,
} from '../../../domain/approvals/approval-request';
import { roleOf } from '../../../domain/organizations/organization';
import type { LimitStanding } from '../../../domain/spending/monthly-spend';
import { STATE_TIME_ZONES } from '../../../domain/time-zones';
import { css } from '../../html-page';
import { type ModuleFrame, modulePage, TokenField, Usd, When } from '../layout';
import { ageOf, APPROVAL_STYLE, ApprovalBadge, Outcome, shortRequestId, WithdrawForm } from '../parts/approval-list';
import { LINES_STYLE } from '../parts/lines-style';
import { monthName } from '../parts/month-name';
import { ItemsTable, ORDER_PARTS_STYLE, References, SnapshotAddress } from '../parts/order-parts';
import { Totals } from '../parts/totals';

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
.standing{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:6px 0 0;font-size:14px}
.standing dt{color:var(--muted)}
.standing dd{margin:0;font-variant-numeric:tabular-nums}
`;

export interface ApprovalPageOptions {
  /** The requester just submitted it. */
  readonly submitted: boolean;
  /** What the user just did to it. */
  readonly done?: 'approved' | 'rejected' | 'withdrawn';
  readonly now: Date;
  /** The items' pictures, by product id. */
  readonly pictures: ReadonlyMap<string, string>;
  /** While it waits: the limit it waits for, with the requester's figures now. */
  readonly standing?: LimitStanding;
}

/** The figures of the limit a waiting request waits for: the order limit and the total, or the month's. */
function LimitFigures({ standing }: { readonly standing: LimitStanding }) {
  return (
    <dl class="standing" data-testid="limit-standing">
      {standing.reason === 'order_limit' ? (
        <>
          <dt>Order limit</dt>
          <dd>
            <Usd cents={standing.limitCents} />
          </dd>
          <dt>This order’s total</dt>
          <dd>
            <Usd cents={standing.orderCents} />
          </dd>
        </>
      ) : (
        <>
          <dt>Monthly limit</dt>
          <dd>
            <Usd cents={standing.limitCents} />
          </dd>
          <dt>Placed in {monthName(standing.month, 'long')}</dt>
          <dd>
            <Usd cents={standing.spentCents} />
          </dd>
          <dt>Remaining</dt>
          <dd>
            <Usd cents={standing.remainingCents} />
          </dd>
          <dt>
            With this order (<Usd cents={standing.orderCents} />)
          </dt>
          <dd>
            <Usd cents={standing.afterCents} />
          </dd>
        </>
      )}
    </dl>
  );
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
              {request.limitReason === 'monthly_limit'
                ? 'It takes your orders this month above your monthly limit'
                : 'Its total is above your order limit'}
              , so an approver in your organization decides on it. Nothing is ordered until then; you can follow it
              under Orders.
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
        {options.standing && <LimitFigures standing={options.standing} />}
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
      {request.resubmittedFrom && (
        <p class="meta" data-testid="resubmitted-from">
          Resubmits{' '}
          <a href={paths.approval(request.resubmittedFrom)}>Request {shortRequestId(request.resubmittedFrom)}</a>
        </p>
      )}
      {request.resubmittedBy && (
        <p class="meta" data-testid="resubmitted-by">
          Resubmitted as{' '}
          <a href={paths.approval(request.resubmittedBy)}>Request {shortRequestId(request.resubmittedBy)}</a>
        </p>
      )}
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
            <Totals pricing={request} state={address.state} />
          </aside>
          {pending && approver && !mine && (
            <section class="panel decide" aria-labelledby="decide">
              <h2 id="decide">Your decision</h2>
              <form method="post" action={paths.approvalAction(request.id, 'approve')} class="decide">
                <TokenField token={frame.token} />
                <label for="comment">Comment for the requester (optional)</label>
                <input
                  type="text"
                  id="comment"
                  name="comment"
                  maxlength={MAX_REJECTION_REASON_LENGTH}
                  autocomplete="off"
                />
                <button type="submit" class="primary big">
                  Approve
                </button>
              </form>
              <form method="post" action={paths.approvalAction(request.id, 'reject')} class="decide">
                <TokenField token={frame.token} />
                <label for="reason">Reason for rejecting</label>
                <input
                  type="text"
                  id="reason"
                  name="reason"
                  required
                  maxlength={MAX_REJECTION_REASON_LENGTH}
                  autocomplete="off"
                />
                <button type="submit" class="danger">
                  Reject
                </button>
              </form>
            </section>
          )}
          {mine && isResubmittableAt(request, options.now) && (
            <section class="panel decide" aria-labelledby="again">
              <h2 id="again">Order it again</h2>
              <p class="meta" style="margin:0">
                Its products that are still sold go back into your cart, at the quantities requested, to change and
                submit again as a new request linked to this one.
              </p>
              <form method="post" action={paths.approvalAction(request.id, 'resubmit')}>
                <TokenField token={frame.token} />
                <button type="submit" class="primary">
                  Edit and resubmit
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

/** Before `Edit and resubmit` replaces a cart holding lines: what will happen, and the same form confirmed (no script needed). */
export function resubmitConfirmationPage(frame: ModuleFrame, request: ApprovalRequest, held: number): string {
  const { paths } = frame;
  return modulePage(
    frame,
    'orders',
    `Replace your cart? Request ${shortRequestId(request.id)}`,
    <>
      <h1>Replace your cart?</h1>
      <div class="panel">
        <p style="margin-top:0">
          Your cart holds {held} product{held === 1 ? '' : 's'}. Editing Request {shortRequestId(request.id)} puts its
          products in their place: what the cart holds now is removed.
        </p>
        <form method="post" action={paths.approvalAction(request.id, 'resubmit')} class="actions">
          <TokenField token={frame.token} />
          <input type="hidden" name="replace" value="1" />
          <button type="submit" class="primary">
            Replace cart
          </button>
          <a class="button" href={paths.approval(request.id)}>
            Keep my cart
          </a>
        </form>
      </div>
    </>,
    [],
    { page: 'approval' },
  );
}
