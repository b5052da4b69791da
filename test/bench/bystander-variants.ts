/**
 * @module bystander-variants
 * A bystander's small delivery variant beside busy clients: eight clients each ask for distinct
 * `max_triangles` variants of a 400k-triangle mesh (every one made anew on the encode threads)
 * while a ninth, from an address of its own, asks for distinct variants of a 20k-triangle
 * mesh. Gives the ninth's times with the eight idle and with them busy. The host tells clients
 * apart by address, so each client uses a loopback address of its own. The eight run in a
 * process of their own (variant-clients.mjs): read by the timing process, their megabytes
 * delayed its event loop and so the bystander's measured time. Used by
 * variants.bench.ts and probe.bench.ts.
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningHost } from '../helpers/spawn-host.ts';

/** A specimens dir with `smooth-volume` (smooth_volume) and `grid` (grid_mesh) of the bench plugin. */
export function variantSpecimens(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-variants-'));
  for (const [id, fn] of [['smooth-volume', 'smooth_volume'], ['grid', 'grid_mesh']]) {
    mkdirSync(path.join(dir, id!));
    writeFileSync(path.join(dir, id!, 'specimen.json'), JSON.stringify({ display_name: id, function_name: fn }));
  }
  return dir;
}

/** GET `pathname` with `headers` from `address` (a loopback address: the host tells clients apart by it). */
export function get(host: RunningHost, pathname: string, headers: Record<string, string>, address = '127.0.0.1'): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path: pathname, headers, localAddress: address, agent: new Agent() }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Starts variant-clients.mjs: `clients` busy clients on `port`, in a process of their own.
 * `stop` ends them and resolves with the variants they received.
 */
function startVariantClients(port: number, clients: number): { asking: Promise<void>; stop: () => Promise<number> } {
  const script = fileURLToPath(new URL('variant-clients.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, String(port), String(clients)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let started: () => void = () => {};
  const asking = new Promise<void>((resolve) => (started = resolve));
  const ended = new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('asking\n')) started();
    });
    child.once('exit', (code) => {
      const done = /done (\d+)/.exec(out);
      if (code === 0 && done) resolve(Number(done[1]));
      else reject(new Error(`the variant clients exited with ${code}: ${out}`));
    });
  });
  return {
    asking,
    stop: () => {
      child.kill('SIGTERM');
      return ended;
    },
  };
}

/**
 * The bystander's download times (ms, `samples` of each, in order), idle and beside the eight
 * busy clients (run by a process of their own, so reading their downloads does not delay this
 * one's timing), and how many variants the eight received meanwhile.
 */
export async function bystanderTimes(host: RunningHost, samples: number): Promise<{ idle: number[]; busy: number[]; heavyVariants: number }> {
  const mesh = (room: string, extra = '') => `/api/specimens/grid/data?params=%7B%22triangles%22%3A400000%7D&room_id=${room}${extra}`;
  const small = '/api/specimens/grid/data?params=%7B%22triangles%22%3A20000%7D&room_id=bystander';
  const gzip = { 'accept-encoding': 'gzip' };
  // The results computed first: what follows is variant work only.
  for (let c = 0; c < 8; c++) await get(host, mesh(`heavy-${c}`), { 'accept-encoding': 'identity' });
  await get(host, small, { 'accept-encoding': 'identity' });
  const timed = async (max: number) => {
    const res = await get(host, `${small}&max_triangles=${max}`, gzip, '127.0.0.9');
    if (res.status !== 200) throw new Error(`the bystander's variant answered ${res.status}`);
    return res.ms;
  };
  const idle: number[] = [];
  for (let i = 0; i < samples; i++) idle.push(await timed(19000 - i));
  const heavy = startVariantClients(host.port, 8);
  await heavy.asking;
  await new Promise((r) => setTimeout(r, 1000));
  const busy: number[] = [];
  for (let i = 0; i < samples; i++) busy.push(await timed(18000 - i));
  return { idle, busy, heavyVariants: await heavy.stop() };
}
