/**
 * @module swift-server
 * A real S3-compatible object store for the tests: Debian's OpenStack Swift as an all-in-one
 * (a proxy with the s3api and tempauth middlewares, and an account, a container and an object
 * server, all four in one Python process: swift-scripts.ts) in a temporary folder, on free
 * loopback ports. Rings of one replica are built there with Swift's ring builder (the library
 * `swift-ring-builder` runs); objects live on a plain folder (mount_check off). The tempauth
 * user `vitrine:tester` with key `secret` is the S3 access key and secret. Resolves once the
 * proxy answers an S3 request. Every server still running is stopped when the test file ends.
 * Clients reach the proxy through a TCP gate (tcp-gate.ts), which stands for its faults without
 * the seconds of Python a restarted proxy costs: `outage()` refuses connections and `restore()`
 * takes them again on the same port with the same objects; `freeze()` and `thaw()` take
 * connections and answer nothing, then go on (a store stopped in its tracks and continued).
 * A missing `swift-proxy-server` is a failure with the install hint, never a skip.
 *
 * @example
 * const swift = await startSwift();
 * const env = swift.env; // AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL_S3
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { waitFor } from './wait-for.ts';
import { freePort } from './free-port.ts';
import { atFileEnd } from './file-end.ts';
import { startTcpGate, type TcpGate } from './tcp-gate.ts';
import { CLUSTER_SCRIPT } from './swift-scripts.ts';

export interface SwiftServer {
  /** `http://127.0.0.1:<proxy port>`: the S3 endpoint. */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** The standard AWS variables naming this store and its credentials, for a host process. */
  env: Record<string, string>;
  /** The store unreachable (connections refused) until `restore()`, its objects kept. */
  outage(): Promise<void>;
  /** The store reachable again; resolves once it answers. */
  restore(): Promise<void>;
  /** The store stopped in its tracks: connections are taken, nothing is answered. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

const SERVERS = ['account', 'container', 'object'] as const;
const READY_LIMIT_MS = 90_000;
const live = new Set<ChildProcess>();
const dirs = new Set<string>();
const gates = new Set<TcpGate>();

/** The [DEFAULT] section every server of the cluster shares (after its own `first` lines): loopback, one process, quiet. */
function defaults(dir: string, port: number, first = ''): string {
  return `[DEFAULT]
${first}bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
swift_dir = ${dir}
log_level = WARNING
`;
}

function serverConf(dir: string, name: string, port: number): string {
  return `${defaults(dir, port, `devices = ${dir}/node\nmount_check = false\n`)}[pipeline:main]
pipeline = ${name}-server
[app:${name}-server]
use = egg:swift#${name}
`;
}

/** The proxy's filters, in its pipeline's order of first use: section name, Swift entry point, its own setting. */
const PROXY_FILTERS: readonly (readonly [string, string, string?])[] = [
  ['catch_errors', 'catch_errors'],
  ['gatekeeper', 'gatekeeper'],
  ['proxy-logging', 'proxy_logging'],
  ['cache', 'memcache'],
  ['listing_formats', 'listing_formats'],
  ['s3api', 's3api'],
  ['tempauth', 'tempauth', 'user_vitrine_tester = secret .admin'],
  ['copy', 'copy'],
  ['slo', 'slo'],
  ['dlo', 'dlo'],
];

function proxyConf(dir: string, port: number): string {
  // slo is what s3api's multipart uploads complete into; copy and dlo come with it.
  return `${defaults(dir, port)}[pipeline:main]
pipeline = catch_errors gatekeeper proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server
[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
${PROXY_FILTERS.map(([name, egg, more]) => `[filter:${name}]\nuse = egg:swift#${egg}\n${more ? `${more}\n` : ''}`).join('')}`;
}

/** Whether the proxy answers S3 at all (any HTTP status is an answer). */
async function answers(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  live.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await gone;
  clearTimeout(timer);
}

export async function startSwift(): Promise<SwiftServer> {
  if (!existsSync('/usr/bin/swift-proxy-server'))
    throw new Error('swift-proxy-server is not installed: apt-get install swift-proxy swift-account swift-container swift-object (.ci/run installs them)');
  const dir = await mkdtemp(join(tmpdir(), 'vitrine-swift-'));
  dirs.add(dir);
  await mkdir(join(dir, 'node', 'd1'), { recursive: true });
  const ports = { proxy: await freePort(), account: await freePort(), container: await freePort(), object: await freePort() };
  for (const name of SERVERS) await writeFile(join(dir, `${name}.conf`), serverConf(dir, name, ports[name]));
  await writeFile(join(dir, 'proxy.conf'), proxyConf(dir, ports.proxy));
  const children: ChildProcess[] = [];
  let output = '';
  // Rings and servers in one process, with Swift's own interpreter (its packages are not on every python3's path).
  const python = (await readFile('/usr/bin/swift-ring-builder', 'utf8')).split('\n')[0]!.replace(/^#!\s*/, '').trim();
  const rings = SERVERS.map((name) => `${name}=${ports[name]}`);
  const child = spawn(python, ['-c', CLUSTER_SCRIPT, dir, ...rings], { stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  live.add(child);
  children.push(child);
  const gate = await startTcpGate(ports.proxy);
  gates.add(gate);
  const endpoint = `http://127.0.0.1:${gate.port}`;
  const answering = () =>
    waitFor(async () => {
      const dead = children.find((c) => c.exitCode !== null && live.has(c));
      if (dead) throw new Error(`a Swift server exited (${dead.exitCode}): ${output}`);
      return (await answers(endpoint)) || undefined;
    }, `Swift's proxy to answer on ${endpoint}`, READY_LIMIT_MS);
  try {
    await answering();
  } catch (error) {
    await Promise.all([gate.close(), ...children.map(stopChild)]);
    throw error;
  }
  const credentials = { accessKeyId: 'vitrine:tester', secretAccessKey: 'secret', region: 'us-east-1' };
  return {
    endpoint,
    ...credentials,
    env: {
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_REGION: credentials.region,
      AWS_ENDPOINT_URL_S3: endpoint,
    },
    outage: () => gate.close(),
    async restore() {
      await gate.open();
      await answering();
    },
    freeze: () => gate.hold(),
    thaw: () => gate.release(),
    async stop() {
      gate.release();
      gates.delete(gate);
      await Promise.all([gate.close(), ...children.map(stopChild)]);
      dirs.delete(dir);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Whether S3 refused the request itself (a 4xx): trying it again would not help. */
function refused(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status !== undefined && status >= 400 && status < 500;
}

/**
 * Makes `bucket`. The proxy answers before its account and container servers take requests,
 * and meanwhile S3 calls get 503 ("reduce your request rate"): those are tried again.
 */
export async function createBucket(s3: S3Client, bucket: string): Promise<void> {
  // A refusal (an invalid name, say) ends the wait at once; a 503 or a dropped connection is
  // tried again.
  let fatal: unknown;
  await waitFor(async () => {
    try {
      await s3.send(new CreateBucketCommand({ Bucket: bucket }));
      return true;
    } catch (error) {
      // An earlier try went through though its answer was lost.
      if ((error as Error).name === 'BucketAlreadyOwnedByYou') return true;
      if (!refused(error)) throw error;
      fatal = error;
      return false;
    }
  }, `bucket ${bucket} in Swift`, READY_LIMIT_MS, 200);
  if (fatal) throw fatal;
  // A new container takes a moment to reach every Swift server: until an object can be
  // written to it, writes answer 503 or NoSuchBucket. Wait for a first write to go through.
  await waitFor(async () => {
    try {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'vitrine-ready-probe', Body: 'ok' }));
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'vitrine-ready-probe' }));
      return true;
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 503 || status === 404) return undefined;
      if (!refused(error)) throw error;
      fatal = error;
      return false;
    }
  }, `bucket ${bucket} taking writes`, READY_LIMIT_MS, 200);
  if (fatal) throw fatal;
}

/** Stops every Swift still running and removes its folder. */
export async function stopAllSwift(): Promise<void> {
  await Promise.all([...[...gates].map((gate) => gate.close()), ...[...live].map(stopChild)]);
  gates.clear();
  await Promise.all([...dirs].map((dir) => rm(dir, { recursive: true, force: true })));
  dirs.clear();
}

// Each test file stops the servers it started when it ends; a benchmark stops them itself.
atFileEnd(stopAllSwift);
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
