import type { ApiKeyRecord, Partner } from '../../functions/domain/partners/partner';
import { optionalEmail, requiredText } from '../../functions/domain/validation';
import { fieldLines, NONE, tableLines } from './human-format';
import { type CommandTable, defineCommand } from './ops-command';
import { OriginsOption, partnerOption } from './option-schemas';

/** A partner as the CLI shows it: `partnerId`, as `partner create` prints and `--partner` takes. */
const partnerView = (partner: Partner) => ({
  partnerId: partner.id,
  name: partner.name,
  alertEmail: partner.alertEmail ?? null,
  allowedOrigins: [...partner.allowedOrigins],
  createdAt: partner.createdAt,
});

/** A key without its hash: enough to tell keys apart and act on one, nothing to authenticate with. */
const keyView = (key: ApiKeyRecord) => ({
  keyId: key.keyId,
  last4: key.last4,
  scopes: [...key.scopes],
  status: key.status,
  createdAt: key.createdAt,
  revokedAt: key.revokedAt ?? null,
});

const originsText = (origins: readonly string[]) =>
  origins.length > 0 ? origins.join(', ') : `${NONE} (the environment's default frame ancestors apply)`;

export const partnerCommands: CommandTable = {
  'partner create': defineCommand({
    summary: 'Create a partner and its first API key (all scopes); the key is printed once',
    options: {
      name: { schema: requiredText(), placeholder: 'NAME', description: "The partner's name" },
      'alert-email': { schema: optionalEmail(), placeholder: 'EMAIL', description: 'Where webhook failure alerts go' },
    },
    async run(deps, options) {
      const created = await deps.partnerAdmin.createPartner({ name: options.name, alertEmail: options['alert-email'] });
      const json = { partnerId: created.partnerId, apiKey: created.apiKey, keyId: created.keyId };
      return {
        json,
        text: [
          ...fieldLines([
            ['partnerId', json.partnerId],
            ['apiKey', json.apiKey],
            ['keyId', json.keyId],
          ]),
          'Store the API key now: it cannot be shown again.',
        ],
      };
    },
  }),

  'partner list': defineCommand({
    summary: 'List partners (no keys)',
    options: {},
    async run(deps) {
      const partners = (await deps.partners.listPartners()).map(partnerView);
      return {
        json: partners,
        text:
          partners.length === 0
            ? ['No partners.']
            : tableLines(
                ['PARTNER ID', 'NAME', 'ALERT EMAIL', 'ALLOWED ORIGINS', 'CREATED'],
                partners.map((p) => [
                  p.partnerId,
                  p.name,
                  p.alertEmail ?? NONE,
                  p.allowedOrigins.join(',') || NONE,
                  p.createdAt,
                ]),
              ),
      };
    },
  }),

  'partner show': defineCommand({
    summary: 'Show a partner and its API keys (never a key or its hash)',
    options: { partner: partnerOption },
    async run(deps, options) {
      const partner = partnerView(await deps.partnerAdmin.requirePartner(options.partner));
      const keys = (await deps.partners.listKeys(options.partner))
        .map(keyView)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
      return {
        json: { ...partner, keys },
        text: [
          ...fieldLines([
            ['partnerId', partner.partnerId],
            ['name', partner.name],
            ['alertEmail', partner.alertEmail ?? NONE],
            ['allowedOrigins', originsText(partner.allowedOrigins)],
            ['createdAt', partner.createdAt],
          ]),
          '',
          ...(keys.length === 0
            ? ['No API keys.']
            : tableLines(
                ['KEY ID', 'LAST4', 'SCOPES', 'STATUS', 'CREATED', 'REVOKED'],
                keys.map((k) => [k.keyId, k.last4, k.scopes.join(','), k.status, k.createdAt, k.revokedAt ?? NONE]),
              )),
        ],
      };
    },
  }),

  'partner set-origins': defineCommand({
    summary: "Replace the origins allowed to frame the embedded module ('' clears: the environment default applies)",
    options: {
      partner: partnerOption,
      origins: {
        schema: OriginsOption,
        placeholder: 'ORIGIN,...',
        description: 'Comma-separated http(s) origins, e.g. https://app.partner.example',
      },
    },
    async run(deps, options) {
      await deps.partners.setAllowedOrigins(options.partner, options.origins);
      return {
        json: { partnerId: options.partner, allowedOrigins: options.origins },
        text: fieldLines([
          ['partnerId', options.partner],
          ['allowedOrigins', originsText(options.origins)],
        ]),
      };
    },
  }),
};
