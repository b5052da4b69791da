/**
 * @module serve-options
 * `vitrine serve` flags (read as option-flags.ts reads every flag) and the host options
 * they give; `vitrine dev` takes the same, `vitrine worker` a subset.
 */
import { hostname } from 'node:os';
import { isRedisUrl, type HostOptions } from '../options.ts';
import { isS3Url } from '../s3-url.ts';
import {
  corsOrigin,
  directory,
  FLAGS,
  headsetTriangles,
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
import { chooseAdminToken, type AdminTokenChoice } from './lab-admin-token.ts';
import { redactUrl } from '../redact-credentials.ts';
import { chooseDataDir, type DataDirChoice } from './data-dir-choice.ts';
import { isIpOrCidr } from '../people-options.ts';

export const SERVE_USAGE = `usage: vitrine serve [options]

  --host H                   bind address (default 127.0.0.1)
  --port N                   port; 0 picks a free one (default 8000)
  --https-port N             also listen with TLS on port N (0 picks a free one): headset
                             browsers allow WebXR only on https:// origins (default: none)
  --tls-cert FILE            with --https-port: the certificate (PEM; a chain may follow)
  --tls-key FILE             with --https-port: its private key (PEM)
  --tls-dir DIR              with --https-port and no --tls-cert: where the self-signed
                             certificate is made once and kept (default: the user's config
                             folder, e.g. ~/.config/vitrine/tls)
  --specimens DIR            specimens directory, or none (default specimens)
  --plugins DIR              built plugin bundles, or none (default build/out)
  --cache-ttl S              room cache time-to-live in seconds (default 300)
  --job-ttl S                how long a finished job stays pollable, seconds (default 300)
  --pool-size N              worker threads for plugin functions (default: one per core)
  --python PATH              the Python that runs Python plugins (default: python3, or
                             /usr/bin/python3 when only it has numpy)
  --python-processes N       warm Python plugin processes (default: the pool size)
  --python-max-bytes N       address space per Python process, and the most one of its
                             results may declare (default: half the memory)
  --python-max-children N    processes a Python plugin process may run besides itself; past
                             it the process and all it started are ended (default 32)
  --compute-timeout S        seconds a request (/data, /invoke, a room's entry, MCP compute)
                             waits for a computation before a 504; jobs have their own limit
                             (default 600)
  --cache-max-bytes N        bytes of results held across rooms and finished jobs, least
                             recently used dropped first (default: a quarter of the memory)
  --cors-origin LIST         origins pages may read from, comma-separated (* for any), or none;
                             only origins named here may write from a browser (default *)
  --admin-token T            cache stats, cache clear, reload and /metrics need
                             Authorization: Bearer T; none leaves them open (default: open
                             on loopback; bound elsewhere, a random token printed at start)
  --max-jobs N               queued + running jobs; past it /start answers 503 (default 1000)
  --max-event-streams N      event streams open at once on this host; past it a new one
                             answers 503 with Retry-After (default 10000)
  --room-threads N           compute threads one room may hold; queued work is taken
                             round-robin across rooms (default: half the pool, at least 1)
  --redis URL                join the Redis service at redis://HOST:PORT[/DB]: every host with
                             the same URL serves the same rooms, jobs and progress
  --compute N                with --redis: threads this host lends to the service's
                             computations; 0 for a front end (default: the pool size)
  --blob-store URL           with --redis: keep result bytes in this Redis of their own
                             (redis://HOST:PORT[/DB], any maxmemory-policy; an evicted result
                             is computed again) or in an S3-compatible object store
                             (s3://BUCKET[/PREFIX]; credentials and region from the standard
                             AWS environment); default: the --redis Redis
  --s3-endpoint URL          the S3 endpoint of an s3:// blob store (default: AWS_ENDPOINT_URL_S3,
                             else AWS)
  --accel-redirect PREFIX    behind nginx: /data and /result answer X-Accel-Redirect:
                             PREFIX<blob id> and no body, for the cache in front to send the bytes
                             (clients that reach the host past nginx get no body)
  --relay                    relay mode: accept workers on /ws/federation/{worker_id}
  --join URL                 worker mode: join the relay at URL (http or https)
  --worker-id ID             this worker's id (default: the host name)
  --token T                  shared secret between relay and workers
  --envelope-media-type T    envelope media type (default application/x-service-envelope-v1)
  --log-level L              fatal, error, warn, info, debug, trace or silent (default info)
  --log-format F             pretty (time, level, message) or json lines (default: pretty
                             when standard error is a terminal, json otherwise)
  --no-viewer                do not serve the web viewer at /
  --client-profiles on|off   give known clients that cannot ask (User-Agent GodotEngine/...)
                             uint8 volumes of at most 256 per axis and meshes within
                             --headset-triangles (default on)
  --headset-triangles N      most triangles of a mesh sent to a headset client (default 500000)
  --mesh-lod-triangles N     levels of detail for mesh results over N triangles (default 300000)
  --request-timeout S        seconds a request's headers and body may take to arrive, else 408;
                             0 for none (default 30)
  --write-timeout S          seconds a response may make no progress because its client stopped
                             reading before it is closed; 0 for none (default 60)
  --max-event-loop-delay MS  shed requests with 503 while the event loop lags past MS
                             for about 3 s; 0 for never (default 1000)
  --max-rss BYTES            shed requests with 503 while resident memory is past BYTES;
                             0 for never (default 0; the V8 heap is always watched)
  --uploads on|off           accept file uploads at POST /api/uploads (default on)
  --max-upload-bytes N       largest accepted upload in bytes, else 413 (default 268435456)
  --upload-ttl S             seconds an upload is kept (default 3600)
  --max-delivery-bytes N     largest mesh a delivery makes (segment surfaces), else 413
                             (default a quarter of --cache-max-bytes)
  --published-ttl S          seconds a published specimen is kept (default 86400)
  --max-annotations N        annotations one room holds at most (default 100000)
  --snapshot-ttl S           seconds a room's snapshot and the bytes of its layers are kept,
                             whatever the room does next (default 2592000, 30 days)
  --data-dir DIR             where a lone host keeps rooms, scenes, annotations, snapshots,
                             uploads and published specimens, or none (memory only, lost at
                             exit); not used with --redis (default $XDG_DATA_HOME/vitrine,
                             else ~/.local/share/vitrine)
  --disk-cache-max-bytes N   bytes of computed layer results a lone host keeps in its data
                             folder, least recently used dropped first (default 10737418240)
  --log-ttl S                seconds a room's log keeps each change (default 2592000, 30 days)
  --plugin-versions N        versions of each plugin kept side by side after reloads; layers
                             pinned to one keep computing with it (default 3)
  --trust-keys DIR           Ed25519 public keys (PEM) plugin bundles' signatures are checked
                             against (vitrine sign writes them)
  --signatures MODE          off, warn (load, and show each plugin's signature) or require
                             (load only validly signed plugins); default warn with
                             --trust-keys, else off
  --allowed-hosts LIST       accepted Host header names, comma-separated, any port; * for any
                             (default: the bound address, localhost, 127.0.0.1 and [::1]; bound
                             beyond loopback also the machine's host name, <name>.local and
                             the addresses of its network interfaces)
  --trust-proxy LIST         addresses or CIDR ranges of login proxies, comma-separated: a
                             request from one of them is the user its --user-header names;
                             from anywhere else that header is ignored (default: none)
  --user-header H            the header a trusted login proxy names the user in
                             (default X-Forwarded-User)

Each option can also be set as VITRINE_<NAME>, e.g. VITRINE_PORT=9000 (an on/off flag:
VITRINE_RELAY=on or off; true/false, 1/0 and yes/no too).
`;

/** The TLS listener `--https-port` asks for, and where its certificate comes from. */
export interface HttpsOptions {
  port: number;
  certFile: string | null;
  keyFile: string | null;
  /** Folder of the kept self-signed certificate; null: the default folder. */
  dir: string | null;
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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

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
    ...{ headsetTriangles: headsetTriangles(get('headset-triangles')), meshLodTriangles: positiveInteger('mesh-lod-triangles', get('mesh-lod-triangles')) },
    ...peopleOptions(get),
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
  return {
    ...(versions !== undefined ? { pluginVersions: versions } : {}),
    ...(trustKeys !== undefined ? { trustKeys } : {}),
    ...(signatures !== undefined ? { signatures: signatures as 'off' | 'warn' | 'require' } : {}),
  };
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
