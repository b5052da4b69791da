/**
 * @module outcome-error
 * The host error for a failed call outcome: what an invoker throws and a job records.
 */
import { createHostError, wrapHostError, type HostError } from '../errors.ts';
import type { CallOutcome } from './call-plugin-function.ts';

/** SPC_ERR_JOB_CANCELLED, SPC_ERR_FUNCTION_FAILED (the plugin's error as its cause) or SPC_ERR_RESULT_INVALID. */
export function outcomeError(outcome: Exclude<CallOutcome, { ok: true }>, functionName: string): HostError {
  if (outcome.kind === 'cancelled') return createHostError('SPC_ERR_JOB_CANCELLED');
  if (outcome.kind === 'result') return createHostError('SPC_ERR_RESULT_INVALID', functionName, outcome.message);
  return outcome.cause === undefined
    ? createHostError('SPC_ERR_FUNCTION_FAILED', functionName, outcome.message)
    : wrapHostError(outcome.cause, 'SPC_ERR_FUNCTION_FAILED', functionName, outcome.message);
}
