import type { MiddlewareObj } from '@middy/core';
import * as z from 'zod/mini';
import {
  ApprovalNotFound,
  DeliveryNotFound,
  InvoiceNotFound,
  type DomainError,
  OrderNotFound,
  OrganizationNotFound,
  ProfileNotFound,
  ShippingLocationNotFound,
} from '../../domain/errors';
import { orderIdOfInvoice } from '../../domain/billing/invoice';
import type { PartnerId } from '../../domain/partners/partner';
import { MAX_TEXT_LENGTH, requiredText } from '../../domain/validation';
import { filledIn, type HttpEvent, type HttpResult } from '../../http/http-context';
import type { ApiRoute, ROUTES } from '../../routes';
import type { ApiContext } from './api-context';

/** The `{name}`s of a path, as a union. */
type ParametersOf<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParametersOf<Rest>
  : never;
type ApiPathParameter = ParametersOf<Extract<(typeof ROUTES)[number], { host: 'api' }>['path']>;

interface PathParameterRule {
  readonly valid: (value: string) => boolean;
  /** What the route answers for a value that names nothing: the same 404 as an unknown value of the right shape. */
  readonly notFound: (value: string, partnerId: PartnerId) => DomainError;
}

/** A partner's own identifier, as setup accepts it: 1-256 characters once trimmed, no control or bidi characters. */
const partnerIdentifier = requiredText(MAX_TEXT_LENGTH);
const isPartnerIdentifier = (value: string) => partnerIdentifier.safeParse(value).success;
const uuid = z.uuid();
const isUuid = (value: string) => uuid.safeParse(value).success;

/**
 * Every path parameter of the partner API with its documented rule (docs/openapi.json
 * states the same), checked before any read: DynamoDB refuses keys over 1,024 bytes (a
 * 500 before this check), and a value outside its rule can name nothing, so it is the
 * route's 404. A route with a parameter missing here does not compile.
 */
const PATH_PARAMETER_RULES: Readonly<Record<ApiPathParameter, PathParameterRule>> = {
  internalOrgId: {
    valid: isPartnerIdentifier,
    notFound: (value, partnerId) => new OrganizationNotFound(partnerId, value),
  },
  internalUserId: {
    valid: isPartnerIdentifier,
    notFound: (value) => new ProfileNotFound(`No user with internalUserId "${value}" in the organization`),
  },
  internalShippingLocationId: {
    valid: isPartnerIdentifier,
    notFound: (value) => new ShippingLocationNotFound(value),
  },
  order_id: { valid: isUuid, notFound: (value) => new OrderNotFound(value) },
  approval_request_id: { valid: isUuid, notFound: (value) => new ApprovalNotFound(value) },
  delivery_id: { valid: isUuid, notFound: (value) => new DeliveryNotFound(value) },
  invoice_id: {
    valid: (value) => orderIdOfInvoice(value) !== undefined,
    notFound: (value) => new InvoiceNotFound(value),
  },
};

const parametersOf = (path: string): ApiPathParameter[] =>
  [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name as ApiPathParameter);

/** Refuses a path parameter outside its rule, left to right, with its route's 404 (after authentication: a stranger learns nothing). */
export const pathParameters = <D>(route: ApiRoute): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext<D>> => {
  const names = parametersOf(route.path);
  return {
    before: (request) => {
      for (const name of names) {
        const value = request.event.pathParameters?.[name] ?? '';
        const rule = PATH_PARAMETER_RULES[name];
        if (!rule.valid(value)) throw rule.notFound(value, filledIn(request.context.caller, 'caller').partnerId);
      }
    },
  };
};
