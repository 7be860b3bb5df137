import { FormTooLarge } from '../../domain/errors';
import type { HttpEvent } from '../../http/http-context';

/** The module's largest form (checkout, a search) is well under 1 KiB; 16 KiB leaves room and stops a flood. */
const MAX_FORM_BYTES = 16 * 1024;
/** The module's forms have at most a handful of fields. */
const MAX_FORM_FIELDS = 200;

/**
 * The fields of a form post (`application/x-www-form-urlencoded`, what the module's
 * forms send). A field given twice counts once (the first); anything else in the body
 * reads as no fields, and the action then refuses what is missing. A body over
 * `MAX_FORM_BYTES` (whatever its type) or over `MAX_FORM_FIELDS` fields is FormTooLarge.
 */
export function readForm(event: HttpEvent): ReadonlyMap<string, string> {
  if (!event.body) return new Map();
  const bytes = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (bytes.length > MAX_FORM_BYTES) throw new FormTooLarge('bytes', MAX_FORM_BYTES);
  const type = (event.headers?.['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return new Map();
  const fields = new Map<string, string>();
  let count = 0;
  for (const [name, value] of new URLSearchParams(bytes.toString('utf8'))) {
    if ((count += 1) > MAX_FORM_FIELDS) throw new FormTooLarge('fields', MAX_FORM_FIELDS);
    if (!fields.has(name)) fields.set(name, value);
  }
  return fields;
}
