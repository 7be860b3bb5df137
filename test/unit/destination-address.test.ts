import { lookup } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../functions/webhooks/destination-address';
import { publicOnlyLookup } from '../../functions/adapters/webhook-http/public-only-lookup';
import { checkWebhookUrl } from '../../functions/webhooks/webhook-url';

/**
 * One address in every entry of the IANA IPv4 and IPv6 Special-Purpose Address
 * Registries (and multicast, and the IPv6 space outside global unicast), with the range
 * it must be refused as. Each is refused three times: classified, as a literal in a
 * production webhook URL, and by the dispatcher's connect-time lookup.
 */
const IANA_SPECIAL_PURPOSE: readonly [registryEntry: string, address: string, range: RegExp][] = [
  ['0.0.0.0/8 "this network"', '0.1.2.3', /unspecified/],
  ['0.0.0.0/32 "this host"', '0.0.0.0', /unspecified/],
  ['10.0.0.0/8 private-use', '10.20.30.40', /private/],
  ['100.64.0.0/10 shared address space', '100.100.0.1', /carrier-grade NAT/],
  ['127.0.0.0/8 loopback', '127.0.0.1', /loopback/],
  ['169.254.0.0/16 link local', '169.254.169.254', /link-local/],
  ['172.16.0.0/12 private-use', '172.20.0.1', /private/],
  ['192.0.0.0/24 IETF protocol assignments', '192.0.0.200', /IETF protocol assignments/],
  ['192.0.0.0/29 DS-Lite', '192.0.0.1', /IETF protocol assignments/],
  ['192.0.0.8/32 IPv4 dummy address', '192.0.0.8', /IETF protocol assignments/],
  ['192.0.0.9/32 PCP anycast', '192.0.0.9', /IETF protocol assignments/],
  ['192.0.0.10/32 TURN anycast', '192.0.0.10', /IETF protocol assignments/],
  ['192.0.0.170/32 NAT64/DNS64 discovery', '192.0.0.170', /IETF protocol assignments/],
  ['192.0.0.171/32 NAT64/DNS64 discovery', '192.0.0.171', /IETF protocol assignments/],
  ['192.0.2.0/24 documentation (TEST-NET-1)', '192.0.2.1', /documentation/],
  ['192.31.196.0/24 AS112-v4', '192.31.196.1', /AS112/],
  ['192.52.193.0/24 AMT', '192.52.193.1', /AMT/],
  ['192.88.99.0/24 deprecated 6to4 relay anycast', '192.88.99.1', /6to4 relay/],
  ['192.88.99.2/32 6a44-relay anycast', '192.88.99.2', /6to4 relay/],
  ['192.168.0.0/16 private-use', '192.168.1.1', /private/],
  ['192.175.48.0/24 direct delegation AS112 service', '192.175.48.1', /AS112/],
  ['198.18.0.0/15 benchmarking', '198.19.255.255', /benchmarking/],
  ['198.51.100.0/24 documentation (TEST-NET-2)', '198.51.100.7', /documentation/],
  ['203.0.113.0/24 documentation (TEST-NET-3)', '203.0.113.9', /documentation/],
  ['240.0.0.0/4 reserved', '240.0.0.1', /future use/],
  ['255.255.255.255/32 limited broadcast', '255.255.255.255', /broadcast/],
  ['224.0.0.0/4 multicast', '239.255.255.250', /multicast/],
  ['::1/128 loopback', '::1', /loopback/],
  ['::/128 unspecified', '::', /unspecified/],
  ['::ffff:0:0/96 IPv4-mapped (of a loopback address)', '::ffff:127.0.0.1', /loopback \(IPv4 embedded/],
  ['::ffff:0:0:0/96 IPv4-translated (of a loopback address)', '::ffff:0:7f00:1', /loopback \(IPv4 embedded/],
  ['64:ff9b::/96 IPv4-IPv6 translation (of a private address)', '64:ff9b::10.1.2.3', /private \(IPv4 embedded/],
  ['64:ff9b:1::/48 local-use IPv4/IPv6 translation', '64:ff9b:1::1', /local-use NAT64/],
  ['100::/64 discard-only', '100::1', /discard-only/],
  ['100:0:0:1::/64 dummy IPv6 prefix', '100:0:0:1::1', /outside global unicast/],
  ['2001::/23 IETF protocol assignments', '2001:100::1', /IETF protocol assignments/],
  ['2001::/32 Teredo', '2001::1', /Teredo/],
  ['2001:1::1/128 PCP anycast', '2001:1::1', /IETF protocol assignments/],
  ['2001:1::2/128 TURN anycast', '2001:1::2', /IETF protocol assignments/],
  ['2001:1::3/128 DNS-SD service registration protocol anycast', '2001:1::3', /IETF protocol assignments/],
  ['2001:2::/48 benchmarking', '2001:2::1', /benchmarking/],
  ['2001:3::/32 AMT', '2001:3::1', /AMT/],
  ['2001:4:112::/48 AS112-v6', '2001:4:112::1', /AS112/],
  ['2001:10::/28 deprecated ORCHID', '2001:10::1', /ORCHID/],
  ['2001:20::/28 ORCHIDv2', '2001:20::1', /ORCHIDv2/],
  ['2001:30::/28 drone remote ID protocol entity tags', '2001:30::1', /drone remote ID/],
  ['2001:db8::/32 documentation', '2001:db8::1', /documentation/],
  ['2002::/16 6to4 (of a public address)', '2002:808:808::1', /^6to4 \(deprecated\)$/],
  ['2002::/16 6to4 (of a loopback address)', '2002:7f00:1::1', /6to4 .*loopback/],
  ['2620:4f:8000::/48 direct delegation AS112 service', '2620:4f:8000::1', /AS112/],
  ['3fff::/20 documentation', '3fff::1', /documentation/],
  ['5f00::/16 segment routing (SRv6) SIDs', '5f00::1', /SRv6/],
  ['fc00::/7 unique-local', 'fd12:3456:789a::1', /unique local/],
  ['fe80::/10 link-local unicast', 'fe80::1', /link-local/],
  ['fec0::/10 site-local (deprecated)', 'fec0::1', /site-local/],
  ['ff00::/8 multicast', 'ff02::1', /multicast/],
  ['::/96 IPv4-compatible (deprecated)', '::127.0.0.1', /IPv4-compatible/],
  ['a block reserved by the IETF, outside 2000::/3', '4000::1', /outside global unicast/],
];

/** Other spellings and edges: [address, the range it must be refused as]. */
const REFUSED: readonly [string, RegExp][] = [
  ['0.0.0.0', /unspecified/],
  ['0.255.255.255', /unspecified/],
  ['10.0.0.0', /private/],
  ['10.20.30.40', /private/],
  ['10.255.255.255', /private/],
  ['100.64.0.0', /carrier-grade NAT/],
  ['100.127.255.255', /carrier-grade NAT/],
  ['127.0.0.1', /loopback/],
  ['127.255.255.254', /loopback/],
  ['169.254.169.254', /link-local/], // the instance metadata service
  ['169.254.0.1', /link-local/],
  ['172.16.0.0', /private/],
  ['172.31.255.255', /private/],
  ['192.168.0.1', /private/],
  ['192.168.255.255', /private/],
  ['192.0.0.8', /IETF/],
  ['192.0.2.1', /documentation/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.9', /documentation/],
  ['198.18.0.1', /benchmarking/],
  ['198.19.255.255', /benchmarking/],
  ['192.88.99.1', /reserved/],
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['240.0.0.1', /reserved/],
  ['255.255.255.255', /reserved/],
  ['::', /unspecified/],
  ['::1', /loopback/],
  ['0:0:0:0:0:0:0:1', /loopback/],
  ['fe80::1', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['febf:ffff::1', /link-local/],
  ['fc00::1', /unique local/],
  ['fd12:3456:789a::1', /unique local/],
  ['ff02::1', /multicast/],
  ['fec0::1', /site-local/],
  ['2001:db8::1', /documentation/],
  ['2001::1', /IETF/], // Teredo
  ['2002:7f00:1::1', /6to4/],
  ['100::1', /discard/],
  ['64:ff9b:1::1', /NAT64/],
  ['::127.0.0.1', /IPv4-compatible/],
  // IPv4-mapped and NAT64 forms of refused IPv4 addresses, in every spelling.
  ['::ffff:127.0.0.1', /loopback \(IPv4 embedded/],
  ['::ffff:7f00:1', /loopback \(IPv4 embedded/],
  ['0:0:0:0:0:ffff:7f00:0001', /loopback \(IPv4 embedded/],
  ['::FFFF:10.0.0.1', /private \(IPv4 embedded/],
  ['::ffff:169.254.169.254', /link-local \(IPv4 embedded/],
  ['::ffff:192.168.1.1', /private \(IPv4 embedded/],
  ['::ffff:100.64.0.1', /carrier-grade NAT \(IPv4 embedded/],
  ['::ffff:0.0.0.0', /unspecified/],
  ['::ffff:0:127.0.0.1', /loopback \(IPv4 embedded/],
  ['0:0:0:0:ffff:0:7f00:1', /loopback \(IPv4 embedded/],
  ['64:ff9b::10.1.2.3', /private \(IPv4 embedded/],
  ['64:ff9b::7f00:1', /loopback \(IPv4 embedded/],
  // Not addresses at all.
  ['localhost', /not an IP address/],
  ['', /not an IP address/],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '169.253.255.255',
  '192.167.255.255',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '::ffff:0:808:808',
  '192.0.1.255',
  '192.31.195.255',
  '2001:200::1',
  '2620:4f:7fff::1',
];

const connectTimeLookup = (host: string) =>
  new Promise<{ error: Error | null; addresses: unknown }>((done) =>
    publicOnlyLookup(host, { all: true }, (error, addresses) => done({ error, addresses })),
  );

describe('every IANA special-purpose range', () => {
  it.each(IANA_SPECIAL_PURPOSE)('refuses %s (%s)', async (_entry, address, range) => {
    const classified = classifyAddress(address);
    expect(classified.public ? '' : classified.range).toMatch(range);

    const literal = checkWebhookUrl(`https://${address.includes(':') ? `[${address}]` : address}/hooks`, true);
    expect(literal).toMatchObject({ ok: false, reason: expect.stringMatching(/^points to a non-public address/) });

    const { error } = await connectTimeLookup(address);
    expect(error).toMatchObject({ name: 'DestinationRefused' });
  });

  it('lets the connect-time lookup answer a public address', async () => {
    const resolved = await new Promise<string>((done, fail) =>
      lookup('8.8.8.8', (error, address) => (error ? fail(error) : done(address))),
    );
    expect(await connectTimeLookup(resolved)).toMatchObject({
      error: null,
      addresses: [{ address: '8.8.8.8', family: 4 }],
    });
  });
});

describe('classifying webhook destination addresses', () => {
  it.each(REFUSED)('refuses %s', (address, range) => {
    const classified = classifyAddress(address);
    expect(classified.public).toBe(false);
    expect(classified.public ? '' : classified.range).toMatch(range);
  });

  it.each(PUBLIC)('allows the public address %s', (address) => {
    expect(classifyAddress(address)).toEqual({ public: true });
  });
});
