/**
 * @module load-shedding
 * Sheds load instead of slowing every client: while the event loop has lagged past its limit
 * for a sustained while (one long synchronous step, such as a rebuild, is not enough), or
 * memory is past its limit, requests get 503 with `Retry-After`. `/healthz` always answers.
 * Measured by @fastify/under-pressure.
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHostError } from '../errors.ts';

export interface LoadSheddingOptions {
  /** Event-loop delay (mean over a sample) past which the host is overloaded, ms; 0: never. */
  maxEventLoopDelayMs: number;
  /** V8 heap in use past which the host is overloaded, bytes; 0: never. */
  maxHeapUsedBytes: number;
  /** Resident memory past which the host is overloaded, bytes; 0: never. */
  maxRssBytes: number;
}

/** Seconds a shed client is asked to wait. */
export const RETRY_AFTER_SECONDS = 2;
const SAMPLE_MS = 500;
/** Consecutive lagging samples that make an overload (about 3 s of sustained lag). */
const LAGGING_SAMPLES = 6;
const EXEMPT_PATHS: ReadonlySet<string> = new Set(['/healthz']);

function describe(type: string, value: number | undefined): string {
  switch (type) {
    case 'eventLoopDelay':
      return `event loop delayed ${Math.round(value ?? 0)} ms`;
    case 'heapUsedBytes':
      return `heap at ${Math.round((value ?? 0) / 1048576)} MiB`;
    case 'rssBytes':
      return `memory at ${Math.round((value ?? 0) / 1048576)} MiB`;
    default:
      return type;
  }
}

export async function installLoadShedding(app: FastifyInstance, options: LoadSheddingOptions): Promise<void> {
  if (options.maxEventLoopDelayMs <= 0 && options.maxHeapUsedBytes <= 0 && options.maxRssBytes <= 0) return;
  let lagging = 0;
  const lagTimer = setInterval(() => {
    const delay = app.memoryUsage().eventLoopDelay;
    lagging = options.maxEventLoopDelayMs > 0 && delay > options.maxEventLoopDelayMs ? lagging + 1 : 0;
  }, SAMPLE_MS);
  lagTimer.unref();
  app.addHook('onClose', async () => clearInterval(lagTimer));
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    maxHeapUsedBytes: options.maxHeapUsedBytes,
    maxRssBytes: options.maxRssBytes,
    sampleInterval: SAMPLE_MS,
    // Passing lets the request through; a rejection goes to the error handler (JSON body, 503).
    pressureHandler: (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined): Promise<void> | undefined => {
      if (EXEMPT_PATHS.has(request.url.split('?')[0] ?? '')) return undefined;
      if (type === 'eventLoopDelay' && lagging < LAGGING_SAMPLES) return undefined;
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return Promise.reject(createHostError('SPC_ERR_OVERLOADED', describe(type, value)));
    },
  });
}
