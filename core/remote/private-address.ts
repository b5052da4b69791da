/**
 * @module private-address
 * Which addresses are not the public internet: loopback, private ranges, link-local (cloud
 * metadata services live there), carrier-grade NAT, unspecified, multicast and reserved
 * ranges, in IPv4 and IPv6 (IPv4-mapped IPv6 addresses count as their IPv4 one). The host
 * reads such an address only when a remote's own URL names it.
 */
import { BlockList, isIP } from 'node:net';

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/** Whether `address` (an IP literal) is loopback, private or otherwise not public; anything unparsable counts as private. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(bare);
  if (family === 0) return true;
  return PRIVATE.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whether a URL's host names a private place itself: an IP literal in a private range, or
 * `localhost`. An operator who names such a host as a remote means it; a host name that merely
 * resolves to a private address does not.
 */
export function namesPrivateHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  return isIP(bare) !== 0 && isPrivateAddress(bare);
}
