/**
 * Schemas of option values shared by command groups. They reuse the domain's validation
 * building blocks, so a bad value reads the same as in an API error ("must be a UUID").
 */
import { z } from 'zod';
import type { ApiKeyId, PartnerId } from '../../functions/domain/partners/partner';
import { Scope, SCOPES } from '../../functions/domain/partners/partner';
import { requiredField } from '../../functions/domain/validation';

const commaSeparated = (raw: string): string[] =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Checked before any lookup, so a typo never reaches the store. Stored ids are lower case. */
export const PartnerIdOption = z.uuid({ error: requiredField }).transform((id) => id.toLowerCase() as PartnerId);

const KEY_ID = /^key_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const KeyIdOption = z
  .string({ error: requiredField })
  .trim()
  .toLowerCase()
  .refine((id) => KEY_ID.test(id), { message: 'must be a key id (key_<uuid>, as partner show lists them)', params: { code: 'INVALID_FORMAT' } })
  .transform((id) => id as ApiKeyId);

/** `organization:write,session:write`: at least one scope, each one of `SCOPES`. */
export const ScopesOption = z.string({ error: requiredField }).transform((raw, ctx) => {
  const names = commaSeparated(raw);
  const unknown = names.filter((name) => !Scope.safeParse(name).success);
  if (names.length === 0 || unknown.length > 0) {
    const got = unknown.length > 0 ? ` (not scopes: ${unknown.map((name) => JSON.stringify(name)).join(', ')})` : '';
    ctx.addIssue({ code: 'custom', message: `must list scopes from ${SCOPES.join(', ')}${got}`, params: { code: 'INVALID_VALUE' } });
    return z.NEVER;
  }
  return [...new Set(names)] as Scope[];
});

/**
 * `https://a.example,https://b.example:8443`: http(s) origins without path, query or
 * credentials, stored in their canonical form (`https://A.example:443/` is
 * `https://a.example`). An empty value clears the list: the environment default applies.
 */
export const OriginsOption = z.string({ error: requiredField }).transform((raw, ctx) => {
  const origins: string[] = [];
  for (const value of commaSeparated(raw)) {
    const origin = canonicalOrigin(value);
    if (origin) origins.push(origin);
    else
      ctx.addIssue({
        code: 'custom',
        message: `has ${JSON.stringify(value)}, which is not an http(s) origin (scheme://host[:port], no path)`,
        params: { code: 'INVALID_ORIGIN' },
      });
  }
  return [...new Set(origins)];
});

const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$|^\[[0-9a-f:.]+\]$/;

function canonicalOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
  // URL accepts hosts like `*.example`; an origin names one host (wildcards are CSP syntax, not origins).
  if (!HOSTNAME.test(url.hostname)) return undefined;
  // URL tidies `/./` and the like into `/`; only a bare trailing slash may follow the host.
  const afterHost = value.replace(/^[a-z]+:\/\/[^/?#]*/i, '');
  if (afterHost !== '' && afterHost !== '/') return undefined;
  return url.origin;
}
