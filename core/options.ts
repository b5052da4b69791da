/**
 * @module options
 * Host options: what `createApp` and `vitrine serve` accept, their defaults, and
 * `resolveHostOptions()` which checks them once at the boundary.
 */
import { availableParallelism, totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { ENVELOPE_MEDIA_TYPE } from './envelope/media-type.ts';
import { KEEPING_DEFAULTS, type KeepingOptions } from './durable/keeping-options.ts';
import { PLUGIN_DEFAULTS, type PluginOptions } from './bundles/plugin-options.ts';
import { checkPeopleOptions, PEOPLE_DEFAULTS, type PeopleHostOptions } from './people/people-options.ts';
import { AGENT_DEFAULTS, AGENT_NUMBER_RULES, checkAgentOptions, type AgentHostOptions } from './options/agent-options.ts';
import { JOB_DEFAULTS, JOB_NUMBER_RULES, type JobHostOptions } from './jobs/job-options.ts';
import { checkPythonOptions, PYTHON_DEFAULTS, PYTHON_NUMBER_RULES, type PythonHostOptions } from './python/python-options.ts';
import { redactUrl } from './redact-credentials.ts';
import { isS3Url } from './blobs/s3-url.ts';
import { checkRemoteOptions, REMOTE_DEFAULTS, REMOTE_NUMBER_RULES, type RemoteHostOptions } from './options/remote-options.ts';

export type HostMode = 'local' | 'relay' | 'worker';

/** A Redis service's address: `redis://HOST:PORT[/DB]` (or `rediss://` for TLS; a password may go before the host). */
export function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\/[^/\s]+(\/\d+)?$/.test(value);
}

export interface HostOptions
  extends PluginOptions, PeopleHostOptions, KeepingOptions, AgentHostOptions, JobHostOptions, PythonHostOptions, RemoteHostOptions {
  /** Specimens directory (one folder with a specimen.json per specimen). @defaultValue `"specimens"` */
  specimensDir?: string | null;
  /** Directory of built plugin bundles. @defaultValue `"build/out"` */
  pluginsDir?: string | null;
  /** Room cache time-to-live in seconds. @defaultValue 300 */
  cacheTtlSeconds?: number;
  /** Worker threads for plugin functions. @defaultValue one per core */
  poolSize?: number;
  /** Grace period between a cooperative cancel and terminating the worker thread, ms. @defaultValue 300 */
  cancelGraceMs?: number;
  /**
   * Longest a request waits for a computation (`/data`, `/invoke`, a room's entry, the agents'
   * `compute`), seconds (`--compute-timeout`): then it answers 504, and the computation stops
   * unless another request still waits for it. Jobs have `jobTimeoutSeconds`. @defaultValue 600
   */
  computeTimeoutSeconds?: number;
  /** Media type of envelope responses. @defaultValue `"application/x-service-envelope-v1"` */
  envelopeMediaType?: string;
  /** Largest accepted request body in bytes. @defaultValue 1 MiB */
  bodyLimitBytes?: number;
  /** Longest accepted `params` query string, in characters. @defaultValue 16384 */
  maxParamsLength?: number;
  /** Largest typed result (bytes of array data) returned as JSON by /invoke and /result. @defaultValue 256 MiB */
  maxJsonResultBytes?: number;
  /** Event streams (SSE) open at once on this host; past it a new stream gets 503 with Retry-After. @defaultValue 10000 */
  maxEventStreams?: number;
  /**
   * Bytes of every result the host holds (room entries and finished jobs' results, each
   * counted once); least recently used go first. @defaultValue a quarter of the machine's memory
   */
  cacheMaxBytes?: number;
  /**
   * Compute threads one room may hold at once; queued work is taken round-robin across rooms.
   * @defaultValue half the compute threads, at least 1
   */
  roomThreads?: number | null;
  /** Room id used when a request names none. @defaultValue `"service"` */
  defaultRoomId?: string;
  /** Serve the web viewer at `/`. @defaultValue true */
  viewer?: boolean;
  /** Give known clients that cannot ask (the Godot headset client) a delivery they can show. @defaultValue true */
  clientProfiles?: boolean;
  /** Most triangles a mesh sent to a headset client has (simplified when over). @defaultValue 500000 */
  headsetTriangles?: number;
  /** A mesh result over this many triangles gets levels of detail (`/api/results/{id}/meshes/`), as every labels result does. @defaultValue 300000 */
  meshLodTriangles?: number;
  /** Logger: false, or a pino level. @defaultValue `"info"` */
  logLevel?: false | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Where logs go (pino destination stream). @defaultValue process.stderr */
  logStream?: NodeJS.WritableStream;
  /** Relay mode: accept workers on /ws/federation/{worker_id}. @defaultValue false */
  relay?: boolean;
  /** Worker mode: the relay URL to join. @defaultValue null */
  join?: string | null;
  /** This worker's id. @defaultValue the host name */
  workerId?: string | null;
  /** Shared secret between relay and workers. @defaultValue null */
  token?: string | null;
  /** CORS: `*`, a comma-separated list of origins, or `none`. @defaultValue `"*"` */
  corsOrigin?: string;
  /** When set, cache stats, cache clear, reload and /metrics need `Authorization: Bearer` it. @defaultValue null */
  adminToken?: string | null;
  /** The address the host is bound to (decides the default `allowedHosts`). @defaultValue `"127.0.0.1"` */
  host?: string;
  /** Seconds a request's headers and body may take to arrive (else 408); 0 for no limit. @defaultValue 30 */
  requestTimeoutSeconds?: number;
  /** Seconds a response may make no progress because its client stopped reading (then it is destroyed); 0 for no limit. @defaultValue 60 */
  writeTimeoutSeconds?: number;
  /** Sustained event-loop delay past which requests are shed with 503, ms; 0 for never. @defaultValue 1000 */
  maxEventLoopDelayMs?: number;
  /** V8 heap in use past which requests are shed with 503, bytes; 0 for never. @defaultValue 90% of the heap limit */
  maxHeapUsedBytes?: number;
  /** Resident memory past which requests are shed with 503, bytes; 0 for never. @defaultValue 0 */
  maxRssBytes?: number;
  /** A Redis service to join (`redis://HOST:PORT[/DB]`); null: this host alone, in memory. @defaultValue null */
  redis?: string | null;
  /** With `redis`: threads this host lends to the service's computations (0: a front end). @defaultValue the pool size */
  compute?: number | null;
  /**
   * With `redis`: where result bytes go: a Redis of their own (`redis://HOST:PORT[/DB]`, any
   * eviction policy) or an S3-compatible object store (`s3://BUCKET[/PREFIX]`); null: the `redis` one.
   * @defaultValue null
   */
  blobStore?: string | null;
  /** The S3 endpoint of an `s3://` blob store; null: `AWS_ENDPOINT_URL_S3`, else AWS. @defaultValue null */
  s3Endpoint?: string | null;
  /**
   * Longest an `s3://` blob store may take to answer a request, or stay silent within a
   * transfer, before the request fails with 503, seconds (`--s3-timeout`). @defaultValue 10
   */
  s3TimeoutSeconds?: number;
  /**
   * Behind a cache: `/data` and `/result` answer with `X-Accel-Redirect: <prefix><blob id>` and no
   * body, for the proxy in front to serve the bytes from its cache; null answers with the bytes. @defaultValue null
   */
  accelRedirect?: string | null;
  /** Accepted `Host` header names (any port; `*` accepts any); null: the defaults for `host`. @defaultValue null */
  allowedHosts?: string[] | null;
  /** Accept `POST /api/uploads`; false answers it 404. @defaultValue true */
  uploads?: boolean;
  /** Largest accepted upload, bytes (past it a 413). @defaultValue 268435456 */
  maxUploadBytes?: number;
  /** Largest mesh a delivery makes (estimated before building), else 413. @defaultValue a quarter of `cacheMaxBytes` */
  maxDeliveryBytes?: number;
  /** Annotations one room holds at most; a request that would pass it adds nothing (409). @defaultValue 100000 */
  maxAnnotations?: number;
}

export type ResolvedHostOptions = Required<Omit<HostOptions, 'logStream' | 'roomThreads' | 'compute' | 'pythonProcesses'>> & {
  roomThreads: number;
  pythonProcesses: number;
  compute: number;
  logStream: NodeJS.WritableStream;
  mode: HostMode;
};

export const HOST_DEFAULTS = Object.freeze({
  specimensDir: 'specimens',
  pluginsDir: 'build/out',
  cacheTtlSeconds: 300,
  poolSize: Math.max(1, availableParallelism()),
  cancelGraceMs: 300,
  computeTimeoutSeconds: 600,
  envelopeMediaType: ENVELOPE_MEDIA_TYPE,
  bodyLimitBytes: 1024 * 1024,
  maxParamsLength: 16384,
  maxJsonResultBytes: 256 * 1024 * 1024,
  maxEventStreams: 10_000,
  cacheMaxBytes: Math.floor(totalmem() / 4),
  roomThreads: null,
  defaultRoomId: 'service',
  viewer: true,
  clientProfiles: true,
  ...{ headsetTriangles: 500000, meshLodTriangles: 300000 },
  logLevel: 'info' as const,
  relay: false,
  join: null,
  workerId: null,
  token: null,
  corsOrigin: '*',
  adminToken: null,
  host: '127.0.0.1',
  allowedHosts: null,
  redis: null,
  compute: null,
  blobStore: null,
  s3Endpoint: null,
  s3TimeoutSeconds: 10,
  accelRedirect: null,
  requestTimeoutSeconds: 30,
  maxEventLoopDelayMs: 1000,
  maxHeapUsedBytes: Math.floor(getHeapStatistics().heap_size_limit * 0.9),
  maxRssBytes: 0,
  writeTimeoutSeconds: 60,
  uploads: true,
  maxUploadBytes: 268435456,
  maxAnnotations: 100_000,
  ...KEEPING_DEFAULTS, ...PLUGIN_DEFAULTS, ...PEOPLE_DEFAULTS, ...AGENT_DEFAULTS, ...JOB_DEFAULTS, ...PYTHON_DEFAULTS, ...REMOTE_DEFAULTS,
});

/** A numeric option's rule: a number above 0, or from 0 (`zero`); a whole one when `integer` (within 2^53 when `safe`). */
type NumberRule = { zero?: true; integer?: true; safe?: true };
const POSITIVE: NumberRule = {};
const NON_NEGATIVE: NumberRule = { zero: true };

/** The numeric options and their rules, in the order they are checked. */
const NUMBER_RULES: readonly (readonly [keyof typeof HOST_DEFAULTS, NumberRule])[] = [
  ['cacheTtlSeconds', POSITIVE],
  ['computeTimeoutSeconds', POSITIVE],
  ['cancelGraceMs', NON_NEGATIVE],
  ['bodyLimitBytes', POSITIVE],
  ['maxParamsLength', POSITIVE],
  ['maxJsonResultBytes', POSITIVE],
  ['maxEventStreams', { integer: true }],
  ['cacheMaxBytes', POSITIVE],
  ...(['headsetTriangles', 'meshLodTriangles'] as const).map((name) => [name, { integer: true, safe: true }] as const),
  ['poolSize', { integer: true }],
  ['requestTimeoutSeconds', NON_NEGATIVE],
  ['maxEventLoopDelayMs', NON_NEGATIVE],
  ['s3TimeoutSeconds', POSITIVE],
  ['maxHeapUsedBytes', NON_NEGATIVE],
  ['maxRssBytes', NON_NEGATIVE],
  ['writeTimeoutSeconds', NON_NEGATIVE],
  ['maxUploadBytes', POSITIVE],
  ['uploadTtlSeconds', POSITIVE],
  ['publishedTtlSeconds', POSITIVE],
  ['maxAnnotations', { integer: true, safe: true }],
  ['snapshotTtlSeconds', POSITIVE],
  ['logTtlSeconds', POSITIVE],
  ['diskCacheMaxBytes', { zero: true, integer: true, safe: true }],
  ['pluginVersions', { integer: true }],
  ...JOB_NUMBER_RULES,
  ...PYTHON_NUMBER_RULES,
  ...AGENT_NUMBER_RULES,
  ...REMOTE_NUMBER_RULES,
];

function checkNumber(name: string, value: unknown, rule: NumberRule): void {
  const whole = rule.safe ? Number.isSafeInteger(value) : Number.isInteger(value);
  const ok = rule.integer ? whole : typeof value === 'number' && Number.isFinite(value);
  if (!ok || (rule.zero ? (value as number) < 0 : (value as number) <= 0)) {
    throw new TypeError(`${name} must be a ${rule.zero ? 'non-negative' : 'positive'} ${rule.integer ? 'integer' : 'number'}, got ${String(value)}`);
  }
}

/** Fills defaults and checks every option; throws a TypeError naming the bad option. */
export function resolveHostOptions(options: HostOptions = {}): ResolvedHostOptions {
  const o = { ...HOST_DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  for (const [name, rule] of NUMBER_RULES) checkNumber(name, o[name], rule);
  if (typeof o.clientProfiles !== 'boolean') throw new TypeError('clientProfiles must be a boolean');
  if (typeof o.defaultRoomId !== 'string' || (o.defaultRoomId as string) === '') throw new TypeError('defaultRoomId must be a non-empty string');
  if (typeof o.host !== 'string' || (o.host as string) === '') throw new TypeError('host must be a non-empty string');
  if (o.allowedHosts !== null && (!Array.isArray(o.allowedHosts) || !(o.allowedHosts as unknown[]).every((h) => typeof h === 'string'))) {
    throw new TypeError('allowedHosts must be an array of host names or null');
  }
  if (o.relay && o.join) throw new TypeError('a host is either a relay (--relay) or a worker (--join), not both');
  if (o.redis !== null && (typeof o.redis !== 'string' || !isRedisUrl(o.redis as string))) {
    throw new TypeError(`redis must be a URL like redis://HOST:PORT[/DB], got '${redactUrl(String(o.redis))}'`);
  }
  if (o.blobStore !== null && (typeof o.blobStore !== 'string' || !(isRedisUrl(o.blobStore as string) || isS3Url(o.blobStore as string)))) {
    throw new TypeError(`blobStore must be a URL like redis://HOST:PORT[/DB] or s3://BUCKET[/PREFIX], got '${redactUrl(String(o.blobStore))}'`);
  }
  if (o.s3Endpoint !== null && (typeof o.s3Endpoint !== 'string' || !/^https?:\/\/[^/]/.test(o.s3Endpoint as string))) {
    throw new TypeError(`s3Endpoint must be an http(s) URL, got '${String(o.s3Endpoint)}'`);
  }
  if (o.accelRedirect !== null && (typeof o.accelRedirect !== 'string' || !/^\/[^\s]*$/.test(o.accelRedirect as string))) {
    throw new TypeError(`accelRedirect must be a path prefix starting with '/', got '${String(o.accelRedirect)}'`);
  }
  if (o.blobStore !== null && o.redis === null) throw new TypeError('blobStore needs redis (a lone host keeps results in its own memory)');
  const compute = o.compute ?? o.poolSize;
  checkNumber('compute', compute, { zero: true, integer: true });
  // In a Redis service the host's pool is what it lends: --compute sets its size.
  if (o.redis && compute > 0) o.poolSize = compute;
  const roomThreads = o.roomThreads ?? Math.max(1, Math.floor(o.poolSize / 2));
  checkNumber('roomThreads', roomThreads, { integer: true });
  const pythonProcesses = options.pythonProcesses ?? o.poolSize;
  checkNumber('pythonProcesses', pythonProcesses, { integer: true });
  checkPythonOptions(o);
  checkPeopleOptions(o);
  checkAgentOptions(o);
  checkRemoteOptions(o);
  const mode: HostMode = o.relay ? 'relay' : o.join ? 'worker' : 'local';
  const maxDeliveryBytes = options.maxDeliveryBytes ?? Math.floor(o.cacheMaxBytes / 4);
  return { ...o, maxDeliveryBytes, compute, roomThreads, pythonProcesses, logStream: options.logStream ?? process.stderr, mode } as ResolvedHostOptions;
}
