/**
 * The fields of a profile beyond the contract's user object: its role in the module and
 * its order limit. Setup takes them optionally under `user`, and
 * PATCH /v1/organizations/{internalOrgId}/users/{internalUserId} changes them.
 */
// zod/mini: the setup Lambda parses these at cold start, and the classic API alone is ~440 KB bundled.
import * as z from 'zod/mini';
import { documented, dollarRules } from '../documented-rules';
import { type Cents, parseCents } from '../money';
import { requiredField, rule } from '../validation';
import { PROFILE_ROLES } from './organization';

/** Ten million dollars: far above any supplies order, well inside safe integers. */
const MAX_ORDER_LIMIT_CENTS = 1_000_000_000;

export const RoleInput = z.enum(PROFILE_ROLES, { error: requiredField });

/** A USD amount above 0 with at most two decimals, as integer cents. */
export const OrderLimitInput = documented(
  z.pipe(
    z.number({ error: requiredField }).check(
      z.refine((value: number) => value > 0, { message: 'must be greater than 0', params: { code: 'TOO_SMALL' } }),
      z.refine(
        (value: number) => value <= 0 || parseCents(value) !== undefined,
        rule('INVALID_AMOUNT', 'must be a USD amount with at most two decimals'),
      ),
      z.refine((value: number) => (parseCents(value) ?? 0) <= MAX_ORDER_LIMIT_CENTS, {
        message: `must be at most ${MAX_ORDER_LIMIT_CENTS / 100}`,
        params: { code: 'TOO_BIG' },
      }),
    ),
    z.transform((value: number): Cents => parseCents(value) as Cents),
  ),
  dollarRules(MAX_ORDER_LIMIT_CENTS / 100, 'US dollars above 0.'),
);
