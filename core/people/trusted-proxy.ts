/**
 * @module trusted-proxy
 * `--trust-proxy LIST`: the addresses (or CIDR ranges) of login proxies whose user header a host
 * believes. The peer is the TCP connection's own address, never a forwarded one, so a client
 * cannot pass itself off as the proxy; an IPv4 peer seen as `::ffff:a.b.c.d` counts as `a.b.c.d`.
 */
import { BlockList, isIP } from 'node:net';
import { isIpOrCidr } from './people-options.ts';

export interface ProxyTrust {
  /** Whether the connection's peer address is a listed proxy. */
  trusts(address: string | undefined): boolean;
}

const NOBODY: ProxyTrust = { trusts: () => false };

function unmapped(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

export function createProxyTrust(entries: readonly string[]): ProxyTrust {
  if (entries.length === 0) return NOBODY;
  const list = new BlockList();
  for (const entry of entries) {
    if (!isIpOrCidr(entry)) throw new TypeError(`trustProxy: '${entry}' is not an IP address or a CIDR range (like 10.0.0.0/8 or ::1)`);
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return {
    trusts(address) {
      if (!address) return false;
      const peer = unmapped(address);
      const family = isIP(peer);
      return family !== 0 && list.check(peer, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
