/**
 * A frame-ancestors source we are willing to emit: a scheme-qualified host (wildcards
 * allowed) with an optional port, or 'self'. Anything else (spaces, `;`, quotes) could
 * rewrite the policy, so it is dropped.
 */
const SOURCE = /^(?:'self'|https?:\/\/(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::(?:\d{1,5}|\*))?)$/;

/** The partner's stored origins that are well-formed sources: what the CSP, the bridge and the frame check all use. */
export const frameAncestorSources = (frameAncestors: readonly string[]): string[] =>
  frameAncestors.filter((source) => SOURCE.test(source));
