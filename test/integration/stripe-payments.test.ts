import { randomUUID } from 'node:crypto';
import { LOCAL_STRIPE_SECRET_KEY } from '../../functions/resources/function-environment';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, inject, it } from 'vitest';
import { stripeClientSource } from '../../functions/adapters/stripe-client';
import { StripePayments } from '../../functions/adapters/stripe-payments';
import { paymentCustomerIdempotencyKey } from '../../functions/domain/payments/payment-provider';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { stripeStandIn } from '../support/inspect';

const { endpoints, stripeApiBase } = inject('standIns');

/** A Secrets Manager client on the stand-in that counts GetSecretValue calls. */
function countingSecretsClient() {
  const client = new SecretsManagerClient({
    endpoint: endpoints.secretsManager,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const counter = { reads: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'GetSecretValueCommand') counter.reads += 1;
      return next(args);
    },
    { step: 'initialize' },
  );
  return { client, counter };
}

const owner = () => ({ partnerId: randomUUID() as PartnerId, stage: 'sandbox', internalOrgId: 'org-1' });

describe('Stripe client configuration', () => {
  it('reads the secret key from Secrets Manager once per cold start when no key is given', async () => {
    const { client, counter } = countingSecretsClient();
    const name = `t-${randomUUID().slice(0, 8)}/stripe-secret-key`;
    await client.send(new CreateSecretCommand({ Name: name, SecretString: 'sk_test_from_secrets_manager\n' }));
    const source = stripeClientSource({ STRIPE_SECRET_NAME: name, STRIPE_API_BASE: stripeApiBase }, client);

    const payments = new StripePayments(source);
    const ids = await Promise.all(
      [1, 2, 3].map(() =>
        payments.ensureCustomer({
          idempotencyKey: randomUUID(),
          owner: owner(),
          details: { name: 'Acme', taxExempt: false },
        }),
      ),
    );
    await source();

    expect(ids.every((id) => id.startsWith('cus_'))).toBe(true);
    expect(counter.reads).toBe(1);
  });

  it('tries Secrets Manager again after a failed read instead of failing the whole cold start', async () => {
    const { client, counter } = countingSecretsClient();
    const name = `t-${randomUUID().slice(0, 8)}/stripe-secret-key`;
    const source = stripeClientSource({ STRIPE_SECRET_NAME: name, STRIPE_API_BASE: stripeApiBase }, client);

    await expect(source()).rejects.toThrow();
    await client.send(new CreateSecretCommand({ Name: name, SecretString: 'sk_test_created_later' }));
    await expect(source()).resolves.toBeDefined();
    expect(counter.reads).toBe(2);
  });

  it('refuses to build a client when neither a key nor a secret name is configured', async () => {
    const { client } = countingSecretsClient();
    await expect(stripeClientSource({ STRIPE_SECRET_NAME: '' }, client)()).rejects.toThrow(
      /STRIPE_SECRET_KEY|STRIPE_SECRET_NAME/,
    );
  });
});

describe('StripePayments', () => {
  const payments = new StripePayments(
    stripeClientSource(
      { STRIPE_SECRET_KEY: LOCAL_STRIPE_SECRET_KEY, STRIPE_API_BASE: stripeApiBase, STRIPE_SECRET_NAME: '' },
      countingSecretsClient().client,
    ),
  );

  it('returns the same customer for the same key even when the details changed, and the latest details win', async () => {
    const who = owner();
    const idempotencyKey = paymentCustomerIdempotencyKey(who);
    const first = await payments.ensureCustomer({
      idempotencyKey,
      owner: who,
      details: { name: 'Old Name', email: 'old@acme.example.com', phone: '555-0100', taxExempt: false },
    });
    const second = await payments.ensureCustomer({
      idempotencyKey,
      owner: who,
      details: { name: 'New Name', taxExempt: true },
    });

    expect(second).toBe(first);
    const customer = await stripeStandIn().customers.retrieve(first);
    // The organization's exemption is the customer's `tax_exempt`, which Stripe's invoices and reports show.
    expect(customer).toMatchObject({ name: 'New Name', tax_exempt: 'exempt' });
    // Cleared fields: Stripe answers null, the stand-in keeps the empty string.
    const { email, phone, address } = customer as { email: string | null; phone: string | null; address: unknown };
    expect([email || null, phone || null, address || null]).toEqual([null, null, null]);
  });

  it("derives distinct keys per partner, environment and organization, within Stripe's 255 characters", () => {
    const base = { partnerId: 'p' as PartnerId, stage: 'sandbox', internalOrgId: 'o'.repeat(256) };
    const keys = [
      base,
      { ...base, stage: 'production' },
      { ...base, partnerId: 'q' as PartnerId },
      { ...base, internalOrgId: 'x' },
    ].map(paymentCustomerIdempotencyKey);
    expect(new Set(keys).size).toBe(4);
    expect(keys.every((key) => key.length <= 255)).toBe(true);
    expect(paymentCustomerIdempotencyKey(base)).toBe(paymentCustomerIdempotencyKey({ ...base }));
  });
});
