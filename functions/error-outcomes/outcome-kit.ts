/**
 * What the error table (./index.ts) is made of: the shapes of an outcome, and the one
 * list of the general body's codes by status, which the table's answers and the partner
 * API document's error bodies (functions/api/pipeline/error-bodies.ts) both take theirs
 * from, so a code or a title is written once.
 */
import type { ModulePaths } from '../embed-host/module/module-paths';
import type { ErrorShape } from '../routes';

export interface ApiOutcome {
  readonly status: number;
  readonly body: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

interface ModuleLink {
  readonly href: string;
  readonly label: string;
  readonly primary?: boolean;
}

/** A page of the module that says what went wrong and where to go next (never a stack trace, never which check refused a forged request). */
export interface ModuleOutcome {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly links: readonly ModuleLink[];
}

/**
 * The embed host's own notice for a failure that is not the module's to explain: an
 * unusable link or session (the browser is never told which), or anything else (`unavailable`).
 */
export interface HostOutcome {
  readonly status: number;
  /** `session-ended` tells the bridge a live session ended (the SDK renews it); `link-unusable` that it will not. */
  readonly page: 'session-ended' | 'link-unusable' | 'unavailable';
  /** Clear the session cookie: its session is over. */
  readonly clearSession: boolean;
}

export type Places = Pick<
  ModulePaths,
  'home' | 'cart' | 'checkout' | 'orders' | 'orderGuide' | 'approvals' | 'approval'
>;

interface Outcome<E> {
  /** By the route's error shape; a shape without an entry answers the route's 500. */
  readonly api?: Partial<Record<ErrorShape['shape'], (error: E) => ApiOutcome>>;
  readonly module?: (error: E, places: Places) => ModuleOutcome;
  readonly host?: (error: E) => HostOutcome;
}

export interface Entry {
  readonly type: abstract new (...args: never[]) => Error;
  readonly outcome: Outcome<never>;
}

export const entry = <E extends Error>(type: abstract new (...args: never[]) => E, outcome: Outcome<E>): Entry => ({
  type,
  outcome: outcome as Outcome<never>,
});

/** The general body's `error`, by status. */
export const STATUS_TITLES = {
  400: 'Validation Error',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
} as const;

/**
 * Every `code` of the general body, by the status it comes with. A code may come with two:
 * a missing webhook endpoint is a 404 to read and a 409 to send a test event to.
 */
interface GeneralCodes {
  400:
    | 'VALIDATION_ERROR'
    | 'IDEMPOTENCY_KEY_REUSED'
    | 'PROFILE_NOT_LINKED'
    | 'PRODUCT_UNAVAILABLE'
    | 'SHIPPING_LOCATION_UNAVAILABLE'
    | 'EMPTY_CART';
  401: 'UNAUTHORIZED';
  403: 'FORBIDDEN' | 'APPROVAL_FORBIDDEN' | 'SELF_APPROVAL_FORBIDDEN';
  404:
    | 'PROFILE_NOT_FOUND'
    | 'ORGANIZATION_NOT_FOUND'
    | 'ORDER_NOT_FOUND'
    | 'SHIPPING_LOCATION_NOT_FOUND'
    | 'APPROVAL_REQUEST_NOT_FOUND'
    | 'DELIVERY_NOT_FOUND'
    | 'WEBHOOK_ENDPOINT_NOT_CONFIGURED'
    | 'INVOICE_NOT_FOUND';
  409:
    | 'USER_ALREADY_EXISTS'
    | 'IDEMPOTENCY_KEY_IN_USE'
    | 'INVALID_ORDER_TRANSITION'
    | 'CONCURRENT_MODIFICATION'
    | 'SHIPPING_LOCATION_ALREADY_EXISTS'
    | 'DEFAULT_LOCATION_INACTIVE'
    | 'APPROVAL_REQUIRED'
    | 'APPROVAL_NOT_PENDING'
    | 'APPROVAL_CANNOT_BE_PLACED'
    | 'WEBHOOK_ENDPOINT_NOT_CONFIGURED'
    | 'WEBHOOK_EVENT_NOT_SUBSCRIBED'
    | 'DELIVERY_IN_FLIGHT'
    | 'INVOICE_NOT_OPEN'
    | 'INVOICE_NOT_AT_STRIPE';
  429: 'RATE_LIMIT_EXCEEDED';
  500: 'INTERNAL_ERROR' | 'SETUP_ERROR';
  501: 'NOT_SUPPORTED_BY_PROVIDER';
  503: 'INVOICE_NOT_RECORDED_YET' | 'SALES_TAX_UNAVAILABLE' | 'STRIPE_UNAVAILABLE';
}

export type GeneralStatus = keyof GeneralCodes & keyof typeof STATUS_TITLES;
export type GeneralCode<S extends GeneralStatus = GeneralStatus> = GeneralCodes[S];

/** The handshake's own failures' `error` (contract: Handshake endpoint); its 500's is in its row of functions/routes.ts. */
export const HANDSHAKE_TITLES = {
  invalid: 'Invalid request body',
  profileNotLinked: 'Profile not set up for authentication',
  profileNotFound: 'Profile not found',
} as const;

/** The general body: all four fields, `details` `[]` when there is nothing to list. */
export const general =
  <E extends Error, S extends GeneralStatus>(
    status: S,
    code: GeneralCode<S>,
    extra: (failure: E) => Record<string, unknown> = () => ({}),
  ) =>
  (failure: E): ApiOutcome => ({
    status,
    body: { error: STATUS_TITLES[status], message: failure.message, code, details: [], ...extra(failure) },
  });

/** The same answer whatever the route's shape: authentication, permission and rate-limit failures. */
export const onEveryRoute = <E extends Error>(answer: (error: E) => ApiOutcome) => ({
  general: answer,
  handshake: answer,
});

export const toCart = (places: Places): ModuleLink => ({ href: places.cart, label: 'Go to cart', primary: true });
export const toOrders = (places: Places): ModuleLink => ({ href: places.orders, label: 'View orders' });
export const toRequest = (places: Places, requestId: string): ModuleLink => ({
  href: places.approval(requestId),
  label: 'Back to the request',
  primary: true,
});
