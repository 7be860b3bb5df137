/**
 * Which IP addresses a production webhook may connect to (docs/architecture.md, "Webhook URLs").
 * Everything that is not ordinary public unicast is refused, so a partner URL (or a DNS
 * answer that changes after the URL was checked) cannot reach our own network, the
 * instance metadata service or anything else behind the service.
 *
 * The ranges are ipaddr.js's `range()`, which follows the IANA IPv4 and IPv6
 * Special-Purpose Address Registries (and multicast): anything it does not call
 * `unicast` is refused. Two rules cover what the library does not: an IPv6 address
 * outside 2000::/3, the only block IANA allocates as global unicast, is reserved (this
 * catches IPv4-compatible `::a.b.c.d` and whatever IANA adds to ::/8 or 100::/8 before
 * the library does, e.g. the dummy prefix 100:0:0:1::/64 of RFC 9780); and an IPv6
 * address that reaches an IPv4 address (IPv4-mapped, IPv4-translated, the well-known
 * NAT64 prefix) is judged by that IPv4 address.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressClass = { readonly public: true } | { readonly public: false; readonly range: string };

/** ipaddr.js's range names, in words for operators; a name the library adds later is shown as it is. */
const IPV4_RANGE_NAMES: Readonly<Record<string, string>> = {
  unspecified: 'unspecified ("this network")',
  broadcast: 'limited broadcast (reserved)',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved (IETF protocol assignments, documentation, benchmarking, 6to4 relay or future use)',
  as112: 'AS112 DNS sink',
  amt: 'AMT relay anycast',
};

const IPV6_RANGE_NAMES: Readonly<Record<string, string>> = {
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'unique local',
  deprecatedSiteLocal: 'site-local (deprecated)',
  discard: 'discard-only',
  rfc6052: 'local-use NAT64',
  '6to4': '6to4 (deprecated)',
  teredo: 'Teredo (IETF protocol assignments)',
  benchmarking: 'benchmarking',
  amt: 'AMT relay anycast',
  as112v6: 'AS112 DNS sink',
  deprecatedOrchid: 'ORCHID (deprecated)',
  orchid2: 'ORCHIDv2',
  droneRemoteIdProtocolEntityTags: 'drone remote ID entity tags',
  segmentRouting: 'SRv6 SIDs (reserved)',
  reserved: 'reserved (IETF protocol assignments or documentation)',
};

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 address in the last 32 bits of an IPv6 one. */
const lastIpv4 = (ip: ipaddr.IPv6): string => {
  const [high, low] = ip.parts.slice(6) as [number, number];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
};

function classifyIpv4(ip: ipaddr.IPv4): AddressClass {
  const range = ip.range();
  return range === 'unicast' ? { public: true } : { public: false, range: IPV4_RANGE_NAMES[range] ?? range };
}

function classifyIpv6(ip: ipaddr.IPv6): AddressClass {
  const range = ip.range();
  // These reach the IPv4 address they carry: they are what it is.
  if (range === 'ipv4Mapped' || range === 'rfc6145' || (range === 'rfc6052' && ip.match(WELL_KNOWN_NAT64))) {
    const inner = classifyIpv4(ipaddr.IPv4.parse(lastIpv4(ip)));
    return inner.public ? inner : { public: false, range: `${inner.range} (IPv4 embedded in IPv6)` };
  }
  if (range === '6to4') {
    // 2002:AABB:CCDD::/48 tunnels to AA.BB.CC.DD: refused whatever it is, and said when that is not public.
    const [, high, low] = ip.parts as unknown as [number, number, number];
    const inner = classifyIpv4(ipaddr.IPv4.parse([high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')));
    return {
      public: false,
      range: `${IPV6_RANGE_NAMES['6to4']}${inner.public ? '' : `, tunnelling to a ${inner.range} IPv4 address`}`,
    };
  }
  if (range !== 'unicast') return { public: false, range: IPV6_RANGE_NAMES[range] ?? range };
  if (!ip.match(GLOBAL_UNICAST)) {
    return {
      public: false,
      range: ip.match(IPV4_COMPATIBLE)
        ? 'reserved (IPv4-compatible, deprecated)'
        : 'reserved (outside global unicast 2000::/3)',
    };
  }
  return { public: true };
}

/** Classifies one literal IP address; anything that is not an IP address is not public. */
export function classifyAddress(address: string): AddressClass {
  const ip = address.replace(/%.*$/, ''); // zone index of a link-local address
  // node:net decides what is an address (dotted quad only): ipaddr.js would also take `0x7f.1` and other legacy spellings.
  const version = isIP(ip);
  if (version === 4) return classifyIpv4(ipaddr.IPv4.parse(ip));
  // ipaddr.js reads a dotted tail as IPv4-mapped (`::127.0.0.1` as `::ffff:127.0.0.1`): it gets the WHATWG URL parser's hex form.
  if (version === 6) return classifyIpv6(ipaddr.IPv6.parse(new URL(`http://[${ip}]/`).hostname.slice(1, -1)));
  return { public: false, range: 'not an IP address' };
}
