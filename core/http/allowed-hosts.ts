/**
 * @module allowed-hosts
 * The `Host` allow-list (DNS-rebinding protection): a page on a domain its attacker points at
 * this machine sends that domain as `Host`, so only names this host really has are answered.
 * Bound to a loopback address the defaults are the bound address, `localhost`, `127.0.0.1`
 * and `[::1]`; bound to any other address they are those loopback names, the machine's host
 * name and `<name>.local`, the bound address and the addresses of its network interfaces.
 * Each is accepted with any port; `allowedHosts` replaces the defaults (`*` in it accepts
 * any). Other `Host` values get 403, and a value that is not a host name with an optional port
 * gets 400 whatever the list says.
 */
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { createHostError } from '../errors.ts';

/** `null` accepts every host name. */
export type HostAllowList = ReadonlySet<string> | null;

/** Lower case, without port or trailing dot; IPv6 literals in brackets. */
export function normalizeHostName(value: string): string {
  let host = value.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    host = end === -1 ? host : host.slice(0, end + 1);
  } else if (isIP(host) === 6) {
    host = `[${host}]`;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon !== -1) host = host.slice(0, colon);
  }
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

export function isLoopbackAddress(address: string): boolean {
  const host = normalizeHostName(address);
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host) || /^\[::ffff:127\.\d+\.\d+\.\d+\]$/.test(host);
}

/**
 * The accepted host names for a host bound to `boundHost`: `list` when given (`*` in it
 * accepts any), else the loopback names, plus the machine's own names when bound elsewhere.
 */
export function resolveAllowedHosts(boundHost: string, list: readonly string[] | null): HostAllowList {
  if (list && list.length > 0) {
    if (list.some((entry) => entry.trim() === '*')) return null;
    return new Set(list.map(normalizeHostName).filter((h) => h !== ''));
  }
  const names = [normalizeHostName(boundHost), 'localhost', '127.0.0.1', '[::1]'];
  if (isLoopbackAddress(boundHost)) return new Set(names);
  return new Set([...names, ...machineHostNames()]);
}

/** This machine's own names: its host name, `<name>.local`, and every interface address. */
export function machineHostNames(): string[] {
  const names: string[] = [];
  const name = normalizeHostName(hostname());
  if (name !== '') names.push(name, name.endsWith('.local') ? name : `${name}.local`);
  for (const addresses of Object.values(networkInterfaces())) {
    // A link-local IPv6 address's zone (`%eth0`) never appears in a Host header.
    for (const info of addresses ?? []) names.push(normalizeHostName(info.address.replace(/%.*$/, '')));
  }
  return names;
}

/**
 * A host name (letters, digits, `.`, `-`, `_`) or a bracketed IPv6 literal, with an optional
 * port: nothing else may stand in `Host`, since absolute URLs the host hands out (a room's
 * Neuroglancer state, an agent's links) are built on it. `localhost:1@evil.example` names
 * `localhost` to a reader that cuts at the last colon, and `evil.example` to a URL parser.
 */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::\d{1,5})?$/;

/** Whether `header` is a well-formed `Host` value. */
export function isWellFormedHost(header: string): boolean {
  return header.length <= 255 && HOST_VALUE.test(header);
}

/** Whether a request's `Host` header is accepted (a leading `.` in the list matches subdomains). */
export function isHostAllowed(allowed: HostAllowList, header: string | undefined): boolean {
  if (allowed === null) return true;
  if (header === undefined) return false;
  const host = normalizeHostName(header);
  if (allowed.has(host)) return true;
  for (const entry of allowed) if (entry.startsWith('.') && (host.endsWith(entry) || host === entry.slice(1))) return true;
  return false;
}

/** `Host` values whose answer is remembered; past it the memory starts again (a client sending many names gains nothing). */
const REMEMBERED_HOSTS = 64;

/** What a `Host` value gets: through, 400 (malformed, whatever the list) or 403 (not on the list). */
type HostVerdict = 'ok' | 'malformed' | 'refused';

function verdictOf(allowed: HostAllowList, header: string | undefined): HostVerdict {
  if (header !== undefined && !isWellFormedHost(header)) return 'malformed';
  return isHostAllowed(allowed, header) ? 'ok' : 'refused';
}

/**
 * Answers 400 to every request whose `Host` is not a host name with an optional port, and 403
 * to one whose host is not on the list, before any route runs. The verdict for each `Host`
 * value seen is remembered (clients send the same few), so a request costs one map lookup in
 * a synchronous hook.
 */
export function installHostCheck(app: FastifyInstance, allowed: HostAllowList): void {
  const seen = new Map<string, HostVerdict>();
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const header = request.headers.host;
    let verdict = header === undefined ? undefined : seen.get(header);
    if (verdict === undefined) {
      verdict = verdictOf(allowed, header);
      if (header !== undefined) {
        if (seen.size >= REMEMBERED_HOSTS) seen.clear();
        seen.set(header, verdict);
      }
    }
    if (verdict === 'ok') return done();
    done(
      verdict === 'malformed'
        ? createHostError('SPC_ERR_HOST_MALFORMED', JSON.stringify(header).slice(1, -1).slice(0, 100))
        : createHostError('SPC_ERR_HOST_NOT_ALLOWED', header ?? '(none)'),
    );
  });
}
