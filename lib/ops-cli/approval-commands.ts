/**
 * Operator commands for approval requests (`approvalCommands`): `approvals list`, an
 * organization's requests as the partner API shows them (docs/orders-api.md, "Approval
 * requests"), each as it is now (a pending one past its expiry reads as expired).
 */
import { z } from 'zod';
import type { Dependencies } from '../../functions/container';
import { MAX_APPROVAL_PAGE_SIZE } from '../../functions/domain/approvals/approval-repository';
import {
  APPROVAL_STATUSES,
  type ApprovalRequest,
  type ApprovalStatus,
} from '../../functions/domain/approvals/approval-request';
import { NotFound } from '../../functions/domain/errors';
import { requiredField } from '../../functions/domain/validation';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { toApprovalRequestResponse } from '../../functions/api/approval-requests/response';
import { NONE, tableLines } from './human-format';
import { type CommandTable, defineCommand } from './ops-command';
import { InternalOrgIdOption, partnerOption } from './option-schemas';

type Deps = Pick<Dependencies, 'partners' | 'organizations' | 'approvalService'>;

const view = (request: ApprovalRequest) => ({
  partner_id: request.partnerId,
  ...toApprovalRequestResponse(request),
  // Names help an operator on the phone with the office; the partner API gives ids and e-mails only.
  requester_name: request.requesterName,
  decided_by_name: request.decidedBy?.name ?? null,
});

/** `approvals list --partner ID --org INTERNAL_ORG_ID [--status STATUS]`: newest first, every page. */
async function listApprovals(
  deps: Deps,
  options: { partner: string; org: string; status?: ApprovalStatus | undefined },
) {
  const partner = await deps.partners.getPartner(options.partner as PartnerId);
  if (!partner) throw new NotFound(`No partner ${options.partner}`);
  const aggregate = await deps.organizations.getOrganization(partner.id, options.org);
  if (!aggregate) throw new NotFound(`Partner ${partner.id} has no organization ${options.org}`);
  const requests: ApprovalRequest[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.approvalService.listForOrganization(aggregate.organization, {
      limit: MAX_APPROVAL_PAGE_SIZE,
      ...(cursor === undefined ? {} : { cursor }),
      ...(options.status === undefined ? {} : { status: options.status }),
    });
    requests.push(...page.requests);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return {
    partnerId: partner.id,
    internalOrgId: options.org,
    ...(options.status ? { status: options.status } : {}),
    approvalRequests: requests.map(view),
  };
}

export const approvalCommands: CommandTable = {
  'approvals list': defineCommand({
    summary: "List an organization's approval requests, newest first: requester, total, status, expiry and decision",
    options: {
      partner: partnerOption,
      org: {
        schema: InternalOrgIdOption,
        placeholder: 'INTERNAL_ORG_ID',
        description: "The partner's internalOrgId of the organization",
      },
      status: {
        schema: z.enum(APPROVAL_STATUSES, { error: requiredField }).optional(),
        placeholder: 'STATUS',
        description: `Only requests in this status as of now: ${APPROVAL_STATUSES.join(' | ')}`,
      },
    },
    async run(deps, options) {
      const result = await listApprovals(deps, options);
      return {
        json: result,
        text:
          result.approvalRequests.length === 0
            ? [
                `Organization ${result.internalOrgId} of partner ${result.partnerId} has no approval requests${options.status ? ` with status ${options.status}` : ''}.`,
              ]
            : tableLines(
                [
                  'APPROVAL REQUEST ID',
                  'STATUS',
                  'REQUESTER',
                  'TOTAL',
                  'ITEMS',
                  'CREATED',
                  'EXPIRES',
                  'DECIDED',
                  'DECIDED BY',
                  'ORDER',
                  'REASON',
                ],
                result.approvalRequests.map((r) => [
                  r.id,
                  r.status,
                  `${r.requester_name} (${r.internal_user_id})`,
                  `$${r.total.toFixed(2)}`,
                  String(r.items.reduce((sum, item) => sum + item.quantity, 0)),
                  r.created_at,
                  r.expires_at,
                  r.decided_at ?? NONE,
                  r.decided_by ? `${r.decided_by_name ?? ''} (${r.decided_by.internal_user_id})`.trim() : NONE,
                  r.order_id ?? NONE,
                  r.reason ?? NONE,
                ]),
              ),
      };
    },
  }),
};
