import { randomUUID } from 'node:crypto';

type Json = Record<string, any>;

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export const anAddress = (overrides: Json = {}): Json => ({
  line1: '100 Congress Ave',
  city: 'Austin',
  province: 'TX',
  postalCode: '78701',
  ...overrides,
});

export const aLocation = (internalShippingLocationId: string, overrides: Json = {}): Json => ({
  internalShippingLocationId,
  name: `Location ${internalShippingLocationId}`,
  address: anAddress(),
  ...overrides,
});

/** Builds setup request bodies: valid by default, with unique ids so tests never collide. */
export class SetupRequestBuilder {
  private body: Json;

  constructor() {
    this.body = {
      internalOrgId: unique('org'),
      organizationName: 'Acme Dental',
      internalUserId: unique('user'),
      user: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme.example.com' },
    };
  }

  forOrg(internalOrgId: string, organizationName = this.body.organizationName): this {
    this.body = { ...this.body, internalOrgId, organizationName };
    return this;
  }

  forUser(internalUserId: string, user: Json = {}): this {
    this.body = { ...this.body, internalUserId, user: { ...this.body.user, ...user } };
    return this;
  }

  withLocations(...locations: Json[]): this {
    this.body = { ...this.body, shippingLocations: locations };
    return this;
  }

  with(fields: Json): this {
    this.body = { ...this.body, ...fields };
    return this;
  }

  build(): Json {
    return structuredClone(this.body);
  }
}

export const aSetupRequest = () => new SetupRequestBuilder();
