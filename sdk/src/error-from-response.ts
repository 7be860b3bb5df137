import {
  type ErrorDetail,
  PartnerApiError,
  PartnerAuthenticationError,
  PartnerConflictError,
  type PartnerError,
  type PartnerErrorFields,
  PartnerInvalidRequestError,
  PartnerNotFoundError,
  PartnerPermissionError,
  PartnerRateLimitError,
} from './errors.js';

type Body = Record<string, unknown>;

const isDetail = (value: unknown): value is ErrorDetail =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Body).code === 'string' &&
  typeof (value as Body).message === 'string';

/**
 * The typed error for an error response. Two body shapes arrive: the general one
 * (`{ error, message, code, details[] }`) and the handshake's own (`{ error, details }`,
 * `details` a list or a sentence); both become the same fields.
 */
export function errorFromResponse(status: number, headers: Headers, body: unknown): PartnerError {
  const fields = body !== null && typeof body === 'object' ? (body as Body) : {};
  const details = Array.isArray(fields.details) ? fields.details.filter(isDetail) : [];
  const sentence = typeof fields.details === 'string' ? fields.details : undefined;
  const title = typeof fields.error === 'string' ? fields.error : undefined;
  const message =
    (typeof fields.message === 'string' ? fields.message : undefined) ??
    (title && sentence ? `${title}: ${sentence}` : undefined) ??
    (title && details[0] ? `${title}: ${details.map((detail) => detail.message).join('; ')}` : title) ??
    `HTTP ${status}`;
  const common: PartnerErrorFields = {
    message,
    status,
    ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
    ...(headers.get('request-id') ? { requestId: headers.get('request-id') as string } : {}),
    details,
    body,
    headers,
  };
  switch (status) {
    case 400:
      return new PartnerInvalidRequestError(common);
    case 401:
      return new PartnerAuthenticationError(common);
    case 403:
      return new PartnerPermissionError(common);
    case 404:
      return new PartnerNotFoundError(common);
    case 409:
      return new PartnerConflictError(common);
    case 429:
      return new PartnerRateLimitError({ ...common, ...retryAfter(fields, headers) });
    default:
      return new PartnerApiError(common);
  }
}

function retryAfter(body: Body, headers: Headers): { retryAfterSeconds?: number } {
  const fromBody = typeof body.retry_after === 'number' ? body.retry_after : undefined;
  const fromHeader = Number(headers.get('retry-after') ?? Number.NaN);
  const seconds = fromBody ?? (Number.isFinite(fromHeader) ? fromHeader : undefined);
  return seconds === undefined ? {} : { retryAfterSeconds: seconds };
}
