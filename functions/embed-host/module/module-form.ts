import type { ApiEvent } from '../../api/pipeline/api-context';

/**
 * The fields of a form post (`application/x-www-form-urlencoded`, what the module's
 * forms send). A field given twice counts once (the first); anything else in the body
 * reads as no fields, and the action then refuses what is missing.
 */
export function readForm(event: ApiEvent): ReadonlyMap<string, string> {
  const type = (event.headers?.['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (!event.body || type !== 'application/x-www-form-urlencoded') return new Map();
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) if (!fields.has(name)) fields.set(name, value);
  return fields;
}
