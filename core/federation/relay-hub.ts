/**
 * @module relay-hub
 * The relay's side of federation: admits workers on `/ws/federation/{worker_id}` (the token
 * shown at the upgrade, then a hello with the protocol version), keeps one channel per worker id (a newer connection replaces
 * an older one), applies each registration to the relay's function registry and catalog, and
 * when a worker goes away removes what it registered, ends its running jobs as errors and
 * forgets its cached results. On a Redis service it tells the service of both, so every host
 * lists the worker's entries and runs its functions through this relay.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import type { FetchedBody } from '../catalog/specimen-record.ts';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import type { LocalRuns } from './local-runs.ts';
import { PeerChannel } from './peer-channel.ts';
import { applyRegistration, prefixed, withdrawRegistration } from './remote-records.ts';
import type { ServiceRelay } from './service-relay.ts';
import {
  CLOSE_BAD_HELLO,
  CLOSE_BAD_VERSION,
  CLOSE_REPLACED,
  CLOSE_UNAUTHORIZED,
  PROTOCOL_VERSION,
  type WireMessage,
} from './wire-messages.ts';

/** Worker ids: no `:` (it separates the prefix), nothing a URL would mangle. */
const WORKER_ID = /^[A-Za-z0-9._-]{1,64}$/;
const HELLO_TIMEOUT_MS = 10_000;
const FETCH_TIMEOUT_MS = 30_000;
const RELOAD_TIMEOUT_MS = 60_000;

export interface WorkerInfo {
  worker_id: string;
  connected_at: number;
  specimens: number;
  functions: number;
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export class RelayHub {
  readonly ctx: HostContext;
  /** This host's own jobs and room entries, as far as a departed worker's need forgetting. */
  #local: LocalRuns;
  #log: FastifyBaseLogger;
  #workers = new Map<string, { channel: PeerChannel; info: WorkerInfo }>();
  #service: ServiceRelay | null;

  /** `service`: the Redis service this relay is part of, told of every registration and departure. */
  constructor(ctx: HostContext, local: LocalRuns, log: FastifyBaseLogger, service: ServiceRelay | null = null) {
    this.ctx = ctx;
    this.#local = local;
    this.#log = log;
    this.#service = service;
  }

  channelOf(workerId: string): PeerChannel | undefined {
    return this.#workers.get(workerId)?.channel;
  }

  list(): WorkerInfo[] {
    return [...this.#workers.values()].map((w) => ({ ...w.info }));
  }

  /** Whether an upgrade's token header shows this relay's token; a relay without a token takes any. */
  authorizes(shown: string | string[] | undefined): boolean {
    const expected = this.ctx.options.token;
    if (!expected) return true;
    return typeof shown === 'string' && sameSecret(shown, expected);
  }

  /**
   * Takes a new WebSocket from `/ws/federation/{workerId}`. `authorized`: its upgrade showed the
   * token (it then takes large messages); any other peer is refused at its hello.
   */
  accept(ws: WebSocket, workerId: string, authorized: boolean): void {
    if (!WORKER_ID.test(workerId)) {
      ws.close(CLOSE_BAD_HELLO, 'worker id must be 1-64 letters, digits, ".", "_" or "-"');
      return;
    }
    let admitted = false;
    const channel: PeerChannel = new PeerChannel(ws, {
      peerId: workerId,
      handler: async (op) => {
        throw createHostError('SPC_ERR_BAD_REQUEST', `the relay answers no '${op}' requests`);
      },
      onControl: (message) => {
        if (!admitted) {
          admitted = this.#admit(channel, workerId, message, authorized);
          if (admitted) clearTimeout(helloTimer);
        } else if (message.t === 'register') {
          this.#register(channel, workerId, message);
        }
      },
    });
    const helloTimer = setTimeout(() => channel.close(CLOSE_BAD_HELLO, 'no hello within 10 s'), HELLO_TIMEOUT_MS).unref();
    channel.onClose((code, reason) => {
      clearTimeout(helloTimer);
      if (this.#workers.get(workerId)?.channel !== channel) return;
      this.#depart(workerId, code, reason);
    });
  }

  #admit(channel: PeerChannel, workerId: string, message: WireMessage, authorized: boolean): boolean {
    if (message.t !== 'hello') {
      channel.close(CLOSE_BAD_HELLO, 'the first message must be a hello');
      return false;
    }
    if (message.version !== PROTOCOL_VERSION) {
      this.#log.warn(`federation: worker ${workerId} speaks protocol ${message.version}, relay ${PROTOCOL_VERSION}: refused`);
      channel.close(CLOSE_BAD_VERSION, `protocol version ${message.version} is not supported (relay speaks ${PROTOCOL_VERSION})`);
      return false;
    }
    if (!authorized) {
      this.#log.warn(`federation: worker ${workerId} presented no valid token: refused`);
      channel.close(CLOSE_UNAUTHORIZED, 'unauthorized: wrong or missing token');
      return false;
    }
    const previous = this.#workers.get(workerId);
    this.#workers.set(workerId, { channel, info: { worker_id: workerId, connected_at: Date.now() / 1000, specimens: 0, functions: 0 } });
    if (previous) {
      this.#log.warn(`federation: worker ${workerId} connected again; the older connection is replaced`);
      previous.channel.close(CLOSE_REPLACED, 'replaced by a newer connection with the same worker id');
    }
    channel.send({ t: 'welcome', version: PROTOCOL_VERSION, relay: 'vitrine' });
    this.#log.info(`federation: worker ${workerId} joined`);
    return true;
  }

  #register(channel: PeerChannel, workerId: string, message: Extract<WireMessage, { t: 'register' }>): void {
    const current = this.#workers.get(workerId);
    if (current?.channel !== channel) return;
    const specimens = Array.isArray(message.specimens) ? message.specimens : [];
    const functions = Array.isArray(message.functions) ? message.functions : [];
    const fetch = (what: 'thumbnail' | 'data', id: string, signal?: AbortSignal) => this.#fetch(workerId, what, id, signal);
    applyRegistration(this.ctx, workerId, { specimens, functions }, fetch);
    current.info.specimens = specimens.length;
    current.info.functions = functions.length;
    this.#log.info(`federation: worker ${workerId} registered ${specimens.length} specimens and ${functions.length} functions`);
    this.#service
      ?.registered(workerId, { specimens, functions })
      .catch((error: Error) => this.#log.warn(`federation: worker ${workerId}'s registration did not reach the service: ${error.message}`));
  }

  async #fetch(workerId: string, what: 'thumbnail' | 'data', id: string, signal?: AbortSignal): Promise<FetchedBody> {
    const channel = this.channelOf(workerId);
    if (!channel) throw createHostError('SPC_ERR_WORKER_DISCONNECTED', workerId);
    const answer = await channel.request(what, { id }, { timeoutMs: FETCH_TIMEOUT_MS, signal, sink: 'stream' });
    const body = answer.body;
    const fetched: FetchedBody = {
      contentType: typeof body.content_type === 'string' ? body.content_type : 'application/octet-stream',
      length: answer.byteLength,
      body: answer.stream!,
    };
    if (typeof body.file_name === 'string') fetched.fileName = body.file_name;
    return fetched;
  }

  #depart(workerId: string, code: number, reason: string): void {
    this.#workers.delete(workerId);
    const { ctx } = this;
    const prefix = prefixed(workerId, '');
    const why = `worker ${workerId} disconnected`;
    withdrawRegistration(ctx, workerId);
    const failed = this.#local.forget(prefix, why);
    this.#log.warn(`federation: worker ${workerId} left (${code}${reason ? ` ${reason}` : ''}); ${failed} running jobs ended`);
    this.#service
      ?.departed(workerId, why)
      .catch((error: Error) => this.#log.warn(`federation: worker ${workerId}'s departure did not reach the service: ${error.message}`));
  }

  /**
   * Asks every connected worker to reload, all at once, and waits for their answers. A
   * worker re-registers before it answers (the channel keeps order), so the relay's catalog
   * is current when this resolves. A worker that fails or does not answer in time is
   * reported with its error and keeps its previous registration.
   */
  async reloadWorkers(): Promise<Record<string, Record<string, unknown>>> {
    const answers = await Promise.all(
      [...this.#workers].map(async ([workerId, { channel }]) => {
        try {
          const answer = await channel.request('reload', {}, { timeoutMs: RELOAD_TIMEOUT_MS });
          return [workerId, answer.body] as const;
        } catch (error) {
          this.#log.warn(`federation: worker ${workerId} did not reload: ${(error as Error).message}`);
          return [workerId, { error: (error as Error).message }] as const;
        }
      }),
    );
    return Object.fromEntries(answers);
  }

  /** Closes every worker connection (relay shutdown). */
  close(): void {
    for (const { channel } of [...this.#workers.values()]) channel.close(1001, 'relay shutting down');
  }
}
