/**
 * @module relay-mirror
 * Lists, on a host of a Redis service, the specimens and functions of workers joined to a
 * relay host elsewhere in the service (`<worker_id>:<id>`), as the relay shared them
 * (shared-relay.ts): read whole at start and after every reconnection (a change published
 * while the subscription was away is lost), and one worker at a time when its relay says it
 * changed. A registration counts only while its relay's node is alive: a relay that dies
 * without saying so is noticed within a heartbeat period or two, by one Redis command per
 * period and only while this host lists a relayed worker. Their functions run through the
 * relay lane of the work queue; the relay host itself lists its own workers directly.
 */
import type { Redis } from 'ioredis';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FetchedBody } from '../catalog/specimen-record.ts';
import { createHostError } from '../errors.ts';
import { applyRegistration, prefixed, withdrawRegistration, type RelayedLists, type RemoteFetch } from '../federation/remote-records.ts';
import type { WorkerRegistration } from '../federation/service-relay.ts';
import { HEARTBEAT_MS } from './compute-nodes.ts';
import type { NodeLog } from './compute-node.ts';
import { KEYS } from '../redis/redis-keys.ts';
import type { RedisEvents } from '../redis/redis-events.ts';
import { describeRedisFailure } from '../redis/redis-unavailable.ts';

/** A worker's registration as its relay shares it: which relay node runs it, and what it registered. */
export interface SharedRegistration extends WorkerRegistration {
  node: string;
  /** The relay host's HTTP address, which serves the specimens' files to the other hosts. */
  url?: string;
}

const FILE_NAME = /filename="([^"]+)"/;

/**
 * Fetches `<worker_id>:<id>`'s thumbnail and static data from the relay host at `baseUrl`: only
 * the relay holds the worker's socket, so the file is fetched over HTTP from the relay host (at
 * the address it shared when it listened, see shared-relay.ts), which fetches it from the worker,
 * and streamed through. A relay that cannot be reached, or answers other than 200, is a 502
 * naming the specimen.
 */
function relayHostFetch(baseUrl: string, workerId: string): RemoteFetch {
  return async (what, specimenId, signal): Promise<FetchedBody> => {
    const id = prefixed(workerId, specimenId);
    let response: Response;
    try {
      response = await fetch(`${baseUrl}/api/specimens/${encodeURIComponent(id)}/${what}`, { signal: signal ?? null, redirect: 'error' });
    } catch (error) {
      throw createHostError('SPC_ERR_RELAY_HOST_UNREACHABLE', id, `its relay host at ${baseUrl} cannot be reached (${(error as Error).message})`);
    }
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel().catch(() => {});
      throw createHostError('SPC_ERR_RELAY_HOST_UNREACHABLE', id, `its relay host answered ${response.status}`);
    }
    const length = Number(response.headers.get('content-length'));
    const fileName = FILE_NAME.exec(response.headers.get('content-disposition') ?? '')?.[1];
    return {
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      ...(Number.isFinite(length) && length >= 0 && response.headers.has('content-length') ? { length } : {}),
      ...(fileName ? { fileName } : {}),
      body: Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>),
    };
  };
}

function parse(raw: string | null): SharedRegistration | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<SharedRegistration>;
    if (typeof parsed.node !== 'string' || !Array.isArray(parsed.specimens) || !Array.isArray(parsed.functions)) return null;
    return parsed as SharedRegistration;
  } catch {
    return null;
  }
}

export class RelayMirror {
  #redis: Redis;
  #events: RedisEvents;
  #lists: RelayedLists;
  #log: NodeLog;
  /** This host's relay node, when it is a relay: its own workers are listed by its hub. */
  #self: string | null;
  /** Worker id → the relay node whose registration this host lists. */
  #listed = new Map<string, string>();
  #stops: (() => void)[] = [];
  #timer: NodeJS.Timeout | null = null;

  constructor(deps: { redis: Redis; events: RedisEvents; lists: RelayedLists; log: NodeLog; self: string | null }) {
    this.#redis = deps.redis;
    this.#events = deps.events;
    this.#lists = deps.lists;
    this.#log = deps.log;
    this.#self = deps.self;
  }

  /** Lists what is shared now and follows every change. */
  start(): Promise<void> {
    this.#stops.push(this.#events.onRelayChange((workerId) => void this.#readOne(workerId)));
    this.#stops.push(this.#events.onResubscribed(() => void this.#readAll()));
    return this.#readAll();
  }

  /** The relay nodes alive now. */
  async #liveNodes(): Promise<Set<string>> {
    return new Set(await this.#redis.zrangebyscore(KEYS.nodes, Date.now(), '+inf'));
  }

  async #readAll(): Promise<void> {
    try {
      const [all, live] = await Promise.all([this.#redis.hgetall(KEYS.relayWorkers), this.#liveNodes()]);
      for (const workerId of this.#listed.keys()) if (!(workerId in all)) this.#withdraw(workerId);
      for (const [workerId, raw] of Object.entries(all)) this.#apply(workerId, parse(raw), live);
    } catch (error) {
      this.#log.warn(`relayed workers could not be read: ${describeRedisFailure(error)}`);
    }
  }

  async #readOne(workerId: string): Promise<void> {
    try {
      const [raw, live] = await Promise.all([this.#redis.hget(KEYS.relayWorkers, workerId), this.#liveNodes()]);
      this.#apply(workerId, parse(raw), live);
    } catch (error) {
      this.#log.warn(`relayed worker ${workerId} could not be read: ${describeRedisFailure(error)}`);
    }
  }

  #apply(workerId: string, shared: SharedRegistration | null, live: Set<string>): void {
    if (shared && shared.node === this.#self) return;
    if (!shared || !live.has(shared.node)) {
      this.#withdraw(workerId);
      return;
    }
    // Only the relay holds the worker's socket: files come through the relay host.
    applyRegistration(this.#lists, workerId, shared, shared.url ? relayHostFetch(shared.url, workerId) : null);
    this.#listed.set(workerId, shared.node);
    this.#watchRelays();
  }

  #withdraw(workerId: string): void {
    if (!this.#listed.delete(workerId)) return;
    withdrawRegistration(this.#lists, workerId);
    if (this.#listed.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = null;
    }
  }

  /** While anything relayed is listed, drops what a relay that died without a word had shared. */
  #watchRelays(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.#liveNodes().then(
        (live) => {
          for (const [workerId, node] of [...this.#listed]) if (!live.has(node)) this.#withdraw(workerId);
        },
        () => {},
      );
    }, HEARTBEAT_MS).unref();
  }

  close(): void {
    for (const stop of this.#stops.splice(0)) stop();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}
