/**
 * @module run-collected
 * The types of run-collected.mjs (plain JavaScript, so the checks run before anything is compiled).
 */
import type { SpawnOptions } from 'node:child_process';

/** Runs `command` with `args`, pushing its output onto `out`; resolves with its exit code. */
export function runCollected(command: string, args: string[], out: Buffer[], options?: SpawnOptions): Promise<number>;
