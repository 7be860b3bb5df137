import type { Scope } from '../domain/partners/partner';

/** How each partner API endpoint authenticates, what it may do and how fast (contract: Authentication, Limits). */
export interface ApiEndpoint {
  readonly name: 'setup' | 'handshake';
  /** The one header this endpoint reads the key from; the other one is a 401. */
  readonly credential: 'authorization-bearer' | 'x-api-key';
  readonly scope: Scope;
  readonly limitPerMinute: number;
}

export const SETUP_ENDPOINT: ApiEndpoint = {
  name: 'setup',
  credential: 'authorization-bearer',
  scope: 'organization:write',
  limitPerMinute: 100,
};

export const HANDSHAKE_ENDPOINT: ApiEndpoint = {
  name: 'handshake',
  credential: 'x-api-key',
  scope: 'session:write',
  limitPerMinute: 300,
};

/** Request bodies above this are refused before parsing (DESIGN.md: size limits). */
export const MAX_BODY_BYTES = 64 * 1024;
