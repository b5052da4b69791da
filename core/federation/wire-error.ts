/**
 * @module wire-error
 * Errors across the channel: a HostError keeps its code, status and message, so a worker's
 * 400 or 500 reaches the relay's client with the same meaning.
 */
import { createHostError, ERRORS, HostError, isHostError, type HostErrorCode } from '../errors.ts';
import type { WireError } from './wire-messages.ts';

export function toWireError(error: unknown): WireError {
  if (isHostError(error)) return { status: error.statusCode, code: error.code, message: error.message };
  return { status: 500, code: 'SPC_ERR_WORKER_ERROR', message: error instanceof Error ? error.message : String(error) };
}

function isKnownCode(code: string): code is HostErrorCode {
  return Object.hasOwn(ERRORS, code);
}

/** The HostError a wire error stands for; unknown codes become SPC_ERR_WORKER_ERROR (502). */
export function fromWireError(workerId: string, error: WireError): HostError {
  if (isKnownCode(error.code) && error.code !== 'SPC_ERR_WORKER_ERROR') return new HostError(error.code, error.message);
  return createHostError('SPC_ERR_WORKER_ERROR', workerId, error.message);
}
