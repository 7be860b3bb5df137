import { SCOPES } from '../../functions/domain/partners/partner';
import { fieldLines } from './human-format';
import { type CommandTable, defineCommand } from './ops-command';
import { KeyIdOption, partnerOption, ScopesOption } from './option-schemas';

const keyOption = {
  schema: KeyIdOption,
  placeholder: 'KEY_ID',
  description: 'Key id (key_<uuid>), as partner show lists',
} as const;

const issuedKeyText = (issued: { apiKey: string; keyId: string }, note: string) => [
  ...fieldLines([
    ['apiKey', issued.apiKey],
    ['keyId', issued.keyId],
  ]),
  note,
];

export const keyCommands: CommandTable = {
  'key issue': defineCommand({
    summary: 'Issue an additional API key for a partner; the key is printed once',
    options: {
      partner: partnerOption,
      scopes: {
        schema: ScopesOption.optional(),
        placeholder: 'SCOPE,...',
        description: `Comma-separated scopes (default: all, ${SCOPES.join(',')})`,
      },
    },
    async run(deps, options) {
      const issued = await deps.partnerAdmin.issueKey(options.partner, options.scopes);
      const json = { apiKey: issued.apiKey, keyId: issued.keyId };
      return { json, text: issuedKeyText(json, 'Store the API key now: it cannot be shown again.') };
    },
  }),

  'key rotate': defineCommand({
    summary: 'Replace an active key with a new one of the same scopes; the old key stops working at once',
    options: { partner: partnerOption, key: keyOption },
    async run(deps, options) {
      await deps.partnerAdmin.requirePartner(options.partner);
      const issued = await deps.partnerAdmin.rotateKey(options.partner, options.key);
      const json = { apiKey: issued.apiKey, keyId: issued.keyId };
      return {
        json,
        text: issuedKeyText(
          json,
          `Key ${options.key} is revoked. Store the new API key now: it cannot be shown again.`,
        ),
      };
    },
  }),

  'key revoke': defineCommand({
    summary: 'Revoke an active key; it stops working at once',
    options: { partner: partnerOption, key: keyOption },
    async run(deps, options) {
      await deps.partnerAdmin.requirePartner(options.partner);
      await deps.partnerAdmin.revokeKey(options.partner, options.key);
      const json = { partnerId: options.partner, keyId: options.key, status: 'revoked' as const };
      return {
        json,
        text: fieldLines([
          ['partnerId', json.partnerId],
          ['keyId', json.keyId],
          ['status', json.status],
        ]),
      };
    },
  }),
};
