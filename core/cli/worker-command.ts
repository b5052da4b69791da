/**
 * @module worker-command
 * `vitrine worker --redis URL [--plugins DIR] [--pool-size N] [--log-level L]`: a compute-only
 * process of a Redis service, with no HTTP. It loads the plugin bundles, takes computations
 * from the service's queue and runs them on its worker-thread pool; it prints `worker ready`
 * once it takes work. SIGTERM (or SIGINT): it takes nothing new and finishes what it runs (up
 * to 30 s; what is still running then is handed back to the service for another node).
 */
import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';
import { EventHub } from '../events/event-hub.ts';
import { PooledInvoker } from '../invoke/pooled-invoker.ts';
import { RoomScheduler } from '../invoke/room-scheduler.ts';
import { FunctionRegistry } from '../registry/function-registry.ts';
import { reloadSources } from '../registry/reload-sources.ts';
import { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import { ComputeNode, type NodeLog } from '../scale/compute-node.ts';
import { RedisBlobStore } from '../scale/redis-blob-store.ts';
import { createRedisConnections } from '../scale/redis-connections.ts';
import { RedisEvents } from '../scale/redis-events.ts';
import { nodeIdOf } from '../scale/scale-service.ts';
import { isRedisUrl } from '../options.ts';
import { createPools } from '../workers/pool.ts';

export const WORKER_USAGE = `usage: vitrine worker --redis URL [options]

  --redis URL          the Redis service to compute for (redis://HOST:PORT[/DB])
  --blob-store URL     the Redis holding the service's result bytes, when its hosts have
                       --blob-store (give the same URL); default: the --redis Redis
  --plugins DIR        built plugin bundles (default build/out)
  --pool-size N        worker threads for plugin functions (default: one per core)
  --room-threads N     threads one room may hold at once (default: half the pool, at least 1)
  --log-level L        error, warn, info or silent (default info)

Each option can also be set as VITRINE_<NAME>, e.g. VITRINE_REDIS=redis://127.0.0.1:6379.
`;

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function stderrLog(level: string): NodeLog {
  const rank = (l: string) => LEVELS.indexOf(l);
  // A lost Redis is retried every second: say so once, not once a retry.
  let last = '';
  const at = (l: string) => (message: string) => {
    if (message === last) return;
    last = message;
    if (level !== 'silent' && rank(l) <= rank(level)) process.stderr.write(`${new Date().toISOString()} ${l} vitrine worker: ${message}\n`);
  };
  return { info: at('info'), warn: at('warn') };
}

function positiveInt(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${flag} must be a positive integer, got '${raw}'`);
  return n;
}

export async function runWorkerCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let redisUrl: string;
  let blobUrl: string;
  let pluginsDir: string;
  let poolSize: number;
  let roomThreads: number;
  let log: NodeLog;
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: { redis: { type: 'string' }, 'blob-store': { type: 'string' }, plugins: { type: 'string' }, 'pool-size': { type: 'string' }, 'room-threads': { type: 'string' }, 'log-level': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      process.stdout.write(WORKER_USAGE);
      return 0;
    }
    redisUrl = values.redis ?? env.VITRINE_REDIS ?? '';
    if (!isRedisUrl(redisUrl)) throw new Error(redisUrl ? `--redis must be a URL like redis://127.0.0.1:6379, got '${redisUrl}'` : '--redis URL is required');
    blobUrl = values['blob-store'] ?? env.VITRINE_BLOB_STORE ?? redisUrl;
    if (!isRedisUrl(blobUrl)) throw new Error(`--blob-store must be a URL like redis://127.0.0.1:6380, got '${blobUrl}'`);
    pluginsDir = values.plugins ?? env.VITRINE_PLUGINS ?? 'build/out';
    poolSize = positiveInt('pool-size', values['pool-size'] ?? env.VITRINE_POOL_SIZE) ?? Math.max(1, availableParallelism());
    roomThreads = positiveInt('room-threads', values['room-threads'] ?? env.VITRINE_ROOM_THREADS) ?? Math.max(1, Math.floor(poolSize / 2));
    const level = values['log-level'] ?? env.VITRINE_LOG_LEVEL ?? 'info';
    if (!LEVELS.includes(level)) throw new Error(`--log-level must be one of ${LEVELS.join(', ')}`);
    log = stderrLog(level);
  } catch (error) {
    process.stderr.write(`vitrine worker: ${(error as Error).message}\n\n${WORKER_USAGE}`);
    return 2;
  }

  const functions = new FunctionRegistry();
  const counts = await reloadSources({ specimensDir: null, pluginsDir }, functions, new SpecimenCatalog(() => {}));
  for (const line of counts.problems) log.warn(line);
  const scheduler = new RoomScheduler({ threads: poolSize, perRoom: roomThreads });
  const pools = await createPools({ computeThreads: scheduler.capacity, warmComputeThreads: scheduler.warmThreads });
  const connections = createRedisConnections(redisUrl, blobUrl);
  if (!(await connections.ready(10_000))) log.warn(`Redis at ${redisUrl} does not answer yet; computing starts when it does`);
  const events = new RedisEvents(connections.subscriber, new EventHub());
  await events.start();
  const node = new ComputeNode({
    nodeId: nodeIdOf('worker'),
    connections,
    events,
    // A worker keeps no results in memory: hosts read them from Redis.
    blobs: new RedisBlobStore(connections.blobs, null),
    functions,
    invoker: new PooledInvoker(pools.compute, scheduler, { cancelGraceMs: 300 }),
    concurrency: poolSize * 2,
    maxJobMessages: 10_000,
    log,
  });
  await node.start();
  log.info(`${functions.size} functions on ${poolSize} threads, computing for ${redisUrl}`);
  process.stdout.write('worker ready\n');

  return new Promise<number>((resolve) => {
    let closing = false;
    const shutdown = (signal: string) => {
      if (closing) process.exit(1);
      closing = true;
      log.info(`${signal}: finishing ${node.running} running computations, taking no new ones`);
      void node
        .close(false)
        .then(() => pools.destroy())
        .then(() => connections.close())
        .then(() => resolve(0), () => resolve(1));
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });
}
