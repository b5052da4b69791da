/**
 * @module kill-log.bench
 * `npm run bench kill-log`: test/durable/kill-log.test.ts at its full count, run once. A host with
 * a data folder is killed with SIGKILL at a random moment under writers of every kind and started
 * again on the folder, KILL_LOG_ROUNDS times (20 unless told; the suite kills once), each room
 * checked against its log after every restart; then the same writers against a full disk. The
 * test's assertions decide; the lines are what it printed: what was answered, 0 missing from room
 * or log, and the median restart. A failure is reported with vitest's account of it.
 */
import { testFileLines } from './test-file-run.ts';

const ROUNDS = Number(process.env.KILL_LOG_ROUNDS ?? 20);

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines = await testFileLines('test/durable/kill-log.test.ts', { VITRINE_LOG_ROUNDS: String(ROUNDS) }, /^(kill -9, |full disk: )/);
  return { name: `kill -9 and a full disk under writers of every kind (${ROUNDS} kills)`, lines };
}
