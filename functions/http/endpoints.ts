import type { Scope } from '../domain/partners/partner';

/** How each partner API endpoint authenticates, what it may do and how fast (contract: Authentication, Limits). */
export interface ApiEndpoint {
  readonly name: 'setup' | 'handshake';
  /** The one header this endpoint reads the key from; the other one is a 401. */
  readonly credential: 'authorization-bearer' | 'x-api-key';
  readonly scope: Scope;
  readonly limitPerMinute: number;
  /**
   * The handler runs while the request is being counted and settles the count itself
   * before its first write (`ApiRequest.admitted`): its reads overlap the count instead of
   * following it. Otherwise the count is settled before the handler starts.
   */
  readonly countsConcurrently?: boolean;
}

export const SETUP_ENDPOINT: ApiEndpoint = {
  name: 'setup',
  credential: 'authorization-bearer',
  scope: 'organization:write',
  limitPerMinute: 100,
  countsConcurrently: true,
};

export const HANDSHAKE_ENDPOINT: ApiEndpoint = {
  name: 'handshake',
  credential: 'x-api-key',
  scope: 'session:write',
  limitPerMinute: 300,
  countsConcurrently: true,
};

/** Request bodies above this are refused before parsing (DESIGN.md: size limits). */
export const MAX_BODY_BYTES = 64 * 1024;
