/**
 * @module shared-relay
 * A relay host's part in a Redis service (`--relay --redis URL`). Its workers' sockets end on
 * this host only, so it runs a compute node of its own on the relay lane of the work queue:
 * any host queues a relayed function's computation there, this node takes it and runs it on
 * the worker through the remote invoker, and progress, cancel and the result travel through
 * Redis like any computation's. Each worker's registration is written to Redis and announced,
 * so every host lists it (relay-mirror.ts); it is written again after every reconnection to
 * Redis, since a write may have failed while Redis was away. A worker leaving ends its running
 * computations as errors, withdraws its registration and drops its room entries service-wide.
 */
import type { Invoker } from '../invoke/invoker.ts';
import type { ServiceRelay, WorkerRegistration } from '../federation/service-relay.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import { ComputeNode, type ComputeNodeOptions } from './compute-node.ts';
import { CHANNELS, KEYS } from '../redis/redis-keys.ts';
import type { SharedRegistration } from './relay-mirror.ts';
import { describeRedisFailure } from '../redis/redis-unavailable.ts';
import { START_WAIT_MS, waitAtMost } from '../redis/time-limit.ts';

/**
 * Relayed computations run at once on the relay: each is a request waiting on a worker, not a
 * thread of this host, so many may wait together.
 */
const RELAY_CONCURRENCY = 64;

/** What the relay's compute node is made of beside its invoker; `nodeId` is apart from the host's own compute node's, which takes the other lane. */
export type SharedRelayDeps = Pick<ComputeNodeOptions, 'nodeId' | 'connections' | 'events' | 'blobs' | 'functions' | 'maxJobMessages' | 'log'>;

export class SharedRelay implements ServiceRelay {
  #deps: SharedRelayDeps;
  #node: ComputeNode | null = null;
  #shared = new Map<string, WorkerRegistration>();
  #stops: (() => void)[] = [];
  /** Where the other hosts fetch relayed specimens' files from (set once this host listens). */
  #url: string | null = null;

  constructor(deps: SharedRelayDeps) {
    this.#deps = deps;
  }

  /** The relay node's id: registrations name it, and count while its heartbeat lives. */
  get nodeId(): string {
    return this.#deps.nodeId;
  }

  async serve(invoker: Invoker): Promise<void> {
    const d = this.#deps;
    // Only the functions of workers joined here: another relay's workers are listed on this
    // host too, and their computations are that relay's to take.
    const runs = (entry: FunctionEntry) => entry.source.kind === 'remote' && this.#shared.has(entry.source.workerId);
    const node = new ComputeNode({ ...d, invoker, lane: 'relay', runs, concurrency: RELAY_CONCURRENCY });
    this.#node = node;
    this.#stops.push(d.events.onResubscribed(() => void this.#shareAll()));
    // Waited for a while only, as the host's own compute node: a relay whose Redis is down at
    // start still accepts workers, and shares them once Redis comes.
    const started = node.start().then(
      () => this.#shareAll(),
      (error: Error) => d.log.warn(`relay node: ${describeRedisFailure(error)}`),
    );
    await waitAtMost(started, START_WAIT_MS);
  }

  async listening(baseUrl: string): Promise<void> {
    this.#url = baseUrl;
    await this.#shareAll();
  }

  async registered(workerId: string, registration: WorkerRegistration): Promise<void> {
    this.#shared.set(workerId, registration);
    // The node says it runs the new functions before any host lists them.
    await this.#node?.announce();
    await this.#share(workerId, registration);
  }

  async departed(workerId: string, reason: string): Promise<void> {
    this.#shared.delete(workerId);
    const prefix = `${workerId}:`;
    // Ended first, with the worker's reason, before any host could see its functions gone.
    await this.#node?.failWhere((fn) => fn.startsWith(prefix), reason, 'SPC_ERR_WORKER_DISCONNECTED');
    await this.#withdraw(workerId);
    await this.#node?.announce();
    await this.#deps.connections.command.vForgetPrefix(prefix);
  }

  async #share(workerId: string, registration: WorkerRegistration): Promise<void> {
    const shared: SharedRegistration = { node: this.nodeId, ...(this.#url ? { url: this.#url } : {}), ...registration };
    await this.#deps.connections.command.multi().hset(KEYS.relayWorkers, workerId, JSON.stringify(shared)).publish(CHANNELS.relay, workerId).exec();
  }

  async #shareAll(): Promise<void> {
    await Promise.all([...this.#shared].map(([workerId, registration]) => this.#share(workerId, registration))).catch((error: Error) =>
      this.#deps.log.warn(`relayed workers could not be shared: ${describeRedisFailure(error)}`),
    );
  }

  /** Removes the worker's registration, unless another relay has registered it since. */
  async #withdraw(workerId: string): Promise<void> {
    const redis = this.#deps.connections.command;
    const raw = await redis.hget(KEYS.relayWorkers, workerId);
    if (raw && (JSON.parse(raw) as SharedRegistration).node !== this.nodeId) return;
    await redis.multi().hdel(KEYS.relayWorkers, workerId).publish(CHANNELS.relay, workerId).exec();
  }

  /** Withdraws every registration still shared (the relay shuts down) and stops the node. */
  async close(): Promise<void> {
    for (const stop of this.#stops.splice(0)) stop();
    const workers = [...this.#shared.keys()];
    this.#shared.clear();
    await Promise.all(workers.map((workerId) => this.#withdraw(workerId))).catch(() => {});
    await this.#node?.close(true);
  }
}
