import type { ApprovalRequest } from '../../../domain/approvals/approval-request';
import { type ModuleFrame, modulePage } from '../layout';
import { APPROVAL_STYLE, ApprovalList } from '../parts/approval-list';
import { ORDER_PARTS_STYLE } from '../parts/order-parts';

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
          Orders above their buyer's order limit, or taking the buyer's month above their monthly limit, wait here for
          an approver of {frame.view.organization.name}. Requests not decided within 7 days expire.
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
        <p class="lede">
          Orders above your order limit, or taking the month above your monthly limit, submitted for an approver's
          decision in the last 30 days.
        </p>
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
              When an order is above your order limit or would take the month above your monthly limit, checkout offers
              Submit for approval, and the request shows here.
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
