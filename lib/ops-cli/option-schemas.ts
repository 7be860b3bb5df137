/**
 * Schemas of option values shared by command groups. They reuse the domain's validation
 * building blocks, so a bad value reads the same as in an API error ("must be a UUID").
 */
import { z } from 'zod';
import { isValid, parse } from 'date-fns';
import type { ProfileId } from '../../functions/domain/organizations/organization';
import type { ApiKeyId, PartnerId } from '../../functions/domain/partners/partner';
import { Scope, SCOPES } from '../../functions/domain/partners/partner';
import { optionalEmail, requiredField, requiredText } from '../../functions/domain/validation';
import { DELIVERY_STATUSES, type DeliveryId } from '../../functions/webhooks/delivery';
import {
  ORDER_EVENT_KINDS,
  WEBHOOK_EVENT_KINDS,
  WebhookEventKind,
} from '../../functions/domain/events/order-event-kinds';
import { checkPreferredSecret } from '../../functions/webhooks/webhook-secret';

const commaSeparated = (raw: string): string[] =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** A UUID option's format error, as operators see it. */
const UUID_FORMAT = 'must be a UUID, e.g. 0f8fad5b-d9cb-469f-a165-70867728950e';

/**
 * A UUID option. An empty or blank value (often an unset shell variable in quotes) says
 * "must not be blank", as any required field does, rather than "must be a UUID".
 */
const uuidOption = () =>
  z
    .string({ error: requiredField })
    .trim()
    .min(1)
    .pipe(
      z
        .string()
        .refine((id) => z.uuid().safeParse(id).success, { message: UUID_FORMAT, params: { code: 'INVALID_UUID' } }),
    )
    .transform((id) => id.toLowerCase());

/** Checked before any lookup, so a typo never reaches the store. Stored ids are lower case. */
export const PartnerIdOption = uuidOption().transform((id) => id as PartnerId);

const KEY_ID = /^key_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const KeyIdOption = z
  .string({ error: requiredField })
  .trim()
  .min(1)
  .toLowerCase()
  .pipe(z.string())
  .refine((id) => KEY_ID.test(id), {
    message: 'must be a key id (key_<uuid>, as partner show lists them)',
    params: { code: 'INVALID_FORMAT' },
  })
  .transform((id) => id as ApiKeyId);

/** `organization:write,session:write`: at least one scope, each one of `SCOPES`. */
export const ScopesOption = z.string({ error: requiredField }).transform((raw, ctx) => {
  const names = commaSeparated(raw);
  const unknown = names.filter((name) => !Scope.safeParse(name).success);
  if (names.length === 0 || unknown.length > 0) {
    const got = unknown.length > 0 ? ` (not scopes: ${unknown.map((name) => JSON.stringify(name)).join(', ')})` : '';
    ctx.addIssue({
      code: 'custom',
      message: `must list scopes from ${SCOPES.join(', ')}${got}`,
      params: { code: 'INVALID_VALUE' },
    });
    return z.NEVER;
  }
  return [...new Set(names)] as Scope[];
});

/**
 * `https://a.example,https://b.example:8443`: http(s) origins without path, query or
 * credentials, stored in their canonical form (`https://A.example:443/` is
 * `https://a.example`). An empty value clears the list: the environment default applies.
 */
export const OriginsOption = z.string({ error: requiredField }).transform((raw, ctx) => {
  const origins: string[] = [];
  for (const value of commaSeparated(raw)) {
    const origin = canonicalOrigin(value);
    if (origin) origins.push(origin);
    else
      ctx.addIssue({
        code: 'custom',
        message: `has ${JSON.stringify(value)}, which is not an http(s) origin (scheme://host[:port], no path)`,
        params: { code: 'INVALID_ORIGIN' },
      });
  }
  return [...new Set(origins)];
});

const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$|^\[[0-9a-f:.]+\]$/;

function canonicalOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
  // URL accepts hosts like `*.example`; an origin names one host (wildcards are CSP syntax, not origins).
  if (!HOSTNAME.test(url.hostname)) return undefined;
  // URL tidies `/./` and the like into `/`; only a bare trailing slash may follow the host.
  const afterHost = value.replace(/^[a-z]+:\/\/[^/?#]*/i, '');
  if (afterHost !== '' && afterHost !== '/') return undefined;
  return url.origin;
}

/** Profile ids are the UUIDs setup returned (`profile.id`); stored lower case. */
const ProfileIdOption = uuidOption().transform((id) => id as ProfileId);

/** Delivery ids are the UUIDs `deliveries list` shows (`X-Service-Delivery-ID`); stored lower case. */
export const DeliveryIdOption = uuidOption().transform((id) => id as DeliveryId);

/** The partner's own organization id, under the rule setup applies to `internalOrgId`. */
export const InternalOrgIdOption = requiredText();

/** `--limit N`: a whole number from 1 to `max`. */
export const limitOption = (max: number) =>
  z.string({ error: requiredField }).transform((raw, ctx) => {
    const value = raw.trim();
    const limit = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (limit >= 1 && limit <= max) return limit;
    ctx.addIssue({
      code: 'custom',
      message: `must be a whole number from 1 to ${max}, e.g. 20`,
      params: { code: 'INVALID_VALUE' },
    });
    return z.NEVER;
  });

/** `--max-rate N`: deliveries per second to one endpoint, 1 to 1000; 0 removes the ceiling. */
export const MaxRateOption = z.string({ error: requiredField }).transform((raw, ctx) => {
  const value = raw.trim();
  const rate = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (rate >= 0 && rate <= 1000) return rate;
  ctx.addIssue({
    code: 'custom',
    message: 'must be a whole number of deliveries a second from 0 (no ceiling) to 1000, e.g. 20',
    params: { code: 'INVALID_VALUE' },
  });
  return z.NEVER;
});

export const DeliveryStatusOption = z.enum(DELIVERY_STATUSES, { error: requiredField });

export const OrderEventKindOption = z.enum(ORDER_EVENT_KINDS, { error: requiredField });

/** `order.created,order.shipped`: at least one kind, each one of `WEBHOOK_EVENT_KINDS` (the order and approval kinds). */
export const EventKindsOption = z.string({ error: requiredField }).transform((raw, ctx) => {
  const kinds = commaSeparated(raw);
  const unknown = kinds.filter((kind) => !WebhookEventKind.safeParse(kind).success);
  if (kinds.length === 0 || unknown.length > 0) {
    const got =
      unknown.length > 0 ? ` (not event kinds: ${unknown.map((kind) => JSON.stringify(kind)).join(', ')})` : '';
    ctx.addIssue({
      code: 'custom',
      message: `must list event kinds from ${WEBHOOK_EVENT_KINDS.join(', ')}${got}`,
      params: { code: 'INVALID_VALUE' },
    });
    return z.NEVER;
  }
  return [...new Set(kinds)] as WebhookEventKind[];
});

/** A partner's preferred signing secret, under the domain's rule; never echoed in a message. */
export const WebhookSecretOption = z.string({ error: requiredField }).superRefine((secret, ctx) => {
  const problem = checkPreferredSecret(secret);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: 'INVALID_SECRET' } });
});

/**
 * A webhook URL. Whether it is acceptable depends on the target stage (production takes
 * HTTPS to public hosts only), so the domain checks it once the stage is known.
 */
export const WebhookUrlOption = z.string({ error: requiredField }).trim().min(1);

/** A file the command reads, relative to the working directory (the repository root under npm). */
export const FilePathOption = z.string({ error: requiredField }).trim().min(1);

/** How the module shows an order: the first 8 characters of its id (`Order 23a38da1`). */
const SHORT_ORDER_ID_LENGTH = 8;
const UUID_SHAPE = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';
/** The start of a UUID's text: hex digits, with the dashes where a UUID has them. */
const isUuidStart = (value: string) =>
  [...value].every((char, i) => (UUID_SHAPE[i] === '-' ? char === '-' : /^[0-9a-f]$/.test(char)));

/**
 * An order: its UUID (as the order API and `order list` show it), or at least the first 8
 * characters of it (as the module shows it), resolved by `order-lookup.ts`. Lower case, as stored.
 */
export const OrderIdOption = z
  .string({ error: requiredField })
  .trim()
  .toLowerCase()
  .refine((id) => id.length >= SHORT_ORDER_ID_LENGTH && id.length <= UUID_SHAPE.length && isUuidStart(id), {
    message: `must be an order id: its UUID, or its first ${SHORT_ORDER_ID_LENGTH} characters or more as the module shows them, e.g. 23a38da1`,
    params: { code: 'INVALID_ORDER_ID' },
  });

const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86400 };
/** The longest overlap a rotation may keep an old secret signing. */
const MAX_OVERLAP_SECONDS = 30 * 86400;

/** `24h`, `30m`, `90s`, `7d` (`0s`: no overlap), as whole seconds. */
export const DurationOption = z.string({ error: requiredField }).transform((raw, ctx) => {
  const match = /^(\d+)([smhd])$/.exec(raw.trim());
  const seconds = match ? Number(match[1]) * (DURATION_UNITS[match[2] as string] as number) : Number.NaN;
  if (!(seconds >= 0 && seconds <= MAX_OVERLAP_SECONDS)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a duration like 24h, 30m or 90s, at most 30d',
      params: { code: 'INVALID_VALUE' },
    });
    return z.NEVER;
  }
  return seconds;
});

const DATE_TIME_FORMAT = 'must be an ISO 8601 date-time with its offset, e.g. 2036-11-22T12:00:00Z';

/** `--since 2036-11-22T12:00:00Z`: an ISO 8601 time with its offset. */
export const TimeOption = z
  .string({ error: requiredField })
  .trim()
  .refine((raw) => z.iso.datetime({ offset: true }).safeParse(raw).success, {
    message: DATE_TIME_FORMAT,
    params: { code: 'INVALID_FORMAT' },
  })
  .transform((raw) => new Date(raw));

/** A real calendar day as `YYYY-MM-DD` (`2036-02-30` is not). */
const isCalendarDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && isValid(parse(value, 'yyyy-MM-dd', new Date(0)));

/**
 * `--estimated-delivery 2036-12-01`, or a date-time with its offset as the API takes it.
 * A date alone is that day at 17:00 UTC (as the sandbox's default): the same calendar day
 * in every US time zone, so partners never show the day before.
 */
export const DeliveryDateOption = z.string({ error: requiredField }).transform((raw, ctx) => {
  const value = raw.trim();
  if (isCalendarDate(value)) return `${value}T17:00:00Z`;
  if (z.iso.datetime({ offset: true }).safeParse(value).success) return value;
  ctx.addIssue({
    code: 'custom',
    message:
      'must be a date (YYYY-MM-DD, e.g. 2036-12-01) or an ISO 8601 date-time with its offset, e.g. 2036-12-01T17:00:00Z',
    params: { code: 'INVALID_DATE' },
  });
  return z.NEVER;
});

/** `--data '{"order_id":…}'` or `--data @order.json`: read and parsed by the command. */
export const JsonDataOption = z.string({ error: requiredField }).trim().min(1);

/** An order event id; its format is the publisher's rule, checked there. */
export const EventIdOption = z.string({ error: requiredField }).trim().min(1);

export const EmailOption = optionalEmail();

/** `--partner ID`, taken by most commands. */
export const partnerOption = { schema: PartnerIdOption, placeholder: 'ID', description: 'Partner id (UUID)' } as const;

/** `--profile PROFILE_ID`: the profile `id` setup returned. */
export const profileOption = {
  schema: ProfileIdOption,
  placeholder: 'PROFILE_ID',
  description: 'Profile id (UUID), as setup returned it',
} as const;
