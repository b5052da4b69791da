/**
 * @module pin-room
 * The one refusal for what people make when the host has no room left to keep it: pins (published
 * files, uploads, snapshots' results) never pass the byte budget, and nothing older is unpinned
 * to make room, so the new write is refused with 507 instead.
 */
import { createHostError } from '../errors.ts';
import type { ResultBudget } from './result-budget.ts';

/** Throws the catalogued 507 unless `bytes` more can be pinned in `budget`; `what` names the write. */
export function assertPinnable(budget: Pick<ResultBudget<never>, 'pinnable' | 'pinnedBytes' | 'maxBytes'>, bytes: number, what: string): void {
  if (budget.pinnable(bytes)) return;
  throw createHostError('SPC_ERR_HOST_CANNOT_KEEP', what, String(bytes), String(budget.pinnedBytes), `${budget.maxBytes} (--cache-max-bytes)`);
}
