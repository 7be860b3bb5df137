import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { classifyAddress } from '../../webhooks/destination-address';

/** A production webhook host resolved to an address we never connect to. */
class DestinationRefused extends Error {
  override readonly name = 'DestinationRefused';
  readonly code = 'EDESTINATIONREFUSED';
}

/**
 * The DNS lookup the production dispatcher's sockets use. It runs inside the connection
 * itself, so the address checked is the address connected to: a DNS answer that changes
 * between a check and the connection (DNS rebinding) cannot slip through. One non-public
 * answer refuses the host, whatever the others are.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    for (const { address } of addresses) {
      const classified = classifyAddress(address);
      if (!classified.public) {
        return callback(
          new DestinationRefused(`${hostname} resolves to ${address}, a ${classified.range} address`),
          '',
          0,
        );
      }
    }
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} did not resolve`), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return callback(null, addresses);
    return callback(null, first.address, first.family);
  });
};
