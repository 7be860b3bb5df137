import { FormNotUtf8, FormTooLarge } from '../../domain/errors';
import type { HttpEvent } from '../../http/http-context';

/** The module's largest form (checkout, a search) is well under 1 KiB; 16 KiB leaves room and stops a flood. */
const MAX_FORM_BYTES = 16 * 1024;
/** The module's forms have at most a handful of fields. */
const MAX_FORM_FIELDS = 200;

/**
 * Strict, as the API's JSON bodies are: bytes that are not UTF-8 would otherwise be stored
 * as U+FFFD in a PO number or a rejection reason and signed into webhooks.
 */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A `%` not followed by two hex digits stays as it is (URLSearchParams' rule), so it is escaped before decoding. */
const STRAY_PERCENT = /%(?![0-9a-fA-F]{2})/g;

/** The body's text, refusing bytes (or, handed over as text, lone surrogates) that are not UTF-8. */
function utf8Text(event: HttpEvent & { body: string }, bytes: Buffer): string {
  if (!event.isBase64Encoded) {
    // With the u flag a surrogate pair is one code point: only a lone surrogate is \p{Cs}.
    if (/\p{Cs}/u.test(event.body)) throw new FormNotUtf8();
    return event.body;
  }
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new FormNotUtf8();
  }
}

/** A name or value as URLSearchParams reads it, except that percent-encoded bytes that are not UTF-8 are refused. */
function formComponent(raw: string): string {
  const text = raw.replaceAll('+', ' ');
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text.replace(STRAY_PERCENT, '%25'));
  } catch {
    throw new FormNotUtf8();
  }
}

/**
 * The fields of a form post (`application/x-www-form-urlencoded`, what the module's
 * forms send). A field given twice counts once (the first); anything else in the body
 * reads as no fields, and the action then refuses what is missing. A body over
 * `MAX_FORM_BYTES` (whatever its type) or over `MAX_FORM_FIELDS` fields is FormTooLarge;
 * a form whose bytes, raw or percent-encoded, are not UTF-8 is FormNotUtf8.
 */
export function readForm(event: HttpEvent): ReadonlyMap<string, string> {
  if (!event.body) return new Map();
  const bytes = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (bytes.length > MAX_FORM_BYTES) throw new FormTooLarge('bytes', MAX_FORM_BYTES);
  const type = (event.headers?.['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return new Map();
  const fields = new Map<string, string>();
  let count = 0;
  for (const pair of utf8Text({ ...event, body: event.body }, bytes).split('&')) {
    if (pair === '') continue;
    if ((count += 1) > MAX_FORM_FIELDS) throw new FormTooLarge('fields', MAX_FORM_FIELDS);
    const at = pair.indexOf('=');
    const name = formComponent(at === -1 ? pair : pair.slice(0, at));
    const value = at === -1 ? '' : formComponent(pair.slice(at + 1));
    if (!fields.has(name)) fields.set(name, value);
  }
  return fields;
}
