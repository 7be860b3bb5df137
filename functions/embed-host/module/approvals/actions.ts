import { parseApprovalComment, parseRejection } from '../../../domain/approvals/approval-input';
import { roleOf } from '../../../domain/organizations/organization';
import { html, type HttpResponse, seeOther } from '../../../http/responses';
import { picturesOf } from '../parts/product-picture';
import { checkoutPost } from '../checkout/actions';
import { type ModuleRequest, moduleFrame, moduleSession, verifiedFormPost } from '../module-session';
import { approvalsPage } from './page';
import { approvalPage, resubmitConfirmationPage } from './request-page';

/** How far back the approvals page and a requester's Orders page look. */
export const RECENT_REQUESTS_MS = 30 * 24 * 3600 * 1000;
const WAITING_SHOWN = 100;
const RECENT_SHOWN = 30;

const DONE = ['approved', 'rejected', 'withdrawn'] as const;
const doneOf = (value: string | undefined) => DONE.find((done) => done === value);

/**
 * `POST /embedded/{partnerId}/approvals` (checkout's form when the total is above the
 * user's limit: `location`, `po_number`, `notes`): the cart becomes an approval request
 * (no order), then its page says "Submitted for approval". A second submit of the same
 * cart finds it consumed (ConcurrentModification or EmptyCart), as placing an order does.
 */
export const submitForApproval = (request: ModuleRequest): Promise<HttpResponse> =>
  checkoutPost(request, async (input, session) => {
    const submitted = await request.deps.approvalService.submit(input);
    return seeOther(session.paths.approval(submitted.id, { submitted: true }));
  });

/**
 * `GET /embedded/{partnerId}/approvals`: for approvers, the organization's requests
 * waiting for a decision (newest first) and those decided in the last 30 days; for
 * everyone else, their own requests of the last 30 days.
 */
export async function listApprovals(request: ModuleRequest): Promise<HttpResponse> {
  const session = await moduleSession(request);
  const { approvalService, clock } = request.deps;
  const { organization, profile } = session.view;
  const now = clock.now();
  const since = new Date(now.getTime() - RECENT_REQUESTS_MS).toISOString();
  const approver = roleOf(profile) === 'approver';
  const [frame, waiting, recent] = await Promise.all([
    moduleFrame(request.deps, session),
    approver
      ? approvalService.listForOrganization(organization, { status: 'pending', limit: WAITING_SHOWN })
      : Promise.resolve({ requests: [] }),
    approvalService.listForOrganization(organization, {
      since,
      limit: RECENT_SHOWN,
      ...(approver ? {} : { profileId: profile.id }),
    }),
  ]);
  return html(
    200,
    approvalsPage(frame, {
      approver,
      now,
      waiting: waiting.requests,
      recent: approver ? recent.requests.filter((r) => r.status !== 'pending') : recent.requests,
    }),
  );
}

/** `GET /embedded/{partnerId}/approvals/{requestId}[?submitted=1|done=…]`: one request its requester or an approver may see (else the not-found page). */
export async function showApproval(request: ModuleRequest): Promise<HttpResponse> {
  const session = await moduleSession(request);
  const query = request.event.queryStringParameters ?? {};
  const [frame, approval] = await Promise.all([
    moduleFrame(request.deps, session),
    request.deps.approvalService.get(request.event.pathParameters?.requestId ?? '', {
      partnerId: request.partnerId,
      organizationId: session.view.organization.id,
      viewer: session.view.profile,
    }),
  ]);
  // The query only says which banner the redirect asked for; the request's own state says whether it is true for this viewer.
  const viewer = session.view.profile.id;
  const done = doneOf(query.done);
  const saidDone =
    done !== undefined &&
    approval.status === done &&
    (done === 'withdrawn' ? approval.profileId : approval.decidedBy?.profileId) === viewer;
  const submitted = query.submitted === '1' && approval.profileId === viewer;
  const [pictures, standing] = await Promise.all([
    picturesOf(request.deps.catalog, approval.items),
    request.deps.approvalService.standing(approval),
  ]);
  return html(
    200,
    approvalPage(frame, approval, {
      submitted,
      ...(saidDone ? { done } : {}),
      now: request.deps.clock.now(),
      pictures,
      ...(standing ? { standing } : {}),
    }),
  );
}

const requestIdOf = (request: ModuleRequest): string => request.event.pathParameters?.requestId ?? '';

/**
 * `POST …/approvals/{requestId}/approve` (`comment`, optional, at most 500 characters):
 * places the request's order (or the page saying why not), then the request, approved.
 */
export async function approveRequest(request: ModuleRequest): Promise<HttpResponse> {
  const { session, form } = await verifiedFormPost(request);
  // The partner API's rule (ApprovalComment): a line break is refused here as there.
  const { comment } = parseApprovalComment({ comment: form.get('comment') });
  const approved = await request.deps.approvalService.approve({
    requestId: requestIdOf(request),
    approver: session.view.profile,
    ...(comment === undefined ? {} : { comment }),
  });
  return seeOther(session.paths.approval(approved.id, { done: 'approved' }));
}

/** `POST …/approvals/{requestId}/reject` (`reason`, 1-500 characters, required): then the request, rejected. */
export async function rejectRequest(request: ModuleRequest): Promise<HttpResponse> {
  const { session, form } = await verifiedFormPost(request);
  // The partner API's rule (RejectionReason): one line, like every stored text.
  const { reason } = parseRejection({ reason: form.get('reason') });
  const rejected = await request.deps.approvalService.reject({
    requestId: requestIdOf(request),
    approver: session.view.profile,
    reason,
  });
  return seeOther(session.paths.approval(rejected.id, { done: 'rejected' }));
}

/** `POST …/approvals/{requestId}/withdraw`, by its requester: its products back in the cart, then the request, withdrawn. */
export async function withdrawRequest(request: ModuleRequest): Promise<HttpResponse> {
  const { session } = await verifiedFormPost(request);
  const { request: withdrawn } = await request.deps.approvalService.withdraw({
    requestId: requestIdOf(request),
    requester: session.view.profile,
  });
  return seeOther(session.paths.approval(withdrawn.id, { done: 'withdrawn' }));
}

/**
 * `POST …/approvals/{requestId}/resubmit` (`replace=1` once confirmed), by the requester of a
 * rejected or expired request: its lines become the cart, marked as resubmitting it, then
 * the cart says so. A cart holding lines is replaced only after the confirmation page
 * (this same form with `replace=1`); nothing changes before.
 */
export async function resubmitRequest(request: ModuleRequest): Promise<HttpResponse> {
  const { session, form } = await verifiedFormPost(request);
  const outcome = await request.deps.approvalService.resubmit({
    requestId: requestIdOf(request),
    requester: session.view.profile,
    replace: form.get('replace') === '1',
  });
  if (outcome.needsConfirmation) {
    const [frame, approval] = await Promise.all([
      moduleFrame(request.deps, session),
      request.deps.approvalService.get(requestIdOf(request), {
        partnerId: request.partnerId,
        organizationId: session.view.organization.id,
        viewer: session.view.profile,
      }),
    ]);
    return html(200, resubmitConfirmationPage(frame, approval, outcome.held));
  }
  return seeOther(session.paths.cartAfterAdding(outcome.restored.length, outcome.skipped));
}
