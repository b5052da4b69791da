/**
 * @module reachable-url
 * The HTTP address other hosts of a service can reach this host at: the address it is bound
 * to, or, bound to every interface, its first external IPv4 address (loopback when it has none).
 * The host accepts these addresses as Host names by default (http/allowed-hosts.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

function firstExternalAddress(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const info of addresses ?? []) if (info.family === 'IPv4' && !info.internal) return info.address;
  }
  return null;
}

export function reachableUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo;
  let host = address.address;
  if (host === '0.0.0.0' || host === '::') host = firstExternalAddress() ?? '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
