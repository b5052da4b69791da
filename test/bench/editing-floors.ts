/**
 * @module editing-floors
 * What `npm run bench editing` reads its figures against, in the same run: the CPU the host and
 * the bench's own clients use, and a write committed and flushed on the same disk alone (the
 * least an edit kept on disk waits for).
 */
import { readFileSync } from 'node:fs';
import { open } from 'lmdb';
import { STORE_OPTIONS } from '../../core/durable/data-store.ts';

/** CPU ms used so far by the host's process (every thread; /proc's clock ticks of 10 ms) and by this one. */
export function cpuNow(hostPid: number): { host: number; bench: number } {
  const fields = readFileSync(`/proc/${hostPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const { user, system } = process.cpuUsage();
  return { host: (Number(fields[11]) + Number(fields[12])) * 10, bench: (user + system) / 1000 };
}

/**
 * One small write of its own committed and flushed every 50 ms in this process (lmdb-js with the
 * host's store options) until stopped: the floor under an edit kept on disk, in the same run.
 */
export function commitLoop(file: string): { stop(): Promise<number[]> } {
  const env = open({ path: file, ...STORE_OPTIONS });
  const db = env.openDB<unknown, number>({ name: 'marks' });
  const times: number[] = [];
  let going = true;
  const done = (async () => {
    for (let i = 0; going; i++) {
      const at = performance.now();
      await db.put(i, { i, at });
      times.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await env.close();
  })();
  return { stop: async () => ((going = false), await done, times) };
}
