/** The embed host's refusals of a browser: its link or session, a forged or oversized form. */
import { DomainError } from './domain-error';

/**
 * The embed host refuses the browser: a handshake link that is used, expired, unknown or
 * for another partner (`link`), a missing, ended, expired or other partner's session
 * cookie (`session`), or a state-changing request from another site (`foreign-origin`).
 * The browser is never told which.
 */
export class EmbedAccessDenied extends DomainError {
  override readonly name = 'EmbedAccessDenied';
  constructor(
    readonly refused: 'link' | 'session' | 'foreign-origin',
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * A state-changing request of the embedded module that may not come from the module's
 * own pages: from another site (`foreign-origin`), or without the session's form token
 * (`missing-token`) or with another one (`wrong-token`). Nothing is changed.
 */
export class RequestForgeryRefused extends DomainError {
  override readonly name = 'RequestForgeryRefused';
  constructor(readonly refused: 'foreign-origin' | 'missing-token' | 'wrong-token') {
    super(`form post refused: ${refused}`);
  }
}

/**
 * A form post of the embedded module larger than any of its forms: more than `maxBytes`
 * bytes of body or `maxFields` fields. Refused before it is parsed further; nothing is changed.
 */
export class FormTooLarge extends DomainError {
  override readonly name = 'FormTooLarge';
  constructor(
    readonly exceeded: 'bytes' | 'fields',
    readonly limit: number,
  ) {
    super(`form post refused: more than ${limit} ${exceeded}`);
  }
}

/** A module form post whose bytes, raw or percent-encoded, are not UTF-8 (the API refuses the same as INVALID_UTF8). */
export class FormNotUtf8 extends DomainError {
  override readonly name = 'FormNotUtf8';
  constructor() {
    super('form post refused: not UTF-8');
  }
}
