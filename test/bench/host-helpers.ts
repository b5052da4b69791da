/**
 * Shared pieces of the host benchmarks: spawning a host on the bench plugin, a streaming
 * download that counts bytes, and percentiles.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';

export function buildBenchPlugins(): string {
  const out = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-plugins-'));
  execFileSync(process.execPath, [CLI, 'build', path.join(REPO, 'test/fixtures/bench-plugins'), '--out', out], { cwd: REPO });
  return out;
}

/** A specimens dir exposing the bench functions as dynamic specimens. */
export function benchSpecimens(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-specimens-'));
  for (const fn of ['float_volume', 'grid_mesh', 'burn', 'pulse']) {
    mkdirSync(path.join(dir, fn));
    writeFileSync(path.join(dir, fn, 'specimen.json'), JSON.stringify({ display_name: fn, function_name: fn }));
  }
  return dir;
}

/** The arguments of a bench host on `plugins` and `specimens`, on a free port, logging from `logLevel`. */
export function benchHostArgs(plugins: string, specimens: string, logLevel = 'warn'): string[] {
  return ['--port', '0', '--plugins', plugins, '--specimens', specimens, '--log-level', logLevel];
}

export async function startBenchHost(extra: string[] = []): Promise<RunningHost> {
  return spawnHost([...benchHostArgs(buildBenchPlugins(), benchSpecimens()), ...extra]);
}

/**
 * A bare server to measure a host against: `script` run by `node -e` with `args`, resolved
 * once it prints `listening on URL`; `stop` kills it.
 */
export function startScriptServer(
  script: string,
  args: string[] = [],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', script, ...args], { ...options, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, pid: child.pid!, stop: () => child.kill('SIGKILL') });
    });
    child.once('exit', (code) => reject(new Error(`baseline exited ${code}`)));
  });
}

/**
 * A child process serving on GET / the bytes `bytesFromUrl` answers a request without
 * Accept-Encoding: with node:http under a minimal head, with node:http under the same head
 * the URL answered with (`node-same-head`: every header but Date and the connection ones),
 * or with fastify. Resolves its URL and pid.
 */
export function startBaseline(kind: 'node' | 'node-same-head' | 'fastify', bytesFromUrl: string): Promise<{ url: string; pid: number; stop: () => void }> {
  const fetchBytes = `const get=(u)=>new Promise((ok,no)=>require('node:http').get(u,(r)=>{const ` +
    `c=[];r.on('data',(d)=>c.push(d));r.on('end',()=>ok({headers:r.headers,buf:Buffer.concat(c)}))}).on('error',no));`;
  const listening = (port: string) => `console.log('listening on http://127.0.0.1:'+${port})`;
  // node:http with the URL's own head (but Date and the connection headers), or a minimal one.
  const head =
    kind === 'node-same-head'
      ? `Object.fromEntries(Object.entries(headers).filter(([k])=>!['date','connection','keep-alive'].includes(k)))`
      : `{'content-type':'application/octet-stream','content-length':buf.length}`;
  const script =
    kind === 'fastify'
      ? `${fetchBytes}const ` +
        `f=require('fastify')();get(process.argv[1]).then(async({buf})=>{f.get('/',async(q,r)=>r.type('application/octet-stream').send(buf));await ` +
        `f.listen({port:0,host:'127.0.0.1'});${listening('f.server.address().port')}})`
      : `${fetchBytes}const http=require('node:http');get(process.argv[1]).then(({headers,buf})=>{const h=${head};const ` +
        `s=http.createServer((q,r)=>{r.writeHead(200,h);r.end(buf)});s.listen(0,'127.0.0.1',()=>${listening('s.address().port')})})`;
  return startScriptServer(script, [bytesFromUrl], { cwd: REPO });
}

/** Downloads a URL, counting bytes without keeping them; returns bytes and seconds. */
export function download(url: string, method = 'GET'): Promise<{ bytes: number; seconds: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ bytes, seconds: (performance.now() - started) / 1000, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** Starts `vitrine worker ...args` (2 threads, warnings only) and resolves once it prints `worker ready`. */
export function startBenchWorker(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'worker', ...args, '--pool-size', '2', '--log-level', 'warn'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('worker ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited ${code}`)));
  });
}
