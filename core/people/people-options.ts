/**
 * @module people-options
 * The host options of people (`--trust-proxy`, `--user-header`): their defaults and checks,
 * beside what they configure; options.ts folds them into the host's. Users and rooms' access are kept where the
 * host keeps rooms (its data folder, `dataDir`, or its Redis service).
 */
import { isIP } from 'node:net';

export interface PeopleHostOptions {
  /** Addresses or CIDR ranges of login proxies whose `userHeader` names the user (`--trust-proxy`). @defaultValue [] */
  trustProxy?: string[];
  /** The header a trusted login proxy names the user in (`--user-header`). @defaultValue `"X-Forwarded-User"` */
  userHeader?: string;
}

export const PEOPLE_DEFAULTS = Object.freeze({ trustProxy: [] as string[], userHeader: 'X-Forwarded-User' });

/** Whether `entry` is an IP address or a CIDR range. */
export function isIpOrCidr(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

/** Throws a TypeError naming the first bad people option. */
export function checkPeopleOptions(o: { trustProxy: unknown; userHeader: unknown }): void {
  if (!Array.isArray(o.trustProxy) || !o.trustProxy.every((entry) => typeof entry === 'string' && isIpOrCidr(entry))) {
    throw new TypeError(`trustProxy must be a list of IP addresses or CIDR ranges, got '${String(o.trustProxy)}'`);
  }
  if (typeof o.userHeader !== 'string' || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(o.userHeader)) {
    throw new TypeError(`userHeader must be a header name, got '${String(o.userHeader)}'`);
  }
}
