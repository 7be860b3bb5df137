/**
 * Which IP addresses a production webhook may connect to (DESIGN.md: webhook URLs).
 * Everything that is not ordinary public unicast is refused, so a partner URL (or a DNS
 * answer that changes after the URL was checked) cannot reach our own network, the
 * instance metadata service or anything else behind the service.
 */
import { BlockList, isIP } from 'node:net';

interface NonPublicRange {
  readonly cidr: string;
  readonly name: string;
}

const IPV4_RANGES: readonly NonPublicRange[] = [
  { cidr: '0.0.0.0/8', name: 'unspecified ("this network")' },
  { cidr: '10.0.0.0/8', name: 'private' },
  { cidr: '100.64.0.0/10', name: 'carrier-grade NAT' },
  { cidr: '127.0.0.0/8', name: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'link-local' },
  { cidr: '172.16.0.0/12', name: 'private' },
  { cidr: '192.0.0.0/24', name: 'IETF protocol assignments' },
  { cidr: '192.0.2.0/24', name: 'documentation' },
  { cidr: '192.88.99.0/24', name: 'reserved (6to4 relay)' },
  { cidr: '192.168.0.0/16', name: 'private' },
  { cidr: '198.18.0.0/15', name: 'benchmarking' },
  { cidr: '198.51.100.0/24', name: 'documentation' },
  { cidr: '203.0.113.0/24', name: 'documentation' },
  { cidr: '224.0.0.0/4', name: 'multicast' },
  { cidr: '240.0.0.0/4', name: 'reserved' },
];

const IPV6_RANGES: readonly NonPublicRange[] = [
  { cidr: '::/128', name: 'unspecified' },
  { cidr: '::1/128', name: 'loopback' },
  // IPv4-compatible (deprecated) addresses; IPv4-mapped ones are classified by their IPv4 part.
  { cidr: '::/96', name: 'reserved (IPv4-compatible)' },
  { cidr: '64:ff9b:1::/48', name: 'local-use NAT64' },
  { cidr: '100::/64', name: 'discard-only' },
  { cidr: '2001::/23', name: 'IETF protocol assignments' },
  { cidr: '2001:db8::/32', name: 'documentation' },
  { cidr: '2002::/16', name: 'reserved (6to4)' },
  { cidr: '3fff::/20', name: 'documentation' },
  { cidr: '5f00::/16', name: 'reserved (SRv6)' },
  { cidr: 'fc00::/7', name: 'unique local' },
  { cidr: 'fe80::/10', name: 'link-local' },
  { cidr: 'fec0::/10', name: 'site-local (deprecated)' },
  { cidr: 'ff00::/8', name: 'multicast' },
];

const toBlockList = (ranges: readonly NonPublicRange[], type: 'ipv4' | 'ipv6') =>
  ranges.map((range) => {
    const [network, prefix] = range.cidr.split('/') as [string, string];
    const list = new BlockList();
    list.addSubnet(network, Number(prefix), type);
    return { list, name: range.name };
  });

const IPV4_LISTS = toBlockList(IPV4_RANGES, 'ipv4');
const IPV6_LISTS = toBlockList(IPV6_RANGES, 'ipv6');

export type AddressClass = { readonly public: true } | { readonly public: false; readonly range: string };

/**
 * IPv6 addresses that carry an IPv4 address in their last 32 bits and reach it:
 * IPv4-mapped (::ffff:0:0/96) and the well-known NAT64 prefix (64:ff9b::/96).
 * The WHATWG URL parser gives the canonical (compressed, lowercase, hex) form first.
 */
function embeddedIpv4(ipv6: string): string | undefined {
  const canonical = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
  const match = /^(?:::ffff|64:ff9b:):(?:([0-9a-f]{1,4}):)?([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return undefined;
  const high = parseInt(match[1] ?? '0', 16);
  const low = parseInt(match[2] as string, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Classifies one literal IP address; anything that is not an IP address is not public. */
export function classifyAddress(address: string): AddressClass {
  const ip = address.replace(/%.*$/, ''); // zone index of a link-local address
  const version = isIP(ip);
  if (version === 4) {
    const hit = IPV4_LISTS.find(({ list }) => list.check(ip, 'ipv4'));
    return hit ? { public: false, range: hit.name } : { public: true };
  }
  if (version === 6) {
    const mapped = embeddedIpv4(ip);
    if (mapped !== undefined) {
      const inner = classifyAddress(mapped);
      return inner.public ? inner : { public: false, range: `${inner.range} (IPv4 embedded in IPv6)` };
    }
    const hit = IPV6_LISTS.find(({ list }) => list.check(ip, 'ipv6'));
    return hit ? { public: false, range: hit.name } : { public: true };
  }
  return { public: false, range: 'not an IP address' };
}
