/**
 * @module agent-fault
 * How a fault of the agent's own path (its room log, Redis, a speech service, a frame's handling)
 * is told to the sockets: in words that say what failed and, for a fault the host knows (a host
 * error: Redis away is a 503), its status and code, so a client can tell "retry later" from a
 * refusal. An unexpected error is told only as an internal error; its detail goes to the log.
 */
import { isHostError } from '../errors.ts';

/** The `error` frame's words for `error`, met while doing `what`. */
export function faultWords(what: string, error: unknown): string {
  if (isHostError(error)) return `${what}: ${error.message} (${error.statusCode} ${error.code})`;
  return `${what}: internal error`;
}
