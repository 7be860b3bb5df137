/**
 * Operator commands for orders (`orderCommands`): `order list`, `order show`, and the
 * fulfilment path `order confirm|ship|deliver|cancel|refund`, on every stage. The CLI
 * acts with operator scope: for the order's own partner, whichever it is. Orders are
 * shown as the partner API shows them (docs/orders-api.md).
 */
import type { Dependencies } from '../../functions/container';
import { NotFound } from '../../functions/domain/errors';
import { formatUsd, toCents } from '../../functions/domain/money';
import type { Order } from '../../functions/domain/orders/order';
import { MAX_ORDER_PAGE_SIZE } from '../../functions/domain/orders/order-repository';
import type { OrderAction } from '../../functions/domain/orders/transition-input';
import type { Organization } from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { toOrderResponse } from '../../functions/api/orders/order-response';
import { fieldLines, NONE, tableLines } from './human-format';
import { type CommandTable, defineCommand, type OptionSpecs } from './ops-command';
import {
  DeliveryDateOption,
  InternalOrgIdOption,
  OrderIdOption,
  PartnerIdOption,
  partnerOption,
} from './option-schemas';
import { findOrder, type OrderLookupScope } from './order-lookup';
import { z } from 'zod';

type Deps = Pick<Dependencies, 'partners' | 'organizations' | 'orders' | 'orderService'>;

type OrderView = ReturnType<typeof toOrderResponse>;

const view = (order: Order) => ({ partner_id: order.partnerId, ...toOrderResponse(order) });

/** Every order of one organization, newest first, all pages. */
async function allOrdersOf(deps: Deps, organization: Organization): Promise<Order[]> {
  const orders: Order[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.orderService.listForOrganization(
      organization,
      { partnerId: organization.partnerId },
      { limit: MAX_ORDER_PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) },
    );
    orders.push(...page.orders);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return orders;
}

/** `order list --partner ID [--org INTERNAL_ORG_ID]`: the partner's orders (or one organization's), newest first. */
async function listOrders(deps: Deps, options: { partner: string; org?: string | undefined }) {
  const partner = await deps.partners.getPartner(options.partner as PartnerId);
  if (!partner) throw new NotFound(`No partner ${options.partner}`);
  let organizations: Organization[];
  if (options.org === undefined) {
    organizations = await deps.organizations.listOrganizations(partner.id);
  } else {
    const aggregate = await deps.organizations.getOrganization(partner.id, options.org);
    if (!aggregate) throw new NotFound(`Partner ${partner.id} has no organization ${options.org}`);
    organizations = [aggregate.organization];
  }
  const orders = (await Promise.all(organizations.map((organization) => allOrdersOf(deps, organization))))
    .flat()
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  return { partnerId: partner.id, orders: orders.map(view) };
}

/** `order show --order ID [--partner ID [--org INTERNAL_ORG_ID]]`. */
async function showOrder(deps: Deps, options: { order: string } & OrderLookupScope) {
  return view(await findOrder(deps, options.order, options));
}

/**
 * `order <action> --order ID [...]`: the change, with its webhook, as the sandbox API
 * makes it, for the order's own partner. Options are the API's fields in kebab case.
 */
async function changeOrder(
  deps: Deps,
  action: OrderAction,
  options: { order: string; scope: OrderLookupScope; input: Record<string, unknown> },
) {
  const order = await findOrder(deps, options.order, options.scope);
  return view(await deps.orderService.transition(order.id, action, options.input, { partnerId: order.partnerId }));
}

/** `--order ID`, with the options that narrow a short id's lookup. */
const orderOptions = {
  order: {
    schema: OrderIdOption,
    placeholder: 'ID',
    description: 'Order id: the UUID order list shows, or its first 8 characters as the module shows it (23a38da1)',
  },
  partner: {
    schema: PartnerIdOption.optional(),
    placeholder: 'ID',
    description: "Only this partner's orders (a short id then reads only theirs)",
  },
  org: {
    schema: z.optional(InternalOrgIdOption),
    placeholder: 'INTERNAL_ORG_ID',
    description: "Only this organization's orders (with --partner)",
  },
} as const;
const text = (placeholder: string, description: string, required: boolean) =>
  ({ schema: required ? z.string() : z.string().optional(), placeholder, description }) as const;
/** Dollars, e.g. `12.50`; the domain checks it is positive, has at most two decimals and is at most the total. */
const amountOption = {
  schema: z
    .string()
    .trim()
    .refine((value) => /^\d+(\.\d{1,2})?$/.test(value), {
      message: 'must be a dollar amount like 12.50',
      params: { code: 'INVALID_AMOUNT' },
    })
    .transform(Number)
    .optional(),
  placeholder: 'AMOUNT',
  description: "Dollars to refund, e.g. 12.50 (default: the order's total)",
} as const;

/** Each action's options, named after the API's fields in kebab case. */
const ACTION_OPTIONS: Record<OrderAction, { summary: string; options: OptionSpecs }> = {
  confirm: { summary: 'Confirm a pending order (sends order.confirmed)', options: {} },
  ship: {
    summary: 'Ship a confirmed order with its tracking (sends order.shipped)',
    options: {
      'tracking-number': text('NUMBER', "The carrier's tracking number", true),
      carrier: text('CARRIER', 'e.g. UPS', true),
      'tracking-url': text('URL', 'https link to the tracking page', true),
      'estimated-delivery': {
        schema: DeliveryDateOption,
        placeholder: 'DATE',
        description: 'A date, e.g. 2026-12-01 (17:00 UTC that day), or an ISO 8601 date-time with offset',
      },
    },
  },
  deliver: {
    summary: 'Record the delivery of a shipped order (sends order.delivered)',
    options: { signature: text('NAME', 'Who signed for it', true) },
  },
  cancel: {
    summary: 'Cancel a pending or confirmed order (sends order.cancelled)',
    options: { reason: text('TEXT', 'Why, shown to the partner', false) },
  },
  refund: {
    summary: 'Refund a delivered order (sends order.refunded)',
    options: { amount: amountOption, reason: text('TEXT', 'Why, shown to the partner', false) },
  },
};

/** `--tracking-number X` → `{ tracking_number: 'X' }`, leaving out options not given. */
const toInput = (values: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(values)
      .filter(([name, value]) => !(name in orderOptions) && value !== undefined)
      .map(([name, value]) => [name.replaceAll('-', '_'), value]),
  );

const orderTextLines = (order: OrderView & { partner_id: string }): string[] => [
  ...fieldLines([
    ['id', order.id],
    ['status', order.status],
    ['partnerId', order.partner_id],
    ['partnerOrgId', order.partner_org_id],
    ['userEmail', order.user_email],
    [
      'shipTo',
      [
        order.shipping_address.line1,
        order.shipping_address.line2,
        order.shipping_address.city,
        `${order.shipping_address.state} ${order.shipping_address.zip}`,
      ]
        .filter(Boolean)
        .join(', '),
    ],
    ['subtotal', formatUsd(toCents(order.subtotal))],
    ['tax', formatUsd(toCents(order.tax))],
    ['shipping', formatUsd(toCents(order.shipping))],
    ['total', formatUsd(toCents(order.total))],
    [
      'tracking',
      order.tracking_number === undefined ? NONE : `${order.carrier} ${order.tracking_number} ${order.tracking_url}`,
    ],
    ['signature', order.signature ?? NONE],
    [
      'refunded',
      order.amount_refunded === undefined
        ? NONE
        : `${formatUsd(toCents(order.amount_refunded))} of ${formatUsd(toCents(order.total))} (${order.refunds?.length ?? 1} refund${(order.refunds?.length ?? 1) === 1 ? '' : 's'})`,
    ],
    ['createdAt', order.created_at],
  ]),
  '',
  ...tableLines(
    ['PRODUCT ID', 'NAME', 'QUANTITY', 'PRICE'],
    order.items.map((item) => [item.product_id, item.name, String(item.quantity), formatUsd(toCents(item.price))]),
  ),
  '',
  ...tableLines(
    ['STATUS', 'AT'],
    order.status_history.map((change) => [change.status, change.at]),
  ),
];

const actionCommand = (action: OrderAction) =>
  defineCommand({
    summary: ACTION_OPTIONS[action].summary,
    options: { ...orderOptions, ...ACTION_OPTIONS[action].options },
    async run(deps, options) {
      const values = options as Record<string, unknown> & { order: string } & OrderLookupScope;
      const result = await changeOrder(deps, action, {
        order: values.order,
        scope: { partner: values.partner, org: values.org },
        input: toInput(values),
      });
      return {
        json: result,
        text: [
          ...orderTextLines(result),
          '',
          `The partner's ${`order.${result.status === 'pending' ? 'created' : result.status}`} webhook is queued.`,
        ],
      };
    },
  });

export const orderCommands: CommandTable = {
  'order list': defineCommand({
    summary: "List a partner's orders, or one organization's, newest first",
    options: {
      partner: partnerOption,
      org: {
        schema: z.string().trim().min(1).optional(),
        placeholder: 'INTERNAL_ORG_ID',
        description: "Only this organization's orders",
      },
    },
    async run(deps, options) {
      const result = await listOrders(deps, options);
      return {
        json: result,
        text:
          result.orders.length === 0
            ? [`Partner ${result.partnerId} has no orders${options.org === undefined ? '' : ` in ${options.org}`}.`]
            : tableLines(
                ['ORDER ID', 'INTERNAL ORG ID', 'STATUS', 'TOTAL', 'ITEMS', 'CREATED'],
                result.orders.map((o) => [
                  o.id,
                  o.partner_org_id,
                  o.status,
                  formatUsd(toCents(o.total)),
                  String(o.items.length),
                  o.created_at,
                ]),
              ),
      };
    },
  }),

  'order show': defineCommand({
    summary: 'Show one order: items, totals, shipping address, tracking and status history',
    options: orderOptions,
    async run(deps, options) {
      const result = await showOrder(deps, options);
      return { json: result, text: orderTextLines(result) };
    },
  }),

  'order confirm': actionCommand('confirm'),
  'order ship': actionCommand('ship'),
  'order deliver': actionCommand('deliver'),
  'order cancel': actionCommand('cancel'),
  'order refund': actionCommand('refund'),
};
