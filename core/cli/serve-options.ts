/**
 * @module serve-options
 * `vitrine serve` flags (read as option-flags.ts reads every flag) and the host options
 * they give; `vitrine dev` takes the same, `vitrine worker` a subset.
 *
 * The admin token of a host started from the command line: on loopback the admin routes stay
 * open unless `--admin-token` is given; bound to any other address a host reachable by a whole
 * network would otherwise let anyone list every room, clear the cache or reload, so it makes a
 * random token at start and says it once on standard output (`admin token: <T>`).
 * `--admin-token none` keeps the admin routes open on purpose, with a warning.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { isLoopbackAddress } from '../http/allowed-hosts.ts';
import { isRedisUrl, type HostOptions } from '../options.ts';
import { isS3Url } from '../blobs/s3-url.ts';
import {
  corsOrigin,
  directory,
  FLAGS,
  list,
  number,
  onOff,
  positiveInteger,
  pythonOptions,
  readFlags,
  type FlagName,
  type FlagReader,
} from './option-flags.ts';
import { prettyLogStream } from './pretty-log.ts';
import { redactUrl } from '../redact-credentials.ts';
import { chooseDataDir, type DataDirChoice } from './data-dir-choice.ts';
import { isIpOrCidr } from '../people/people-options.ts';
import { agentOptions } from './agent-flags.ts';
import { remoteOptions } from './remote-flags.ts';
import type { TlsSource } from '../tls/tls-credentials.ts';

/** The TLS listener `--https-port` asks for, and where its certificate comes from (each source null when not given). */
export interface HttpsOptions extends Required<TlsSource> {
  port: number;
}

export interface ServeOptions {
  host: string;
  port: number;
  /** null: plain HTTP only. */
  https: HttpsOptions | null;
  help: boolean;
  host_options: HostOptions;
  /** How the admin token was chosen (a line to print, a warning to log). */
  admin: AdminTokenChoice;
  /** Where the host keeps its work (a line to print, a warning to log). */
  data: DataDirChoice;
}

/** `--https-port` with its certificate options; refuses certificate options without it and a lone `--tls-cert` or `--tls-key`. */
function httpsOptions(get: (flag: 'https-port' | 'tls-cert' | 'tls-key' | 'tls-dir') => string | undefined): HttpsOptions | null {
  const port = number('https-port', get('https-port'), true);
  if (port !== undefined && port > 65535) throw new Error(`--https-port must be at most 65535, got ${port}`);
  const certFile = get('tls-cert') ?? null;
  const keyFile = get('tls-key') ?? null;
  const dir = get('tls-dir') ?? null;
  if (port === undefined) {
    const stray = certFile !== null ? '--tls-cert' : keyFile !== null ? '--tls-key' : dir !== null ? '--tls-dir' : null;
    if (stray) throw new Error(`${stray} needs --https-port (the TLS listener it is for)`);
    return null;
  }
  if ((certFile === null) !== (keyFile === null)) throw new Error('--tls-cert and --tls-key go together: give both, or neither for a self-signed certificate');
  return { port, certFile, keyFile, dir };
}

/** The `--admin-token` value that leaves the admin routes open. */
const NO_ADMIN_TOKEN = 'none';

export interface AdminTokenChoice {
  /** The token the host checks; null: admin routes open. */
  token: string | null;
  /** The line to print on standard output before `listening on`, when the token was made here. */
  announce: string | null;
  /** The warning to log, when the routes are left open beyond loopback. */
  warning: string | null;
}

/** Decides the admin token from the bind address and `--admin-token` (undefined: not given). */
function chooseAdminToken(boundHost: string, given: string | null | undefined): AdminTokenChoice {
  const beyondLoopback = !isLoopbackAddress(boundHost);
  if (given === NO_ADMIN_TOKEN) {
    const warning = beyondLoopback
      ? `--admin-token none: cache stats, cache clear, reload and /metrics are open to every client that reaches ${boundHost}`
      : null;
    return { token: null, announce: null, warning };
  }
  if (given) return { token: given, announce: null, warning: null };
  if (!beyondLoopback) return { token: null, announce: null, warning: null };
  const token = randomBytes(24).toString('base64url');
  return { token, announce: `admin token: ${token}`, warning: null };
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The host options the flags give, each checked with a readable message; what a flag leaves
 * unset stays undefined so that resolveHostOptions fills the one set of defaults.
 */
export function hostOptionsFrom(get: FlagReader, host: string, adminToken: string | null | undefined): HostOptions {
  const logLevel = get('log-level');
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel)) throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = get('log-format') ?? (process.stderr.isTTY ? 'pretty' : 'json');
  if (logFormat !== 'pretty' && logFormat !== 'json') throw new Error(`--log-format must be pretty or json, got '${logFormat}'`);
  const join = get('join');
  if (join !== undefined && !/^(https?|wss?):\/\//.test(join)) throw new Error(`--join must be an http(s) URL, got '${join}'`);
  const redis = get('redis');
  if (redis !== undefined && !isRedisUrl(redis))
    throw new Error(`--redis must be a URL like redis://127.0.0.1:6379 (optionally /DB), got '${redactUrl(redis)}'`);
  const compute = number('compute', get('compute'), true);
  if (compute !== undefined && redis === undefined) throw new Error('--compute needs --redis (a lone host computes on its --pool-size threads)');
  const maxEventStreams = number('max-event-streams', get('max-event-streams'), true);
  if (maxEventStreams === 0) throw new Error('--max-event-streams must be at least 1');
  const blobStore = get('blob-store');
  if (blobStore !== undefined && !isRedisUrl(blobStore) && !isS3Url(blobStore)) {
    throw new Error(`--blob-store must be a URL like redis://127.0.0.1:6380 (optionally /DB) or s3://BUCKET[/PREFIX], got '${redactUrl(blobStore)}'`);
  }
  const s3Endpoint = get('s3-endpoint');
  if (s3Endpoint !== undefined && !/^https?:\/\/[^/]/.test(s3Endpoint)) throw new Error(`--s3-endpoint must be an http(s) URL, got '${s3Endpoint}'`);
  const accelRedirect = get('accel-redirect');
  if (accelRedirect !== undefined && !/^\/\S*$/.test(accelRedirect))
    throw new Error(`--accel-redirect must be a path prefix starting with '/', like /_blobs/, got '${accelRedirect}'`);
  if (blobStore !== undefined && redis === undefined) throw new Error('--blob-store needs --redis (a lone host keeps results in its own memory)');
  return {
    host,
    allowedHosts: list(get('allowed-hosts')),
    requestTimeoutSeconds: number('request-timeout', get('request-timeout'), false),
    writeTimeoutSeconds: number('write-timeout', get('write-timeout'), false),
    maxEventLoopDelayMs: number('max-event-loop-delay', get('max-event-loop-delay'), false),
    maxRssBytes: number('max-rss', get('max-rss'), true),
    specimensDir: directory(get('specimens'), 'specimens'),
    pluginsDir: directory(get('plugins'), 'build/out'),
    cacheTtlSeconds: number('cache-ttl', get('cache-ttl'), false),
    jobTtlSeconds: number('job-ttl', get('job-ttl'), false),
    computeTimeoutSeconds: positiveNumber('compute-timeout', get('compute-timeout')),
    poolSize: number('pool-size', get('pool-size'), true),
    ...pythonOptions(get),
    cacheMaxBytes: number('cache-max-bytes', get('cache-max-bytes'), true),
    maxJobs: number('max-jobs', get('max-jobs'), true),
    maxEventStreams,
    corsOrigin: corsOrigin(get('cors-origin')),
    adminToken,
    roomThreads: number('room-threads', get('room-threads'), true),
    relay: onOff('relay', get('relay')) ?? false,
    redis: redis ?? null,
    compute: compute ?? null,
    blobStore: blobStore ?? null,
    s3Endpoint: s3Endpoint ?? null,
    s3TimeoutSeconds: positiveNumber('s3-timeout', get('s3-timeout')),
    accelRedirect: accelRedirect ?? null,
    join: join ?? null,
    workerId: get('worker-id') ?? hostname(),
    token: get('token') ?? null,
    envelopeMediaType: get('envelope-media-type'),
    logLevel: logLevel as HostOptions['logLevel'],
    ...(logFormat === 'pretty' ? { logStream: prettyLogStream() } : {}),
    uploads: onOff('uploads', get('uploads')),
    maxUploadBytes: number('max-upload-bytes', get('max-upload-bytes'), true),
    uploadTtlSeconds: number('upload-ttl', get('upload-ttl'), false),
    maxDeliveryBytes: number('max-delivery-bytes', get('max-delivery-bytes'), true),
    publishedTtlSeconds: number('published-ttl', get('published-ttl'), false),
    diskCacheMaxBytes: number('disk-cache-max-bytes', get('disk-cache-max-bytes'), true),
    maxAnnotations: positiveInteger('max-annotations', get('max-annotations')),
    snapshotTtlSeconds: number('snapshot-ttl', get('snapshot-ttl'), false),
    logTtlSeconds: number('log-ttl', get('log-ttl'), false),
    ...pluginTrustOptions(get),
    viewer: !(onOff('no-viewer', get('no-viewer')) ?? false),
    clientProfiles: onOff('client-profiles', get('client-profiles')),
    headsetTriangles: positiveInteger('headset-triangles', get('headset-triangles')),
    meshLodTriangles: positiveInteger('mesh-lod-triangles', get('mesh-lod-triangles')),
    ...peopleOptions(get),
    ...agentOptions(get),
    ...remoteOptions(get),
  };
}

/** `--plugin-versions`, `--trust-keys` and `--signatures`. */
function pluginTrustOptions(get: FlagReader): Pick<HostOptions, 'pluginVersions' | 'trustKeys' | 'signatures'> {
  const versions = positiveInteger('plugin-versions', get('plugin-versions'));
  const trustKeys = get('trust-keys');
  const signatures = get('signatures');
  if (signatures !== undefined && !['off', 'warn', 'require'].includes(signatures))
    throw new Error(`--signatures must be off, warn or require, got '${signatures}'`);
  if (signatures === 'require' && trustKeys === undefined)
    throw new Error('--signatures require needs --trust-keys DIR (the public keys bundles must be signed with)');
  return { pluginVersions: versions, trustKeys, signatures: signatures as HostOptions['signatures'] };
}

/** `--trust-proxy` and `--user-header` (the data folder users are kept in is the host's own, chooseDataDir). */
function peopleOptions(get: FlagReader): Pick<HostOptions, 'trustProxy' | 'userHeader'> {
  const trustProxy = list(get('trust-proxy')) ?? undefined;
  const bad = trustProxy?.find((entry) => !isIpOrCidr(entry));
  if (bad !== undefined) throw new Error(`--trust-proxy takes IP addresses or CIDR ranges (like 10.0.0.0/8,::1), got '${bad}'`);
  return { trustProxy, userHeader: get('user-header') };
}

/** A number of seconds that must be above 0. */
function positiveNumber(flag: FlagName, raw: string | undefined): number | undefined {
  const value = number(flag, raw, false);
  if (value === 0) throw new Error(`--${flag} must be above 0`);
  return value;
}

const SERVE_FLAGS = Object.keys(FLAGS).filter((name): name is FlagName => name !== 'help');

/** Parses `vitrine serve` flags and environment; throws an Error with a readable message on bad input. */
export function parseServeOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const { get, help } = readFlags(argv, SERVE_FLAGS, env);
  const port = number('port', get('port'), true) ?? 8000;
  if (port > 65535) throw new Error(`--port must be at most 65535, got ${port}`);
  const host = get('host') ?? '127.0.0.1';
  const admin = chooseAdminToken(host, get('admin-token'));
  const data = chooseDataDir(get('data-dir'), get('redis') !== undefined, env, get('join') !== undefined);
  const host_options = { ...hostOptionsFrom(get, host, admin.token), dataDir: data.dir };
  return { host, port, https: httpsOptions(get), help, admin, data, host_options };
}
