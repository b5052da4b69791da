/**
 * @module errors
 * The one catalog of host errors: each code with its HTTP status and message template.
 * Route code only throws `createHostError(code, ...args)`; `core/http/error-handler.ts` turns
 * it into `{"status_code", "detail", "code"}`. Codes are kept by area in errors/ and gathered
 * here, and documented in core/ERRORS.md (a test keeps the two in step).
 */
import { AGENT_ERRORS } from './errors/agent-errors.ts';
import { COMPUTE_ERRORS } from './errors/compute-errors.ts';
import { PEOPLE_ERRORS } from './errors/people-errors.ts';
import { REMOTE_ERRORS } from './errors/remote-errors.ts';
import { REQUEST_ERRORS } from './errors/request-errors.ts';
import { ROOM_ERRORS } from './errors/room-errors.ts';

/** Every code, gathered from its area (errors/): the one catalog routes throw from. */
export const ERRORS = { ...REQUEST_ERRORS, ...COMPUTE_ERRORS, ...ROOM_ERRORS, ...AGENT_ERRORS, ...PEOPLE_ERRORS, ...REMOTE_ERRORS } as const;

export type HostErrorCode = keyof typeof ERRORS;

/** An error the host expects and reports to clients as is. */
export class HostError extends Error {
  override name = 'HostError';
  readonly code: HostErrorCode;
  readonly statusCode: number;

  /** Extra response headers (e.g. Retry-After on a 503). */
  headers: Record<string, string> = {};

  constructor(code: HostErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.statusCode = ERRORS[code].status;
  }
}

/** Longest part of a client's input echoed in an error detail; longer values are cut with an ellipsis. */
export const MAX_ECHO_LENGTH = 200;

/** `value` cut to {@link MAX_ECHO_LENGTH} characters, with `…` when it was longer. */
export function boundEcho(value: string): string {
  return value.length > MAX_ECHO_LENGTH ? `${value.slice(0, MAX_ECHO_LENGTH)}…` : value;
}

/**
 * Creates the catalogued error `code` with its message template filled by `args` (each bounded
 * by {@link boundEcho}, so no detail repeats a huge input back).
 * @example throw createHostError('SPC_ERR_JOB_NOT_FOUND', jobId)
 */
export function createHostError(code: HostErrorCode, ...args: string[]): HostError {
  return new HostError(code, ERRORS[code].message(...args.map(boundEcho)));
}

/** Same as createHostError, keeping the underlying failure as `cause`. */
export function wrapHostError(cause: unknown, code: HostErrorCode, ...args: string[]): HostError {
  return new HostError(code, ERRORS[code].message(...args.map(boundEcho)), { cause });
}

export function isHostError(error: unknown): error is HostError {
  return error instanceof HostError;
}
