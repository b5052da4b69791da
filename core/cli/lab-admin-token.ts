/**
 * @module lab-admin-token
 * The admin token of a host started from the command line. On loopback the admin routes stay
 * open unless `--admin-token` is given; bound to any other address a host reachable by a whole
 * network would otherwise let anyone list every room, clear the cache or reload, so it makes a
 * random token at start and says it once on standard output (`admin token: <T>`).
 * `--admin-token none` keeps the admin routes open on purpose, with a warning.
 */
import { randomBytes } from 'node:crypto';
import { isLoopbackAddress } from '../http/allowed-hosts.ts';

/** The `--admin-token` value that leaves the admin routes open. */
export const NO_ADMIN_TOKEN = 'none';

export interface AdminTokenChoice {
  /** The token the host checks; null: admin routes open. */
  token: string | null;
  /** The line to print on standard output before `listening on`, when the token was made here. */
  announce: string | null;
  /** The warning to log, when the routes are left open beyond loopback. */
  warning: string | null;
}

/** Decides the admin token from the bind address and `--admin-token` (undefined: not given). */
export function chooseAdminToken(boundHost: string, given: string | null | undefined): AdminTokenChoice {
  const beyondLoopback = !isLoopbackAddress(boundHost);
  if (given === NO_ADMIN_TOKEN) {
    const warning = beyondLoopback
      ? `--admin-token none: cache stats, cache clear, reload and /metrics are open to every client that reaches ${boundHost}`
      : null;
    return { token: null, announce: null, warning };
  }
  if (given) return { token: given, announce: null, warning: null };
  if (!beyondLoopback) return { token: null, announce: null, warning: null };
  const token = randomBytes(24).toString('base64url');
  return { token, announce: `admin token: ${token}`, warning: null };
}
