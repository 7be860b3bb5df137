/**
 * Setup's billing fields and GET / PATCH /v1/organizations/{internalOrgId} on the local
 * stack: the partner reads and changes an organization's contact, billing e-mail and
 * payment terms, and its Stripe customer follows, never duplicated.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { FaultyPayments } from '../support/fault-injection';
import { stripeStandIn } from '../support/inspect';
import { aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
const payments = new FaultyPayments();
beforeAll(async () => {
  stack = await startTestStack({ payments });
  partner = await stack.createPartner();
});
afterAll(() => stack.close());
afterEach(() => payments.reset());

const bearer = (apiKey = partner.apiKey) => ({ Authorization: `Bearer ${apiKey}` });
let counter = 0;

/** An organization set up through the API with `fields` at the organization level. */
async function anOrganization(fields: Record<string, unknown> = {}) {
  counter += 1;
  const internalOrgId = `org-billing-${counter}`;
  const body = aSetupRequest()
    .with({ internalOrgId, organizationEmail: 'office@practice.test', ...fields })
    .build();
  const res = await stack.post('/v1/organizations/setup', body, bearer());
  expect(res.status, res.text).toBe(200);
  return { path: `/v1/organizations/${internalOrgId}`, setup: res.body.data.organization };
}

describe('setup with billing settings', () => {
  it('defaults to net30 and invoices at the organization e-mail', async () => {
    const { path, setup } = await anOrganization();
    expect(setup.paymentTerms).toBe('net30');
    const res = await stack.get(path, bearer());
    expect(res.status).toBe(200);
    expect(res.body.data.organization).toMatchObject({
      paymentTerms: 'net30',
      billingEmail: 'office@practice.test',
      paymentCustomerId: setup.paymentCustomerId,
    });
    const customer = await stripeStandIn().customers.retrieve(setup.paymentCustomerId);
    expect(customer).toMatchObject({ email: 'office@practice.test' });
  });

  it('takes net60 and a billing e-mail, which becomes the Stripe customer e-mail', async () => {
    const { setup } = await anOrganization({ paymentTerms: 'net60', billingEmail: 'ap@practice.test' });
    expect(setup.paymentTerms).toBe('net60');
    const customer = await stripeStandIn().customers.retrieve(setup.paymentCustomerId);
    expect(customer).toMatchObject({ email: 'ap@practice.test' });
  });

  it('refuses an unknown term and a malformed billing e-mail with 400 VALIDATION_ERROR, creating nothing', async () => {
    const body = aSetupRequest()
      .with({ internalOrgId: 'org-billing-bad', paymentTerms: 'net45', billingEmail: 'x' })
      .build();
    const res = await stack.post('/v1/organizations/setup', body, bearer());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string[] }) => d.path.join('.')).sort()).toEqual([
      'billingEmail',
      'paymentTerms',
    ]);
    expect((await stack.get('/v1/organizations/org-billing-bad', bearer())).status).toBe(404);
  });
});

describe('taxExempt', () => {
  it('is false unless setup says otherwise, is read back, and is the Stripe customer tax_exempt, on setup and PATCH', async () => {
    const plain = await anOrganization();
    expect((await stack.get(plain.path, bearer())).body.data.organization.taxExempt).toBe(false);
    expect(await stripeStandIn().customers.retrieve(plain.setup.paymentCustomerId)).toMatchObject({
      tax_exempt: 'none',
    });

    const exempt = await anOrganization({ taxExempt: true });
    expect((await stack.get(exempt.path, bearer())).body.data.organization.taxExempt).toBe(true);
    expect(await stripeStandIn().customers.retrieve(exempt.setup.paymentCustomerId)).toMatchObject({
      tax_exempt: 'exempt',
    });

    const patched = await stack.patch(exempt.path, { taxExempt: false }, bearer());
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.organization.taxExempt).toBe(false);
    expect(await stripeStandIn().customers.retrieve(exempt.setup.paymentCustomerId)).toMatchObject({
      tax_exempt: 'none',
    });
  });

  it('refuses a taxExempt that is not a boolean with 400 VALIDATION_ERROR and changes nothing', async () => {
    const { path } = await anOrganization({ taxExempt: true });
    const res = await stack.patch(path, { taxExempt: 'no' }, bearer());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ path: ['taxExempt'] })],
    });
    expect((await stack.get(path, bearer())).body.data.organization.taxExempt).toBe(true);
  });
});

describe('PATCH an organization', () => {
  it('changes only the fields sent, updates the same Stripe customer and keeps paymentCustomerId', async () => {
    const { path, setup } = await anOrganization({ organizationPhone: '+1 503 555 0100' });
    const res = await stack.patch(
      path,
      { paymentTerms: 'net15', billingEmail: 'ap@practice.test', organizationName: 'Smile Dental Group' },
      bearer(),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.organization).toMatchObject({
      name: 'Smile Dental Group',
      paymentTerms: 'net15',
      billingEmail: 'ap@practice.test',
      organizationEmail: 'office@practice.test',
      organizationPhone: '+1 503 555 0100',
      paymentCustomerId: setup.paymentCustomerId,
    });
    expect((await stack.get(path, bearer())).body).toEqual(res.body);
    const customer = await stripeStandIn().customers.retrieve(setup.paymentCustomerId);
    expect(customer).toMatchObject({ name: 'Smile Dental Group', email: 'ap@practice.test' });
    const sameOwner = await stripeStandIn().customers.list({ email: 'ap@practice.test', limit: 100 });
    expect(sameOwner.data.filter((c) => c.metadata.internalOrgId === setup.internalOrgId)).toHaveLength(1);
  });

  it('removes the billing e-mail with null, so invoices go to the organization e-mail again', async () => {
    const { path, setup } = await anOrganization({ billingEmail: 'ap@practice.test' });
    const res = await stack.patch(path, { billingEmail: null }, bearer());
    expect(res.body.data.organization.billingEmail).toBe('office@practice.test');
    const customer = await stripeStandIn().customers.retrieve(setup.paymentCustomerId);
    expect(customer).toMatchObject({ email: 'office@practice.test' });
  });

  it('replays the first answer for the same Idempotency-Key', async () => {
    const { path } = await anOrganization();
    const headers = { ...bearer(), 'Idempotency-Key': 'org-patch-1' };
    const first = await stack.patch(path, { paymentTerms: 'net60' }, headers);
    await stack.patch(path, { paymentTerms: 'net15' }, bearer());
    const replay = await stack.patch(path, { paymentTerms: 'net60' }, headers);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it("refuses another partner's organization with 404 and changes nothing", async () => {
    const { path } = await anOrganization();
    const other = await stack.createPartner();
    const res = await stack.patch(path, { paymentTerms: 'net15' }, bearer(other.apiKey));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ORGANIZATION_NOT_FOUND');
    expect((await stack.get(path, bearer())).body.data.organization.paymentTerms).toBe('net30');
  });

  it('refuses an unknown term with 400 VALIDATION_ERROR and changes nothing', async () => {
    const { path } = await anOrganization();
    const res = await stack.patch(path, { paymentTerms: 'monthly' }, bearer());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: ['paymentTerms'] }] });
    expect((await stack.get(path, bearer())).body.data.organization.paymentTerms).toBe('net30');
  });

  describe('when Stripe does not take the customer update, neither changes', () => {
    const STRIPE_UNAVAILABLE = {
      error: 'Service Unavailable',
      message: 'Stripe did not take the new customer details, so nothing was changed; retry with exponential backoff',
      code: 'STRIPE_UNAVAILABLE',
      details: [],
    };

    it('answers 503 STRIPE_UNAVAILABLE, keeps both as they were, and the same key runs the change again', async () => {
      const { path, setup } = await anOrganization();
      const headers = { ...bearer(), 'Idempotency-Key': 'org-patch-stripe-down' };
      payments.failNextCall();

      const failed = await stack.patch(path, { billingEmail: 'ap@practice.test', paymentTerms: 'net60' }, headers);

      expect(failed.status).toBe(503);
      expect(failed.headers.get('retry-after')).toBe('5');
      expect(failed.body).toEqual(STRIPE_UNAVAILABLE);
      expect((await stack.get(path, bearer())).body.data.organization).toMatchObject({
        paymentTerms: 'net30',
        billingEmail: 'office@practice.test',
      });
      expect(await stripeStandIn().customers.retrieve(setup.paymentCustomerId)).toMatchObject({
        email: 'office@practice.test',
      });

      const retried = await stack.patch(path, { billingEmail: 'ap@practice.test', paymentTerms: 'net60' }, headers);
      expect(retried.status).toBe(200);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect(retried.body.data.organization).toMatchObject({ paymentTerms: 'net60', billingEmail: 'ap@practice.test' });
      const replay = await stack.patch(path, { billingEmail: 'ap@practice.test', paymentTerms: 'net60' }, headers);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(retried.body);
    });

    it("puts Stripe's customer back when Stripe took the details but its answer was lost", async () => {
      const { path, setup } = await anOrganization();
      payments.loseNextAnswer();

      const failed = await stack.patch(path, { organizationName: 'Renamed Dental' }, bearer());

      expect(failed.status).toBe(503);
      expect(failed.body.code).toBe('STRIPE_UNAVAILABLE');
      expect((await stack.get(path, bearer())).body.data.organization.name).toBe(setup.name);
      expect(await stripeStandIn().customers.retrieve(setup.paymentCustomerId)).toMatchObject({ name: setup.name });
    });
  });
});
