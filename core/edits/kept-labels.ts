/**
 * @module kept-labels
 * Memory for labels that a thread keeps from one task to the next: boxes of an edited version
 * read on an encode thread and used there alone (a surface built from one, label entries found
 * in several) are read into it rather than into memory new to the process, which is slow to
 * touch on first use. What one task reads is gone when the thread's next task reads.
 */
import { ARRAYS, type LabelArray, type LabelDtype } from './label-volume.ts';

/** The most a thread keeps between tasks; a larger read takes memory of its own, let go once read. */
const KEPT_BYTES = 64 * 2 ** 20;
let kept = new ArrayBuffer(0);

/** `length` labels of `dtype` over the thread's kept memory, grown as asked up to {@link KEPT_BYTES}. */
export function keptLabels(dtype: LabelDtype, length: number): LabelArray {
  const bytes = length * ARRAYS[dtype].BYTES_PER_ELEMENT;
  if (bytes > KEPT_BYTES) return new ARRAYS[dtype](length);
  if (kept.byteLength < bytes) kept = new ArrayBuffer(Math.min(KEPT_BYTES, Math.max(bytes, kept.byteLength * 2)));
  return new ARRAYS[dtype](kept, 0, length);
}
