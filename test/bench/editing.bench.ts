/**
 * @module editing.bench
 * `npm run bench editing`: a segmentation edited together. A generated 512³ uint32
 * segmentation of over 10,000 segments (editing-volume.ts; EDITING_SIZE=128 for a quick run) is
 * a static specimen of a host process on a free port, the labels layer of a room. 24 followers
 * read the room's event stream. Then, in one run:
 * 1. the large segment (about a million voxels) split alone, timed (bound 1 s);
 * 2. 4 editors make 1,000 edits together over HTTP (EDITING_EDITS to change), each waiting for
 *    its answer before the next: paints of radius 8, merges and splits taking turns
 *    (editing-plans.ts). Figures: the answer's p50/p99 (bound p99 100 ms), and from an edit sent
 *    to the last of the 24 followers getting its `labels` event (bound p99 250 ms);
 * 3. a sample of the first editor's edits (every EDITING_SAMPLE-th, 12 unless told): once
 *    answered, the version it made is asked its result id (a HEAD of `.../labels?version=V`,
 *    which makes no voxels) and the changed segment's coarsest fragments (`{segment}.json`) are read; the time
 *    from the edit sent to them (bound 1 s). Beside it, the CPU the host and the bench's own
 *    clients used while the editors worked, against the machine's cores, and the same sample for
 *    5 more edits made alone afterwards (nothing else at work: what the machine gives one edit),
 *    and a write of the bench's own committed and flushed on the same disk every 50 ms meanwhile
 *    (lmdb-js with the host's store options: the least an edit kept on disk waits for);
 * 4. the data folder's growth over the edits beside the bytes of the chunks (as the host keeps them) whose voxels
 *    differ from the base at the end (bound twice those);
 * 5. every edit undone, newest first, and the layer's bytes hashed beside version 0's.
 * The machine's load average is printed at the start and the end: on a shared machine every
 * figure grows with it.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
// The host's chunk side: the store's growth is weighed against the chunks that changed.
import { CHUNK } from '../../core/edits/label-volume.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { allArrived, follow } from './editing-followers.ts';
import { commitLoop, cpuNow } from './editing-floors.ts';
import { bigSplit, editorPlans, type PlannedEdit } from './editing-plans.ts';
import { BIG_SEGMENT, makeSegmentation, writeSpecimen, type Segmentation } from './editing-volume.ts';
import { fmt, percentile } from './host-helpers.ts';

const SIZE = Number(process.env.EDITING_SIZE ?? 512);
/** Edits the editors make together: 1,000, or at a smaller size as many as its segments allow. */
const editsFor = (segments: number) => Number(process.env.EDITING_EDITS ?? Math.min(1000, Math.floor(segments / 2)));
const EDITORS = 4;
const FOLLOWERS = 24;
const SAMPLE_EVERY = Number(process.env.EDITING_SAMPLE ?? 12);
const ROOM = 'bench-editing';

interface Made {
  status: number;
  ms: number;
  sent: number;
  seq?: number;
  version?: number;
  /** Voxels the edit changed, and its op. */
  voxels?: number;
  op?: string;
  detail?: string;
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');

/** Edits the first editor makes alone after the others, each with its mesh sample. */
const QUIET = 5;


/** Bytes under `dir` (du's count of blocks in use, as the data folder grows on disk). */
function duBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  // Each figure also goes to standard error as it is found: a full run takes many minutes.
  const say = (line: string) => {
    lines.push(line);
    process.stderr.write(`editing: ${line}\n`);
  };
  say(`load average at start: ${load()}`);
  const root = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-editing-'));
  const [plugins, specimens] = [path.join(root, 'plugins'), path.join(root, 'specimens')];
  mkdirSync(plugins);
  let started = performance.now();
  const seg = makeSegmentation(SIZE);
  writeSpecimen(specimens, 'seg', seg);
  const madeMs = fmt(performance.now() - started, 0);
  say(`${SIZE}³ uint32 segmentation of ${seg.top} segments (segment ${BIG_SEGMENT}: ${seg.counts[BIG_SEGMENT]} voxels), made in ${madeMs} ms`);

  const cache = String(3 * 2 ** 30);
  // EDITING_PROF=<folder>: the host writes a CPU profile of each thread there when it stops.
  const prof = process.env.EDITING_PROF ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', process.env.EDITING_PROF] } : {};
  const host = await spawnHost(['--port', '0', '--plugins', plugins, '--specimens', specimens, '--log-level', 'warn', '--cache-max-bytes', cache], prof);
  const followers: Awaited<ReturnType<typeof follow>>[] = [];
  try {
    const room = `${host.url}/api/rooms/${ROOM}`;
    const json = { 'content-type': 'application/json' };
    const layer = { id: 'seg', source: { specimen: 'seg' }, kind: 'labels' };
    const made = await fetch(`${room}/layers`, { method: 'POST', headers: json, body: JSON.stringify(layer) });
    if (made.status !== 201) throw new Error(`layer not made: ${made.status} ${await made.text()}`);
    started = performance.now();
    const base = await labelsOf(room, 0);
    say(`layer loaded and version 0 read in ${fmt(performance.now() - started, 0)} ms (result ${base.resultId.slice(0, 12)})`);
    for (let k = 0; k < FOLLOWERS; k++) followers.push(await follow(`${room}/events`));
    const grownFrom = duBytes(host.dataDir);

    const edit = async (body: unknown): Promise<Made> => {
      const sent = performance.now();
      // A host that stalls past its request timeout closes the connection: counted as refused, not a crash.
      const request = { method: 'POST', headers: json, body: JSON.stringify(body) };
      const answer = await fetch(`${room}/layers/seg/edits`, request).catch((error: unknown) => error as Error);
      if (answer instanceof Error) return { status: 0, ms: performance.now() - sent, sent, detail: `${answer.message} (${String(answer.cause)})` };
      const text = await answer.text();
      const ms = performance.now() - sent;
      if (answer.status !== 201) return { status: answer.status, ms, sent, detail: text.slice(0, 200) };
      const { seq, version, voxels } = JSON.parse(text) as { seq: number; version: number; voxels: number };
      return { status: 201, ms, sent, seq, version, voxels, op: (body as { op: string }).op };
    };

    // 1. The large segment split alone.
    const big = await edit(bigSplit(seg));
    if (big.status !== 201) throw new Error(`the large split was refused: ${big.status} ${big.detail}`);
    say(`split of segment ${BIG_SEGMENT} (${seg.counts[BIG_SEGMENT]} voxels) answered in ${fmt(big.ms, 0)} ms (bound 1000 ms)`);

    // 2 and 3. The editors together, with the mesh sample.
    const samples: Promise<number | string>[] = [];
    const edits = editsFor(seg.top);
    const shares = Array.from({ length: EDITORS }, (_, k) => Math.floor(edits / EDITORS) + (k < edits % EDITORS ? 1 : 0));
    // The first editor's plans go on past its share: those edits are made alone afterwards (the quiet samples).
    const plans = shares.map((share, k) => editorPlans(seg, k, EDITORS, share + (k === 0 ? QUIET : 0)).slice(0, share));
    const quietPlans = editorPlans(seg, 0, EDITORS, shares[0]! + QUIET).slice(shares[0]);
    const cpuFrom = cpuNow(host.child.pid!);
    const commits = commitLoop(path.join(root, 'alone.mdb'));
    started = performance.now();
    const results = await Promise.all(
      plans.map(async (list, k) => {
        const out: Made[] = [];
        for (const [n, plan] of list.entries()) {
          const done = await edit(plan.body);
          out.push(done);
          if (k === 0 && n % SAMPLE_EVERY === 0 && done.status === 201) samples.push(meshReady(host.url, room, done, plan));
        }
        return out;
      }),
    );
    const editing = performance.now() - started;
    const cpu = cpuNow(host.child.pid!);
    const alone = await commits.stop();
    const cores = (ms: number) => fmt(ms / editing, 2);
    const all = results.flat();
    const kept = all.filter((m) => m.status === 201);
    const refused = all.filter((m) => m.status !== 201);
    const answers = kept.map((m) => m.ms);
    say(
      `${all.length} edits by ${EDITORS} editors in ${fmt(editing / 1000, 1)} s (${fmt((all.length * 1000) / editing, 1)}/s), ${refused.length} refused` +
        (refused.length ? ` (first: ${refused[0]!.status} ${refused[0]!.detail})` : ''),
    );
    const [p50, p99] = [fmt(percentile(answers, 50), 1), fmt(percentile(answers, 99), 1)];
    say(`edit answered: p50 ${p50} ms, p99 ${p99} ms (bound p99 100 ms), max ${fmt(Math.max(...answers), 1)} ms`);
    say(`  by op: ${byOp(kept)}`);
    say(
      `a flushed lmdb-js commit alone meanwhile, on the same disk (what keeping an edit waits for at the least), every 50 ms: ` +
        `p50 ${fmt(percentile(alone, 50), 1)} ms, p99 ${fmt(percentile(alone, 99), 1)} ms (${alone.length} commits)`,
    );
    say(
      `CPU while the editors worked: the host ${cores(cpu.host - cpuFrom.host)} cores, the bench's editors and followers ` +
        `${cores(cpu.bench - cpuFrom.bench)} cores, of the machine's ${availableParallelism()}`,
    );

    const seqs = [big, ...kept].map((m) => m.seq!);
    await allArrived(followers, seqs, 30_000);
    const toLast: number[] = [];
    let missing = 0;
    for (const m of kept) {
      const times = followers.map((f) => f.arrived.get(m.seq!));
      missing += times.filter((t) => t === undefined).length;
      const got = times.filter((t): t is number => t !== undefined);
      if (got.length) toLast.push(Math.max(...got) - m.sent);
    }
    say(
      `edit to every follower's labels event (${FOLLOWERS} followers): p50 ${fmt(percentile(toLast, 50), 1)} ms, p99 ${fmt(percentile(toLast, 99), 1)} ms ` +
        `(bound p99 250 ms); ${missing} events missing`,
    );

    const sampled = await Promise.all(samples);
    const readyMs = sampled.filter((s): s is number => typeof s === 'number');
    const failed = sampled.filter((s) => typeof s === 'string');
    say(
      `changed segment's coarsest mesh level after its edit (${sampled.length} sampled edits): p50 ${fmt(percentile(readyMs, 50), 0)} ms, ` +
        `max ${fmt(Math.max(...readyMs), 0)} ms (bound 1000 ms)` + (failed.length ? `; ${failed.length} failed (${failed[0]})` : ''),
    );

    // 3b. Edits made alone, one after the other, each with its mesh read: the same sample with nothing else at work.
    const [quiet, quietAnswers]: [number[], number[]] = [[], []];
    for (const plan of quietPlans) {
      const done = await edit(plan.body);
      quietAnswers.push(done.ms);
      const ready = done.status === 201 ? await meshReady(host.url, room, done, plan) : `${done.status} ${done.detail}`;
      if (typeof ready === 'number') quiet.push(ready);
      else say(`  a quiet sample failed: ${ready}`);
    }
    const [quietP50, quietMax] = [fmt(percentile(quiet, 50), 0), fmt(Math.max(...quiet), 0)];
    const answered = fmt(percentile(quietAnswers, 50), 1);
    if (quiet.length) say(`  the same with each edit made alone (${quiet.length} edits): p50 ${quietP50} ms, max ${quietMax} ms; answered p50 ${answered} ms`);

    // 4. The data folder's growth beside the chunks that changed.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const grown = duBytes(host.dataDir) - grownFrom;
    const now = await labelsOf(room);
    const chunks = changedChunks(seg, now.volume);
    const chunkBytes = chunks * CHUNK ** 3 * 4;
    const mib = (n: number) => `${fmt(n / 2 ** 20, 1)} MiB`;
    const ratio = fmt(grown / chunkBytes, 3);
    say(`data folder grown by ${mib(grown)}; changed chunks ${chunks} (${mib(chunkBytes)}), bound ${mib(2 * chunkBytes)} (ratio ${ratio})`);

    // 5. Every edit undone, newest first.
    started = performance.now();
    const undone = await undoAll(room);
    const undoMs = performance.now() - started;
    const back = await labelsOf(room);
    const same = back.hash === base.hash ? 'the same' : 'DIFFERENT';
    const hashes = `the layer's bytes hash ${back.hash.slice(0, 16)}, version 0's ${base.hash.slice(0, 16)}: ${same}`;
    say(`${undone} edits undone (newest first, ${UNDO_WINDOW} at a time) in ${fmt(undoMs / 1000, 1)} s; ${hashes}`);
    if (back.hash !== base.hash) say(`  what differs: ${differences(base.volume, back.volume).join('; ') || 'nothing decoded'}`);
    say(`result ids: version ${back.version} ${back.resultId.slice(0, 12)}, version 0 ${base.resultId.slice(0, 12)}`);
  } finally {
    for (const f of followers) f.close();
    await host.stop();
  }
  say(`load average at end: ${load()}`);
  return { name: `editing a ${SIZE}³ segmentation together (${EDITORS} editors, ${FOLLOWERS} followers)`, lines };
}

/** Each op's answers (p50 / p99, how many) and the voxels its edits changed (p50 / max). */
function byOp(kept: Made[]): string {
  const ops = [...new Set(kept.map((m) => m.op!))].sort();
  return ops
    .map((op) => {
      const mine = kept.filter((m) => m.op === op);
      const [ms, voxels] = [mine.map((m) => m.ms), mine.map((m) => m.voxels ?? 0)];
      const changed = `voxels p50 ${percentile(voxels, 50)}, max ${Math.max(...voxels)}`;
      return `${op} ${fmt(percentile(ms, 50), 1)} / ${fmt(percentile(ms, 99), 1)} ms (${mine.length}; ${changed})`;
    })
    .join('; ');
}

/** The layer's labels at `version` (absent: the current one): the voxels, a hash of the answer's bytes, its result id and version. */
async function labelsOf(room: string, version?: number): Promise<{ volume: DecodedVolume; hash: string; resultId: string; version: number }> {
  const answer = await fetch(`${room}/layers/seg/labels${version === undefined ? '' : `?version=${version}`}`);
  if (answer.status !== 200) throw new Error(`labels answered ${answer.status}: ${await answer.text()}`);
  const bytes = new Uint8Array(await answer.arrayBuffer());
  return {
    volume: decodeEnvelope(bytes) as DecodedVolume,
    hash: createHash('sha256').update(bytes).digest('hex'),
    resultId: answer.headers.get('x-result-id')!,
    version: Number(answer.headers.get('x-labels-version')),
  };
}

/**
 * Once edit `done` is answered: its version's result id (a HEAD of `.../labels?version=V`),
 * then the changed segment's coarsest fragments; ms from the edit sent, or why not.
 */
async function meshReady(hostUrl: string, room: string, done: Made, plan: PlannedEdit): Promise<number | string> {
  return coarsestRead(hostUrl, room, done, plan).catch((error: unknown) => String(error));
}

async function coarsestRead(hostUrl: string, room: string, done: Made, plan: PlannedEdit): Promise<number | string> {
  // A HEAD names the version without making its voxels.
  const version = await fetch(`${room}/layers/seg/labels?version=${done.version}`, { method: 'HEAD' });
  const id = version.headers.get('x-result-id');
  const namedAt = performance.now();
  if (version.status !== 200 || !id) return `version ${done.version}: ${version.status}`;
  const sidecar = await fetch(`${hostUrl}/api/results/${id}/meshes/${plan.changed}.json`);
  await sidecar.arrayBuffer();
  if (sidecar.status !== 200) return `segment ${plan.changed}: ${sidecar.status}`;
  const ms = performance.now() - done.sent;
  // Each sample as it comes, from the edit sent: answered, its version named (the HEAD), its coarsest fragments read.
  const named = fmt(namedAt - done.sent, 0);
  process.stderr.write(`editing: sample of version ${done.version}: answered ${fmt(done.ms, 0)} ms, named ${named} ms, coarsest ${fmt(ms, 0)} ms\n`);
  return ms;
}

/** Chunks (the host's) of the cube in which `now` differs from the generated base. */
function changedChunks(seg: Segmentation, now: DecodedVolume): number {
  const data = now.data as Uint32Array;
  const s = seg.size;
  const g = Math.ceil(s / CHUNK);
  const changed = new Set<number>();
  for (let i = 0; i < data.length; i++) {
    if (data[i] === seg.data[i]) continue;
    const [z, y, x] = [Math.floor(i / (s * s)), Math.floor(i / s) % s, i % s];
    changed.add((Math.floor(z / CHUNK) * g + Math.floor(y / CHUNK)) * g + Math.floor(x / CHUNK));
  }
  return changed.size;
}

/** What differs between two decoded volumes: their voxels, and each preamble field by name. */
function differences(a: DecodedVolume, b: DecodedVolume): string[] {
  const out: string[] = [];
  const [da, db] = [a.data as Uint32Array, b.data as Uint32Array];
  let voxels = 0;
  for (let i = 0; i < da.length; i++) if (da[i] !== db[i]) voxels++;
  if (voxels) out.push(`${voxels} voxels`);
  for (const key of new Set([...Object.keys(a.preamble), ...Object.keys(b.preamble)])) {
    const [was, is] = [JSON.stringify(a.preamble[key]), JSON.stringify(b.preamble[key])];
    if (was !== is) out.push(`${key}: ${was} then ${is}`);
  }
  return out;
}

/** Undos sent at once: edits undo newest first, but most of them share no voxel, so a window of them goes together. */
const UNDO_WINDOW = 8;

/**
 * Undoes every edit still in effect, newest first, a window at a time; an undo refused as in
 * the way of a later edit not undone yet (409) is sent again once the window's others are in.
 * Answers how many were undone.
 */
async function undoAll(room: string): Promise<number> {
  type Listed = { seq: number; undone_by?: number; edit: { op: string } };
  const edits: Listed[] = [];
  for (let since = 0, more = true; more; ) {
    const page = (await (await fetch(`${room}/layers/seg/edits?since=${since}&limit=10000`)).json()) as { edits: Listed[]; next_since: number; more: boolean };
    edits.push(...page.edits);
    [since, more] = [page.next_since, page.more];
  }
  let left = edits.filter((e) => e.edit.op !== 'undo' && e.edit.op !== 'redo' && e.undone_by === undefined).map((e) => e.seq).reverse();
  const total = left.length;
  while (left.length > 0) {
    const again: number[] = [];
    for (let at = 0; at < left.length; at += UNDO_WINDOW) {
      const window = left.slice(at, at + UNDO_WINDOW);
      await Promise.all(
        window.map(async (seq) => {
          const answer = await fetch(`${room}/layers/seg/edits/${seq}/undo`, { method: 'POST' });
          const text = await answer.text();
          if (answer.status === 409 && text.includes('SPC_ERR_EDIT_CONFLICT')) again.push(seq);
          else if (answer.status !== 201) throw new Error(`undo of ${seq} answered ${answer.status}: ${text}`);
        }),
      );
    }
    if (again.length === left.length) throw new Error(`undos of ${again.join(', ')} are refused each time`);
    left = again.sort((a, b) => b - a);
  }
  return total;
}
