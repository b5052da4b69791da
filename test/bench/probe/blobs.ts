/**
 * @module blobs
 * The probe's blob flood: 500 requests at once for random unknown blob ids (`GET
 * /api/blobs/<random sha256>`, from 50 loopback addresses) on a host whose blob store is a
 * real S3 (Swift). Every one is a store lookup the host cannot answer from memory; the host
 * bounds them (at once per host, per client) and refuses the rest with 503 and Retry-After.
 * Measures the catalog's (`GET /api/specimens`) p99 during the flood against its p99 idle just
 * before, and how the 500 were answered. The flood is sent by a process of its own
 * (blob-flood.mjs), so the bench's own event loop, busy with 500 answers, does not delay the
 * catalog requests it times. Five rounds of idle window then flood (VITRINE_PROBE_ROUNDS):
 * on a shared machine one window alone is noise. A first round before them is timed apart
 * and not counted: a host's first bursts compile the code paths they take.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fmt, percentile } from '../host-helpers.ts';
import { startS3Service } from './s3-service.ts';
import type { ProbePart } from './part.ts';

const FLOOD = 500;
const ADDRESSES = 50;
const IDLE_SAMPLES = 200;
/** Floods, each after its own idle window: the machine is shared, one window alone is noisy. */
const ROUNDS = Number(process.env.VITRINE_PROBE_ROUNDS ?? 5);

interface Answer {
  status: number;
  retryAfter: boolean;
}

/**
 * Starts blob-flood.mjs against `port`; `sending` resolves once it sends, `answered` with its
 * answers once every one came back.
 */
function startFlood(port: number, prefix: string): { sending: Promise<void>; answered: Promise<{ answers: Answer[]; ms: number }> } {
  const script = fileURLToPath(new URL('blob-flood.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, String(port), String(FLOOD), String(ADDRESSES), prefix], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let started: () => void = () => {};
  const sending = new Promise<void>((resolve) => (started = resolve));
  const answered = new Promise<{ answers: Answer[]; ms: number }>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('flooding\n')) started();
    });
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as { answers: Answer[]; ms: number });
      else reject(new Error(`the blob flood exited with ${code}: ${out}`));
    });
  });
  return { sending, answered };
}

async function catalogMs(base: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/api/specimens`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`the catalog answered ${res.status}`);
  return performance.now() - started;
}

/** The catalog's times during one flood of `prefix<random id>`, and the flood's answers. */
async function flooded(base: string, port: number, prefix: string): Promise<{ during: number[]; answers: Answer[]; ms: number }> {
  const flood = startFlood(port, prefix);
  let flooding = true;
  const done = flood.answered.finally(() => (flooding = false));
  await flood.sending;
  const during: number[] = [];
  while (flooding) during.push(await catalogMs(base));
  return { during, ...(await done) };
}

/**
 * One round: the catalog's times idle, during a flood of unknown blob ids, and during the
 * same flood on unknown specimen ids (a 404 from memory: what any 500 requests at once cost
 * the host, store lookups aside).
 */
async function round(base: string, port: number) {
  const idle: number[] = [];
  for (let i = 0; i < IDLE_SAMPLES; i++) idle.push(await catalogMs(base));
  const blobs = await flooded(base, port, '/api/blobs/');
  const plain = await flooded(base, port, '/api/specimens/');
  return { idle, ...blobs, plain: plain.during };
}

async function measure(): Promise<string[]> {
  const service = await startS3Service();
  try {
    const base = service.host.url;
    for (let i = 0; i < 20; i++) await catalogMs(base);
    // One flood of each kind first, not counted: a host's first burst compiles its code paths
    // (the 503 and 404 answers, the store client's), which a long-running host has done long ago.
    const warm = await round(base, service.host.port);
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) rounds.push(await round(base, service.host.port));
    const idle = rounds.flatMap((r) => r.idle);
    const during = rounds.flatMap((r) => r.during);
    const answers = rounds.flatMap((r) => r.answers);
    const plain = rounds.flatMap((r) => r.plain);
    const count = (test: (a: Answer) => boolean) => answers.filter(test).length;
    const other = count((a) => a.status !== 404 && a.status !== 503);
    const idleP99 = percentile(idle, 99);
    const busyP99 = percentile(during, 99);
    const each = rounds.map((r) => fmt(percentile(r.during, 99) / percentile(r.idle, 99))).join(', ');
    return [
      `catalog p99 idle ${fmt(idleP99, 1)} ms (${idle.length} requests, p50 ${fmt(percentile(idle, 50), 1)}), during the floods ${fmt(busyP99, 1)} ms ` +
        `(${during.length} requests, p50 ${fmt(percentile(during, 50), 1)}, max ${fmt(Math.max(...during), 1)})`,
      `catalog p99 during / idle: ${fmt(busyP99 / idleP99)} (target <= 2); each round's own: ${each}`,
      `control, the same floods on unknown specimen ids (404 from memory): catalog p99 ${fmt(percentile(plain, 99), 1)} ms ` +
        `(${plain.length} requests), ${fmt(percentile(plain, 99) / idleP99)} x idle`,
      `first (warm-up) round, not counted: catalog p99 idle ${fmt(percentile(warm.idle, 99), 1)} ms, ` +
        `during the blob flood ${fmt(percentile(warm.during, 99), 1)} ms, during the specimen flood ${fmt(percentile(warm.plain, 99), 1)} ms`,
      `the ${ROUNDS} x ${FLOOD} unknown ids, each flood answered in ${rounds.map((r) => fmt(r.ms, 0)).join(', ')} ms: ` +
        `404 ${count((a) => a.status === 404)}, 503 ${count((a) => a.status === 503)} (with Retry-After ${count((a) => a.status === 503 && a.retryAfter)}), ` +
        `other ${other}`,
    ];
  } finally {
    await service.stop();
  }
}

export const blobsPart: ProbePart = {
  name: 'blobs',
  title: `${ROUNDS} floods of ${FLOOD} GET /api/blobs/<random sha256> at once from ${ADDRESSES} addresses, S3 store (Swift)`,
  measure,
};
