/**
 * @module nginx-server
 * A real nginx (Debian's `/usr/sbin/nginx`) in front of real hosts, run with the project's own
 * configuration, docs/nginx.conf: its lines marked `# EDIT` are rewritten for a temporary
 * folder (pid, logs, cache), a free loopback port and the given upstream hosts; nothing else
 * changes. Started in the foreground with `-p TMPDIR`, resolved once it accepts connections.
 * `cacheLog()` reads the access log's `cache=` field per request. Every nginx still running
 * is stopped when the test file ends. A missing nginx is a failure with the install hint.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './wait-for.ts';
import { freePort } from './free-port.ts';
import { atFileEnd } from './file-end.ts';

export interface NginxServer {
  url: string;
  dir: string;
  /** The master process's id (its workers are its children). */
  pid: number;
  /** The access log's lines so far: the request line, status and `$upstream_cache_status`. */
  accessLog(): Promise<{ request: string; status: number; cache: string }[]>;
  stop(): Promise<void>;
}

const CONF = new URL('../../docs/nginx.conf', import.meta.url);
const live = new Set<ChildProcess>();
const dirs = new Set<string>();

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** docs/nginx.conf with its EDIT lines pointed at `dir`, `port` and `upstreams`. */
export function rewriteConf(text: string, dir: string, port: number, upstreams: number[], extra = ''): string {
  const lines: Record<string, string> = {
    pid: `pid ${dir}/nginx.pid;`,
    error_log: `error_log ${dir}/error.log warn;`,
    access_log: `access_log ${dir}/access.log vitrine;`,
    cache: `proxy_cache_path ${dir}/cache levels=1:2 keys_zone=vitrine_blobs:10m max_size=2g inactive=1d use_temp_path=off;`,
    upstream: upstreams.map((p) => `server 127.0.0.1:${p};`).join(' '),
    listen: `listen 127.0.0.1:${port};${extra ? ` ${extra}` : ''}`,
  };
  const seen = new Set<string>();
  const out = text.replace(/^(\s*).*# EDIT (\w+)\b.*$/gm, (_line, indent: string, name: string) => {
    if (!(name in lines)) throw new Error(`docs/nginx.conf: unknown EDIT mark '${name}'`);
    seen.add(name);
    return `${indent}${lines[name]}`;
  });
  for (const name of Object.keys(lines)) if (!seen.has(name)) throw new Error(`docs/nginx.conf has no line marked EDIT ${name}`);
  return out;
}

/**
 * Starts nginx on docs/nginx.conf in front of hosts on `upstreams`; `extra` is placed in its
 * server block (a benchmark's static location, say).
 */
export async function startNginx(upstreams: number[], extra = ''): Promise<NginxServer> {
  if (!existsSync('/usr/sbin/nginx')) throw new Error('nginx is not installed: apt-get install nginx (.ci/run installs it)');
  const dir = await mkdtemp(join(tmpdir(), 'vitrine-nginx-'));
  dirs.add(dir);
  // Run as root, nginx's workers drop to an unprivileged user: they must reach the folder.
  await chmod(dir, 0o777);
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  await writeFile(conf, rewriteConf(await readFile(CONF, 'utf8'), dir, port, upstreams, extra));
  const child = spawn('/usr/sbin/nginx', ['-p', dir, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  live.add(child);
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${output}`);
    return (await accepts(port)) || undefined;
  }, `nginx to listen on ${port}`);
  return {
    url: `http://127.0.0.1:${port}`,
    dir,
    pid: child.pid!,
    async accessLog() {
      const text = await readFile(join(dir, 'access.log'), 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const match = /"([^"]*)" (\d+) \d+ cache=(\S*)/.exec(line);
          return { request: match?.[1] ?? line, status: Number(match?.[2] ?? 0), cache: match?.[3] ?? '' };
        });
    },
    async stop() {
      await stopChild(child);
      dirs.delete(dir);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  live.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // SIGQUIT: a graceful stop; SIGTERM would do too, SIGKILL leaves the workers behind.
  child.kill('SIGQUIT');
  const timer = setTimeout(() => child.kill('SIGTERM'), 5000);
  await gone;
  clearTimeout(timer);
}

/** Stops every nginx still running and removes its folder. */
export async function stopAllNginx(): Promise<void> {
  await Promise.all([...live].map(stopChild));
  await Promise.all([...dirs].map((dir) => rm(dir, { recursive: true, force: true })));
  dirs.clear();
}

// Each test file stops the servers it started when it ends; a benchmark stops them itself.
atFileEnd(stopAllNginx);
process.once('exit', () => {
  for (const child of live) child.kill('SIGTERM');
});
