/**
 * @module edited-version.bench
 * `npm run bench edited-version`: what naming an edited layer's version costs the host. A 512³
 * uint32 `label_blobs` (512 MiB) is a labels layer of a room on a host process; after each edit
 * the host makes the layer's current version a result of its own (its voxels and its id) and
 * names it in the room's scene. In one run:
 * 1. edits one at a time (a ball of radius 8 painted), each waited for until the scene names its
 *    version: the edit's answer, the time from the edit to the version named, and the longest
 *    `/healthz` answer while it was made;
 * 2. a burst of edits sent back to back: the slowest answer, the time to the last version named;
 * 3. the host's event-loop delay (its longest turn) over each part.
 * `BENCH_EDITED_SIZE` sets a smaller side for a quick look; `BENCH_EDITED_SINGLE` and
 * `BENCH_EDITED_BURST` how many edits each part makes (5 and 10).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { fmt } from './host-helpers.ts';
import { LOOP_DELAY_PRELOAD, loopDelay } from './loop-delay.ts';

const SIZE = Number(process.env.BENCH_EDITED_SIZE ?? 512);
const SINGLE = Number(process.env.BENCH_EDITED_SINGLE ?? 5);
const BURST = Number(process.env.BENCH_EDITED_BURST ?? 10);
const ROOM = 'bench-version';
const json = { 'content-type': 'application/json' };

/** Asks `/healthz` back to back until `stop` is called; answers the longest answer's time. */
function healthProbe(host: RunningHost): () => Promise<number> {
  let running = true;
  let longest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${host.url}/healthz`)).arrayBuffer();
      longest = Math.max(longest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return longest;
  };
}

/** Resolves once the room's scene names version `version` of layer `seg` as its result. */
async function named(host: RunningHost, version: number): Promise<void> {
  for (;;) {
    const scene = (await (await fetch(`${host.url}/api/rooms/${ROOM}/scene`)).json()) as { layers: { id: string; result?: { data_url?: string } }[] };
    const url = scene.layers.find((l) => l.id === 'seg')?.result?.data_url ?? '';
    const at = /[?&]version=(\d+)/.exec(url);
    if (at && Number(at[1]) >= version) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function paint(host: RunningHost, k: number): Promise<Response> {
  const c = Math.floor(SIZE / 2);
  const edit = { op: 'paint', label: 900_000 + k, center: [c, c, 16 + ((k * 24) % (SIZE - 32))], radius: 8 };
  return fetch(`${host.url}/api/rooms/${ROOM}/layers/seg/edits`, { method: 'POST', headers: json, body: JSON.stringify(edit) });
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-version-'));
  const plugins = path.join(dir, 'plugins');
  execFileSync(process.execPath, [CLI, 'build', path.join(REPO, 'test/fixtures/plugins'), '--out', plugins], { cwd: REPO });
  const delays = path.join(dir, 'loop-delay.json');
  const args = ['--port', '0', '--plugins', plugins, '--log-level', 'warn', '--no-viewer', '--data-dir', 'none', '--cache-max-bytes', '3000000000'];
  // BENCH_PROF_DIR: the host's CPU profiles written there (read them with busy-stretches.ts).
  const profile = process.env.BENCH_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF_DIR}`] : [];
  const host = await spawnHost(args, { nodeArgs: ['--import', LOOP_DELAY_PRELOAD, ...profile], env: { LOOP_DELAY_FILE: delays }, timeoutMs: 120_000 });
  const lines: string[] = [];
  try {
    const source = { function: 'label_blobs', params: { size: SIZE, count: 200, dtype: 'uint32' } };
    const layer = JSON.stringify({ id: 'seg', source, kind: 'labels' });
    const made = await fetch(`${host.url}/api/rooms/${ROOM}/layers`, { method: 'POST', headers: json, body: layer });
    if (made.status !== 201) throw new Error(`layer not made: ${made.status} ${await made.text()}`);
    // The layer's base computed and loaded for editing (the list loads it), then the delay starts over.
    const listed = await fetch(`${host.url}/api/rooms/${ROOM}/layers/seg/edits`);
    if (listed.status !== 200) throw new Error(`edits not listed: ${listed.status} ${await listed.text()}`);
    await loopDelay(host, delays);
    lines.push(`${SIZE}³ uint32 labels layer (${fmt((SIZE ** 3 * 4) / 2 ** 20, 0)} MiB)`);

    const answers: number[] = [];
    const namedAfter: number[] = [];
    let healthz = 0;
    for (let k = 1; k <= SINGLE; k++) {
      const probe = healthProbe(host);
      const started = performance.now();
      const answer = await paint(host, k);
      answers.push(performance.now() - started);
      if (answer.status !== 201) throw new Error(`edit refused: ${answer.status} ${await answer.text()}`);
      await named(host, k);
      namedAfter.push(performance.now() - started);
      healthz = Math.max(healthz, await probe());
    }
    const max = (values: number[]) => fmt(Math.max(...values));
    const median = (values: number[]) => fmt([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
    lines.push(`${SINGLE} edits one at a time: answered median ${median(answers)} ms, max ${max(answers)} ms`);
    lines.push(`  edit to its version named in the scene: median ${median(namedAfter)} ms, max ${max(namedAfter)} ms`);
    lines.push(`  longest /healthz meanwhile ${fmt(healthz)} ms; ${await loopDelay(host, delays)}`);

    const probe = healthProbe(host);
    const started = performance.now();
    const burst = await Promise.all(
      Array.from({ length: BURST }, async (_, k) => {
        const answer = await paint(host, SINGLE + 1 + k);
        if (answer.status !== 201) throw new Error(`edit refused: ${answer.status} ${await answer.text()}`);
        return performance.now() - started;
      }),
    );
    await named(host, SINGLE + BURST);
    const last = performance.now() - started;
    lines.push(`${BURST} edits at once: last answered ${max(burst)} ms, last version named ${fmt(last)} ms after the first was sent`);
    lines.push(`  longest /healthz meanwhile ${fmt(await probe())} ms; ${await loopDelay(host, delays)}`);
  } finally {
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { name: 'edited version', lines };
}
