/**
 * What each failure of the domain becomes, written once, one file per area beside this one: the partner API's status and
 * body (per error shape: a route's row in functions/routes.ts says which shape its own
 * failures take), and the embedded module's page and status. The API's error responder
 * and the module's read this table; neither branches on routes. A failure with no entry,
 * or none for the route's shape or for the module, is not the caller's: the API answers
 * the route's 500 body, the module leaves it to the embed host's pages.
 *
 * The embed host's own failures (an unusable link or session) are a third column, `host`;
 * anything with no entry there is its generic 500 notice.
 *
 * The two columns differ on purpose where the contracts do: an empty cart at checkout is
 * the module's 409 (docs/module.md) but the API's 400 EMPTY_CART (docs/orders-api.md).
 */
import type { ErrorShape } from '../routes';
import { APPROVAL_OUTCOMES } from './approval-outcomes';
import { BILLING_OUTCOMES } from './billing-outcomes';
import { EMBED_OUTCOMES } from './embed-outcomes';
import { ORDER_OUTCOMES } from './order-outcomes';
import { ORGANIZATION_OUTCOMES } from './organization-outcomes';
import {
  type ApiOutcome,
  type Entry,
  type HostOutcome,
  type ModuleOutcome,
  type Places,
  STATUS_TITLES,
} from './outcome-kit';
import { REQUEST_OUTCOMES } from './request-outcomes';
import { WEBHOOK_OUTCOMES } from './webhook-outcomes';

export type { ApiOutcome, ModuleOutcome } from './outcome-kit';

const ERROR_OUTCOMES: readonly Entry[] = [
  ...REQUEST_OUTCOMES,
  ...EMBED_OUTCOMES,
  ...ORGANIZATION_OUTCOMES,
  ...ORDER_OUTCOMES,
  ...APPROVAL_OUTCOMES,
  ...WEBHOOK_OUTCOMES,
  ...BILLING_OUTCOMES,
];

const outcomeOf = (error: unknown) =>
  ERROR_OUTCOMES.find(({ type }) => error instanceof type)?.outcome as
    | {
        readonly api?: Partial<Record<ErrorShape['shape'], (error: unknown) => ApiOutcome>>;
        readonly module?: (error: unknown, places: Places) => ModuleOutcome;
        readonly host?: (error: unknown) => HostOutcome;
      }
    | undefined;

/** The route's body for a failure that is ours: never the failure's own details. */
export function serverErrorOutcome(errors: ErrorShape): ApiOutcome {
  return errors.shape === 'handshake'
    ? { status: 500, body: { ...errors.serverError } }
    : {
        status: 500,
        body: {
          error: STATUS_TITLES[500],
          message: errors.serverError.message,
          code: errors.serverError.code,
          details: [],
        },
      };
}

/** The API's answer to a failure, in the route's error shape. */
export const apiOutcome = (error: unknown, errors: ErrorShape): ApiOutcome =>
  outcomeOf(error)?.api?.[errors.shape]?.(error) ?? serverErrorOutcome(errors);

/** The module's page for a failure, or undefined when it is not the module's to explain. */
export const moduleOutcome = (error: unknown, places: Places): ModuleOutcome | undefined =>
  outcomeOf(error)?.module?.(error, places);

/** The embed host's notice for a failure the module does not explain: anything unknown is its 500. */
export const hostOutcome = (error: unknown): HostOutcome =>
  outcomeOf(error)?.host?.(error) ?? { status: 500, page: 'unavailable', clearSession: false };
