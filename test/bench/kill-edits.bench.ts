/**
 * @module kill-edits.bench
 * `npm run bench kill-edits`: test/durable/kill-edits.test.ts at its full count, run once. A host
 * on a data folder is killed with SIGKILL at a random moment while three editors paint a labels
 * layer, and started again on the folder, KILL_EDITS_ROUNDS times (20 unless told; the suite
 * kills 8 times), the layer's edits, the room's log and the labels checked after every restart.
 * The test's assertions decide; the line is what it printed: edits answered and kept, 0 missing,
 * and the median round (a kill, a start and the check).
 */
import { testFileLines } from './test-file-run.ts';

const ROUNDS = Number(process.env.KILL_EDITS_ROUNDS ?? 20);

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines = await testFileLines('test/durable/kill-edits.test.ts', { VITRINE_EDIT_ROUNDS: String(ROUNDS) }, /^kill -9, /);
  return { name: `kill -9 under editors of a labels layer (${ROUNDS} kills)`, lines };
}
