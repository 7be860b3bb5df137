/** `billing reconcile --month YYYY-MM [--fix]`: one month's books, the service's and Stripe's, compared. */
import { z } from 'zod';
import { reconcileMonth } from './billing-reconciliation';
import { type CommandTable, defineCommand } from './ops-command';

const MonthOption = z
  .string()
  .trim()
  // A refinement, not .regex: the CLI reads a format issue by its code and would drop this message.
  .refine((month) => /^\d{4}-(0[1-9]|1[0-2])$/.test(month), {
    message: 'must be a month as YYYY-MM, e.g. 2026-11',
    params: { code: 'INVALID_FORMAT' },
  });

export const billingCommands: CommandTable = {
  'billing reconcile': defineCommand({
    summary:
      "Compare a month's shipped orders, the service's invoices and credit notes, and Stripe's; exit 1 on any mismatch",
    options: {
      month: { schema: MonthOption, placeholder: 'YYYY-MM', description: 'The month of the shipments (UTC)' },
      fix: {
        schema: z.boolean().optional().default(false),
        type: 'boolean',
        description: 'Issue the invoices and credit notes that are missing (idempotent: never a second)',
      },
    },
    async run(deps, options) {
      const result = await reconcileMonth(deps, options);
      const open = result.mismatches.filter((mismatch) => !mismatch.fixed);
      const summary = `${result.month}: ${result.shippedOrders} shipped orders, ${result.invoices} invoiced`;
      return {
        json: result,
        text:
          result.mismatches.length === 0
            ? [`${summary}; the service and Stripe agree.`]
            : [
                `${summary}; ${result.mismatches.length} mismatch(es)${options.fix ? `, ${result.mismatches.length - open.length} fixed` : ''}:`,
                ...result.mismatches.flatMap((mismatch) => [
                  `- ${mismatch.kind} order ${mismatch.orderId}${mismatch.invoiceId ? ` (${mismatch.invoiceId})` : ''}: ${mismatch.detail}`,
                  mismatch.fixed ? '  fixed: issued now' : `  to do: ${mismatch.action}`,
                ]),
              ],
        // Exit 1 while anything is left to do; a run whose --fix closed every gap succeeds.
        exitCode: open.length === 0 ? 0 : 1,
      };
    },
  }),
};
