/**
 * What each order change takes from its caller (the sandbox API, the operator CLI, the
 * module), as partners write it: snake_case, dollar amounts. Unknown fields are ignored,
 * as in every request (docs/architecture.md, "Size limits").
 */
// zod/mini: parsed by the orders Lambda at runtime.
import * as z from 'zod/mini';
import { documented, dollarRules, HTTPS_URL_PATTERN } from '../documented-rules';
import { addCalendarDays, utcDayOf } from '../calendar-days';
import { ValidationFailed } from '../errors';
import { type Cents, fromCents, parseCents } from '../money';
import { optionalText, requiredField, requiredText, rule, toValidationIssues } from '../validation';

export const ORDER_ACTIONS = ['confirm', 'ship', 'deliver', 'cancel', 'refund'] as const;
export const OrderAction = z.enum(ORDER_ACTIONS);
export type OrderAction = z.infer<typeof OrderAction>;

const MAX_TRACKING_URL_LENGTH = 2048;

/** A link a person follows from a partner's page or an e-mail: https, a public-looking host name, no credentials. */
function isHttpsUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && z.regexes.domain.test(url.hostname) && url.username === '' && url.password === '';
}

const httpsUrl = () =>
  documented(
    requiredText(MAX_TRACKING_URL_LENGTH).check(
      // Blank is already reported as REQUIRED.
      z.refine((value: string) => value === '' || isHttpsUrl(value), {
        message: 'must be an https URL',
        params: { code: 'INVALID_FORMAT' },
      }),
    ),
    {
      format: 'uri',
      pattern: HTTPS_URL_PATTERN,
      description:
        'An https URL with a host name (no IP address, no user name or password), e.g. `https://track.example.com/1Z999`. The server also accepts what the URL parser normalizes (upper case scheme, surrounding whitespace, spaces in the path); the document does not.',
    },
  );

const refundAmount = () =>
  documented(
    z.pipe(
      z.number({ error: requiredField }).check(
        z.refine((value: number) => value > 0, { message: 'must be greater than 0', params: { code: 'TOO_SMALL' } }),
        z.refine(
          (value: number) => parseCents(value) !== undefined,
          rule('INVALID_AMOUNT', 'must be a USD amount with at most two decimals'),
        ),
      ),
      z.transform((value: number): Cents => parseCents(value) as Cents),
    ),
    // Beyond this maximum the cents are no longer a safe integer.
    dollarRules(fromCents(Number.MAX_SAFE_INTEGER), "US dollars above 0, at most the order's total."),
  );

const TRANSITION_INPUT = {
  confirm: z.object({}),
  ship: z.object({
    tracking_number: requiredText(64),
    carrier: requiredText(64),
    tracking_url: httpsUrl(),
    estimated_delivery: z.iso.datetime({ offset: true, error: requiredField }),
  }),
  deliver: z.object({
    /** Name of the person who signed for the delivery. */
    signature: requiredText(),
  }),
  cancel: z.object({ reason: optionalText() }),
  refund: z.object({
    /** Dollars; absent means the whole order. Becomes cents. */
    amount: z.optional(refundAmount()),
    reason: optionalText(),
  }),
} as const satisfies Record<OrderAction, z.ZodMiniType>;

/**
 * What the sandbox's transition routes take: the same fields, but what a partner's CI
 * does not care to make up may be left out and is filled in by `withSandboxDefaults`
 * (operators, through the CLI, still give every field).
 */
export const SANDBOX_TRANSITION_INPUT = {
  ...TRANSITION_INPUT,
  ship: z.object({
    tracking_number: z.optional(requiredText(64)),
    carrier: z.optional(requiredText(64)),
    tracking_url: z.optional(httpsUrl()),
    estimated_delivery: z.optional(z.iso.datetime({ offset: true, error: requiredField })),
  }),
  deliver: z.object({ signature: z.optional(requiredText()) }),
} as const satisfies Record<OrderAction, z.ZodMiniType>;

/** The sandbox's shipment defaults: a UPS-shaped number from the order id, a tracking page for it, delivery in three days. */
export const SANDBOX_SHIPMENT_DEFAULTS = {
  carrier: 'UPS',
  trackingNumber: (orderId: string) => `1Z${orderId.replaceAll('-', '').slice(0, 16).toUpperCase()}`,
  trackingUrl: (trackingNumber: string) => `https://track.example.com/${encodeURIComponent(trackingNumber)}`,
  /** 17:00 UTC, `days` days after now. */
  estimatedDelivery: (now: Date, days = 3) => `${addCalendarDays(utcDayOf(now), days)}T17:00:00Z`,
  signature: 'Front desk',
} as const;

/**
 * The sandbox's body for `action` with what was left out filled in: for `ship`, the
 * carrier, tracking number, https tracking URL and an estimated delivery three days after
 * `now`; for `deliver`, the signature `Front desk`. Fields given (even invalid ones, which
 * validation then reports) are kept; a body that is not an object is passed on as it is.
 */
export function withSandboxDefaults(action: string, input: unknown, orderId: string, now: Date): unknown {
  const body = input ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) return input;
  const given = body as Record<string, unknown>;
  const orDefault = (field: string, value: () => string) => ({
    [field]: given[field] === undefined ? value() : given[field],
  });
  if (action === 'ship') {
    const trackingNumber = orDefault('tracking_number', () => SANDBOX_SHIPMENT_DEFAULTS.trackingNumber(orderId));
    return {
      ...given,
      ...trackingNumber,
      ...orDefault('carrier', () => SANDBOX_SHIPMENT_DEFAULTS.carrier),
      ...orDefault('tracking_url', () => SANDBOX_SHIPMENT_DEFAULTS.trackingUrl(String(trackingNumber.tracking_number))),
      ...orDefault('estimated_delivery', () => SANDBOX_SHIPMENT_DEFAULTS.estimatedDelivery(now)),
    };
  }
  if (action === 'deliver') return { ...given, ...orDefault('signature', () => SANDBOX_SHIPMENT_DEFAULTS.signature) };
  return input;
}

type TransitionInput<A extends OrderAction = OrderAction> = z.output<(typeof TRANSITION_INPUT)[A]>;

/** A change with its validated input, ready for `applyTransition`. */
export type OrderTransition = {
  [A in OrderAction]: { readonly action: A; readonly input: TransitionInput<A> };
}[OrderAction];

/**
 * Validates a change's input; a missing body counts as `{}`. Throws ValidationFailed with
 * every problem (paths relative to the body), or for an unknown action.
 */
export function parseTransition(action: string, input: unknown): OrderTransition {
  const knownAction = OrderAction.safeParse(action);
  if (!knownAction.success) {
    throw new ValidationFailed(
      [{ code: 'INVALID_VALUE', message: `action must be one of ${ORDER_ACTIONS.join(', ')}`, path: ['action'] }],
      `Unknown order action "${action}"`,
    );
  }
  const parsed = TRANSITION_INPUT[knownAction.data].safeParse(input ?? {});
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error);
    throw new ValidationFailed(issues, issues.map((issue) => issue.message).join('; '));
  }
  return { action: knownAction.data, input: parsed.data } as OrderTransition;
}
