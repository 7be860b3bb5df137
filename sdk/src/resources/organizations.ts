import type {
  OrganizationResponse,
  OrganizationUpdateRequest,
  OrganizationUserResponse,
  OrganizationUserUpdateRequest,
  SetupRequest,
  SetupResponse,
  SpendReport,
  Statement,
  ShippingLocationCreateRequest,
  ShippingLocationResponse,
  ShippingLocationUpdateRequest,
} from '../api-types.js';
import type { HttpTransport } from '../http-transport.js';

export interface SetupOptions {
  /**
   * Makes the call safe to repeat: the same key and body answer the first result again.
   * Default: a random key per call, reused by the SDK's own retries of it, so a retried
   * setup never provisions twice. Pass your own (e.g. `setup-<org>-<user>`) to make your
   * retries across processes safe too.
   */
  readonly idempotencyKey?: string;
}

/** As for setup: a change carries an `Idempotency-Key` its retries reuse. */
export type ChangeOptions = SetupOptions;

/** The header of a change: the caller's key, or a random one the SDK's own retries of the call reuse. */
export const idempotencyKeyOf = (options: SetupOptions) => ({
  'Idempotency-Key': options.idempotencyKey ?? `sdk-${globalThis.crypto.randomUUID()}`,
});
const segment = encodeURIComponent;

/** `GET` and `PATCH /v1/organizations/{internalOrgId}/users/{internalUserId}`. */
export class OrganizationUsers {
  constructor(private readonly transport: HttpTransport) {}

  get(internalOrgId: string, internalUserId: string): Promise<OrganizationUserResponse> {
    return this.transport.request<OrganizationUserResponse>({
      method: 'GET',
      path: `/v1/organizations/${segment(internalOrgId)}/users/${segment(internalUserId)}`,
      credential: 'bearer',
      retryable: 'on-failure',
    });
  }

  update(
    internalOrgId: string,
    internalUserId: string,
    body: OrganizationUserUpdateRequest,
    options: ChangeOptions = {},
  ): Promise<OrganizationUserResponse> {
    return this.transport.request<OrganizationUserResponse>({
      method: 'PATCH',
      path: `/v1/organizations/${segment(internalOrgId)}/users/${segment(internalUserId)}`,
      credential: 'bearer',
      body,
      headers: idempotencyKeyOf(options),
      retryable: 'on-failure',
    });
  }
}

/** `POST /v1/organizations/{internalOrgId}/shipping-locations` and `PATCH .../{internalShippingLocationId}`. */
export class OrganizationShippingLocations {
  constructor(private readonly transport: HttpTransport) {}

  create(
    internalOrgId: string,
    body: ShippingLocationCreateRequest,
    options: ChangeOptions = {},
  ): Promise<ShippingLocationResponse> {
    return this.transport.request<ShippingLocationResponse>({
      method: 'POST',
      path: `/v1/organizations/${segment(internalOrgId)}/shipping-locations`,
      credential: 'bearer',
      body,
      headers: idempotencyKeyOf(options),
      retryable: 'on-failure',
    });
  }

  update(
    internalOrgId: string,
    internalShippingLocationId: string,
    body: ShippingLocationUpdateRequest,
    options: ChangeOptions = {},
  ): Promise<ShippingLocationResponse> {
    return this.transport.request<ShippingLocationResponse>({
      method: 'PATCH',
      path: `/v1/organizations/${segment(internalOrgId)}/shipping-locations/${segment(internalShippingLocationId)}`,
      credential: 'bearer',
      body,
      headers: idempotencyKeyOf(options),
      retryable: 'on-failure',
    });
  }
}

/** `POST /v1/organizations/setup`, the organization's users and shipping locations after it, and its spend report. */
export class Organizations {
  readonly users: OrganizationUsers;
  readonly shippingLocations: OrganizationShippingLocations;

  constructor(private readonly transport: HttpTransport) {
    this.users = new OrganizationUsers(transport);
    this.shippingLocations = new OrganizationShippingLocations(transport);
  }

  setup(body: SetupRequest, options: SetupOptions = {}): Promise<SetupResponse> {
    return this.transport.request<SetupResponse>({
      method: 'POST',
      path: '/v1/organizations/setup',
      credential: 'bearer',
      body,
      headers: idempotencyKeyOf(options),
      retryable: 'on-failure',
    });
  }

  /** `GET /v1/organizations/{internalOrgId}`: its contact fields, payment terms and billing e-mail. */
  retrieve(internalOrgId: string): Promise<OrganizationResponse> {
    return this.transport.request<OrganizationResponse>({
      method: 'GET',
      path: `/v1/organizations/${segment(internalOrgId)}`,
      credential: 'bearer',
      retryable: 'on-failure',
    });
  }

  /** `PATCH /v1/organizations/{internalOrgId}`: any of its fields; its Stripe customer follows. */
  update(
    internalOrgId: string,
    body: OrganizationUpdateRequest,
    options: ChangeOptions = {},
  ): Promise<OrganizationResponse> {
    return this.transport.request<OrganizationResponse>({
      method: 'PATCH',
      path: `/v1/organizations/${segment(internalOrgId)}`,
      credential: 'bearer',
      body,
      headers: idempotencyKeyOf(options),
      retryable: 'on-failure',
    });
  }

  /** `GET /v1/organizations/{internalOrgId}/spend`: a month's totals (`YYYY-MM`; absent: the current month in the organization's zone). */
  spend(internalOrgId: string, params: { readonly month?: string } = {}): Promise<SpendReport> {
    return this.transport.request<SpendReport>({
      method: 'GET',
      path: `/v1/organizations/${segment(internalOrgId)}/spend`,
      query: { month: params.month },
      credential: 'bearer',
      retryable: 'on-failure',
    });
  }

  /** `GET /v1/organizations/{internalOrgId}/statement`: what the organization owes, its open invoices oldest first and what is overdue by age. */
  statement(internalOrgId: string): Promise<Statement> {
    return this.transport.request<Statement>({
      method: 'GET',
      path: `/v1/organizations/${segment(internalOrgId)}/statement`,
      credential: 'bearer',
      retryable: 'on-failure',
    });
  }
}
