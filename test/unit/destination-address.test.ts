import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../functions/webhooks/destination-address';

/** [address, the range it must be refused as] — first, last and a middle address of each range. */
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
];

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
