import type { PartnerId } from '../../../functions/domain/partners/partner';
import type { SigningSecrets, SigningSecretStore } from '../../../functions/webhooks/signing-secret-store';
import type {
  EndpointStatus,
  EndpointStatusChange,
  WebhookEndpoint,
  WebhookEndpointRepository,
} from '../../../functions/webhooks/webhook-endpoint';

/** WebhookEndpointRepository in a Map, with the DynamoDB adapter's conditions on status and the failing streak. */
export class InMemoryWebhookEndpoints implements WebhookEndpointRepository {
  readonly endpoints = new Map<PartnerId, WebhookEndpoint>();

  async get(partnerId: PartnerId) {
    return this.endpoints.get(partnerId);
  }

  async put(endpoint: WebhookEndpoint) {
    this.endpoints.set(endpoint.partnerId, endpoint);
  }

  async remove(partnerId: PartnerId) {
    return this.endpoints.delete(partnerId);
  }

  async changeStatus(partnerId: PartnerId, change: EndpointStatusChange, from: readonly EndpointStatus[]) {
    const current = this.endpoints.get(partnerId);
    if (!current || !from.includes(current.status)) return false;
    const { failingSince: _streak, statusReason: _reason, ...rest } = current;
    this.endpoints.set(partnerId, {
      ...rest,
      status: change.status,
      statusSince: change.since,
      updatedAt: change.since,
      ...(change.reason ? { statusReason: change.reason } : {}),
    });
    return true;
  }

  async markFailing(partnerId: PartnerId, since: Date) {
    const current = this.endpoints.get(partnerId);
    if (current && !current.failingSince) this.endpoints.set(partnerId, { ...current, failingSince: since.toISOString() });
  }

  async markHealthy(partnerId: PartnerId) {
    const current = this.endpoints.get(partnerId);
    if (!current?.failingSince) return;
    const { failingSince: _streak, ...rest } = current;
    this.endpoints.set(partnerId, rest);
  }
}

/** SigningSecretStore in a Map. */
export class InMemorySigningSecrets implements SigningSecretStore {
  readonly secrets = new Map<PartnerId, SigningSecrets>();

  async get(partnerId: PartnerId) {
    return this.secrets.get(partnerId);
  }

  async put(partnerId: PartnerId, secrets: SigningSecrets) {
    this.secrets.set(partnerId, secrets);
  }

  async remove(partnerId: PartnerId) {
    this.secrets.delete(partnerId);
  }
}
