/**
 * Whether an origin is one of the partner's frame-ancestors sources, read as CSP reads
 * them (the embed host emits only `'self'` and `scheme://host[:port]`, where the host
 * may start with `*.` and the port may be `*`). The module bridge answers a hello only
 * from such an origin, and the embed host's frame check uses the same rule, so both
 * agree with what the browser's frame-ancestors check allows.
 */
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

function matchesSource(origin: URL, source: string, selfOrigin: string): boolean {
  if (source === "'self'") return origin.origin === selfOrigin;
  const parsed = /^(https?:)\/\/(\*\.)?([^:/]+)(?::(\d+|\*))?$/.exec(source);
  if (!parsed) return false;
  const [, scheme, wildcard, host, port] = parsed;
  // CSP lets an http: source match the same host over https, never the other way round.
  if (!(origin.protocol === scheme || (scheme === 'http:' && origin.protocol === 'https:'))) return false;
  const hostname = origin.hostname.toLowerCase();
  const wanted = (host as string).toLowerCase();
  if (wildcard ? !hostname.endsWith(`.${wanted}`) : hostname !== wanted) return false;
  if (port === '*') return true;
  const originPort = origin.port || DEFAULT_PORTS[origin.protocol];
  return (
    originPort === (port ?? DEFAULT_PORTS[scheme as string]) ||
    (!port && scheme === 'http:' && origin.protocol === 'https:' && originPort === '443')
  );
}

export function isAllowedFrameOrigin(origin: string, sources: readonly string[], selfOrigin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  // "null" (sandboxed, file:) and anything but an exact origin string never matches.
  if (parsed.origin !== origin) return false;
  return sources.some((source) => matchesSource(parsed, source, selfOrigin));
}
