/**
 * @module worker-command
 * `vitrine worker --redis URL [--plugins DIR] [--pool-size N] [--trust-keys DIR] [--signatures MODE] [--log-level L]`: a compute-only
 * process of a Redis service, with no HTTP. It loads the plugin bundles, takes computations
 * from the service's queue and runs them on its worker-thread pool; it prints `worker ready`
 * once it takes work. SIGTERM (or SIGINT): it takes nothing new and finishes what it runs (up
 * to 30 s; what is still running then is handed back to the service for another node).
 */
import { resolveHostOptions, type ResolvedHostOptions } from '../options.ts';
import { assembleWorker } from '../assembly/assemble-worker.ts';
import type { NodeLog } from '../scale/compute-node.ts';
import { readFlags } from './option-flags.ts';
import { untilSignalled } from './process-lifecycle.ts';
import { hostOptionsFrom, LOG_LEVELS } from './serve-options.ts';
import { Redactor, urlSecrets } from '../redact-credentials.ts';
import { fail, say } from './command-exit.ts';

export const WORKER_USAGE = `usage: vitrine worker --redis URL [options]

  --redis URL          the Redis service to compute for (redis://HOST:PORT[/DB])
  --blob-store URL     where the service's result bytes live, when its hosts have
                       --blob-store (give the same URL: redis://HOST:PORT[/DB] or
                       s3://BUCKET[/PREFIX]); default: the --redis Redis
  --s3-endpoint URL    the S3 endpoint of an s3:// blob store, as the hosts have it
                       (default: AWS_ENDPOINT_URL_S3, else AWS itself)
  --s3-timeout SECONDS an s3:// blob store silent this long fails the request (default 10)
  --plugins DIR        built plugin bundles (default build/out)
  --pool-size N        worker threads for plugin functions (default: one per core)
  --python PATH        the Python that runs Python plugins (default: python3, or
                       /usr/bin/python3 when only it has numpy)
  --python-processes N warm Python plugin processes (default: the pool size)
  --python-max-bytes N address space per Python process (default: half the memory)
  --python-max-children N
                       processes a Python plugin process may run besides itself (default 32)
  --room-threads N     threads one room may hold at once (default: half the pool, at least 1)
  --trust-keys DIR     public keys (*.pub) plugin bundles may be signed with, as the hosts have it
  --signatures MODE    off, warn or require: what a bundle's signature decides (default: warn
                       with --trust-keys, else off); give the workers what the hosts have
  --log-level L        error, warn, info or silent (default info)

Each option can also be set as VITRINE_<NAME>, e.g. VITRINE_REDIS=redis://127.0.0.1:6379.
`;

/**
 * Writes `ISO-time level vitrine worker: message` lines to standard error at `level` and above,
 * with credentials hidden by `redactor`.
 */
function stderrLog(level: string, redactor: Redactor): NodeLog {
  const rank = (l: string) => LOG_LEVELS.indexOf(l);
  // A lost Redis is retried every second: say so once, not once a retry.
  let last = '';
  const at = (l: string) => (said: string) => {
    const message = redactor.text(said);
    if (message === last) return;
    last = message;
    if (level !== 'silent' && rank(l) <= rank(level)) process.stderr.write(`${new Date().toISOString()} ${l} vitrine worker: ${message}\n`);
  };
  return { info: at('info'), warn: at('warn') };
}

/** The flags a worker takes, topic by topic (as option-flags.ts lists them). */
export const WORKER_FLAGS = [
  'redis', 'blob-store', 's3-endpoint', 's3-timeout',
  'plugins', 'pool-size', 'room-threads',
  'python', 'python-processes', 'python-max-bytes', 'python-max-children',
  'trust-keys', 'signatures', 'log-level',
] as const;

/**
 * The worker's options, read by the same flag reader and filled by the same defaults as a
 * host's: a worker is a host's compute half with no HTTP and no specimens directory.
 */
export function parseWorkerOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): ResolvedHostOptions | 'help' {
  const { get, help } = readFlags(argv, WORKER_FLAGS, env);
  if (help) return 'help';
  if (get('redis') === undefined) throw new Error('--redis URL is required');
  for (const flag of ['pool-size', 'room-threads'] as const) {
    const raw = get(flag);
    if (raw !== undefined && !(Number.isInteger(Number(raw)) && Number(raw) >= 1)) throw new Error(`--${flag} must be a positive integer, got '${raw}'`);
  }
  const options = resolveHostOptions({ ...hostOptionsFrom(get, '127.0.0.1', null), specimensDir: null });
  return { ...options, blobStore: options.blobStore ?? options.redis };
}

export async function runWorkerCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: ResolvedHostOptions;
  try {
    const parsed = parseWorkerOptions(argv, env);
    if (parsed === 'help') return say(WORKER_USAGE);
    options = parsed;
  } catch (error) {
    return fail(2, `vitrine worker: ${(error as Error).message}\n\n${WORKER_USAGE}`);
  }
  const log = stderrLog(
    options.logLevel === false ? 'silent' : options.logLevel,
    new Redactor([...urlSecrets(options.redis), ...urlSecrets(options.blobStore)]),
  );

  const { node, close } = await assembleWorker(options, log);
  // No forced exit: the node bounds its own drain and hands back what is still running.
  const ended = untilSignalled({
    name: 'vitrine worker',
    forceAfterMs: null,
    announce: (signal) => log.info(`${signal}: finishing ${node.running} running computations, taking no new ones`),
    shutdown: () => close(false),
  });
  process.stdout.write('worker ready\n');
  return ended;
}
