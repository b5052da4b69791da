/**
 * @module kill-restart.bench
 * `npm run bench kill-restart`: test/durable/kill-restart.test.ts at its full count, run once. A
 * host on a data folder is killed with SIGKILL under ten writing clients and started again on
 * it, KILL_RESTART_ROUNDS times (20 unless told; the suite kills once), every acknowledged write
 * checked after each restart. The test's assertions decide; the line is what it printed.
 */
import { testFileLines } from './test-file-run.ts';

const ROUNDS = Number(process.env.KILL_RESTART_ROUNDS ?? 20);

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines = await testFileLines('test/durable/kill-restart.test.ts', { VITRINE_DURABLE_ROUNDS: String(ROUNDS) }, /^kill -9 under writers, /);
  return { name: `kill -9 under ten writing clients (${ROUNDS} kills)`, lines };
}
