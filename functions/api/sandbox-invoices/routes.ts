import type { SandboxInvoices } from '../../domain/billing/sandbox-invoices';
import type { HttpLambda } from '../../http/http-context';
import { json } from '../../http/responses';
import { idempotentApiHandler } from '../pipeline/api-handler';
import { parseBody } from '../pipeline/parse-body';
import { SandboxInvoiceActionRequest } from './request';
import type { IdempotencyDependencies } from '../pipeline/pipeline-dependencies';

export interface SandboxInvoiceRouteDependencies extends IdempotencyDependencies {
  readonly sandboxInvoices: Pick<SandboxInvoices, 'pay' | 'markOverdue'>;
}

type Action = 'pay' | 'overdue';

/** What the partner is told: the request went to Stripe; the invoice changes when Stripe's event comes back. */
export const sandboxInvoiceAccepted = (invoiceId: string, action: Action) => ({
  invoice_id: invoiceId,
  action,
  message:
    action === 'pay'
      ? 'Stripe was asked to pay the invoice; its invoice.paid event updates the invoice and is sent to your endpoint'
      : 'Stripe was asked to make the invoice fall due; its invoice.overdue event updates the invoice and is sent to your endpoint',
});

const invoiceAction = <D extends SandboxInvoiceRouteDependencies>(
  getDependencies: () => Promise<D>,
  action: Action,
): HttpLambda =>
  idempotentApiHandler(`sandbox-invoice-${action}`, getDependencies, async ({ event, body, caller, deps }) => {
    parseBody(SandboxInvoiceActionRequest, body);
    // The path-parameter rule (inv_ and 32 lower-case hex digits) has already refused anything else.
    const invoiceId = event.pathParameters?.invoice_id ?? '';
    if (action === 'pay') await deps.sandboxInvoices.pay(caller.partnerId, invoiceId);
    else await deps.sandboxInvoices.markOverdue(caller.partnerId, invoiceId);
    // 202: Stripe's event, not this answer, changes the invoice (docs/billing.md, "Sandbox").
    return json(202, sandboxInvoiceAccepted(invoiceId, action));
  });

/** The sandbox's invoice actions (docs/billing.md, "Sandbox"); production has neither route. */
export const sandboxInvoiceRoutes = <D extends SandboxInvoiceRouteDependencies>(getDependencies: () => Promise<D>) => ({
  'sandbox-invoice-pay': invoiceAction(getDependencies, 'pay'),
  'sandbox-invoice-overdue': invoiceAction(getDependencies, 'overdue'),
});
