/**
 * @module worker-link
 * The worker's side of federation: connects to `<join URL>/ws/federation/<worker_id>` once the
 * worker listens, showing the token at the upgrade, says hello (protocol version), registers its
 * catalog and functions on every (re)connect and after every reload, answers the relay's
 * requests, and reconnects with backoff when the connection drops. A refusal (wrong token, other
 * protocol version) is logged and not retried.
 */
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import type { HostContext } from '../host-context.ts';
import type { LocalRuns } from './local-runs.ts';
import { PeerChannel } from './peer-channel.ts';
import { specimenSchema, specimenType } from '../registry/specimen-functions.ts';
import { FATAL_CLOSE_CODES, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, TOKEN_HEADER, type WireFunction, type WireSpecimen } from './wire-messages.ts';
import { workerHandlers } from './worker-handlers.ts';

/** `http(s)://host[:port][/base]` → `ws(s)://host[:port][/base]/ws/federation/<id>`. */
export function federationUrl(join: string, workerId: string): string {
  const url = new URL(join);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/ws/federation/${encodeURIComponent(workerId)}`;
  url.search = '';
  return url.toString();
}

/**
 * Exponential backoff with jitter for rejoining the relay: 0.5 s doubling up to 10 s, each delay
 * drawn between half and all of its step so workers do not rejoin in lockstep.
 */
function reconnectDelay(attempt: number): number {
  const step = Math.min(10_000, 500 * 2 ** Math.min(attempt, 16));
  return Math.round(step * (0.5 + 0.5 * Math.random()));
}

/** This worker's own specimens as it registers them, each dynamic one with its effective schema (the relay shows exactly what the worker shows). */
function localSpecimens(ctx: HostContext): WireSpecimen[] {
  return ctx.catalog
    .list()
    .filter((r) => r.origin !== 'relay')
    .map((r) => ({
      id: r.id,
      display_name: r.display_name,
      description: r.description,
      type: specimenType(ctx.functions, r),
      tags: r.tags,
      is_dynamic: r.is_dynamic,
      function_name: r.function_name,
      thumbnail_file: r.thumbnail_file,
      story: r.story,
      schema: r.is_dynamic ? specimenSchema(ctx.functions, r) : null,
      has_data: !r.is_dynamic && r.data !== undefined,
    }));
}

/** This worker's own functions as it registers them. */
function localFunctions(ctx: HostContext): WireFunction[] {
  return ctx.functions
    .list()
    .filter((f) => f.source.kind !== 'remote')
    .map((f) => ({ name: f.name, return_type: f.return_type, schema: f.schema, parameters: f.parameters, async: f.async, plugin: f.plugin }));
}

export class WorkerLink {
  #ctx: HostContext;
  /** Where the relay's requests run: this host's own result service and job store. */
  #local: LocalRuns;
  #log: FastifyBaseLogger;
  #url: string;
  #workerId: string;
  #channel: PeerChannel | null = null;
  #welcomed = false;
  #attempt = 0;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(ctx: HostContext, local: LocalRuns, log: FastifyBaseLogger, workerId: string) {
    this.#ctx = ctx;
    this.#local = local;
    this.#log = log;
    this.#workerId = workerId;
    this.#url = federationUrl(ctx.options.join!, workerId);
  }

  /** Starts joining. */
  start(): void {
    this.#connect();
  }

  /** Sends the current catalog and functions (after a reload). */
  register(): void {
    if (!this.#channel || !this.#welcomed) return;
    this.#channel.send({ t: 'register', specimens: localSpecimens(this.#ctx), functions: localFunctions(this.#ctx) });
  }

  #connect(): void {
    if (this.#stopped) return;
    const token = this.#ctx.options.token;
    const ws = new WebSocket(this.#url, {
      // At the upgrade, so the relay opens the socket with its large limit only for a worker it trusts.
      headers: token ? { [TOKEN_HEADER]: token } : {},
      maxPayload: MAX_MESSAGE_BYTES,
      perMessageDeflate: false,
      handshakeTimeout: 10_000,
      // Server-to-server: a zero mask leaves payloads unmasked (no per-byte XOR on big transfers).
      generateMask: (mask) => void mask.fill(0),
    });
    this.#welcomed = false;
    const channel = new PeerChannel(ws, {
      peerId: 'relay',
      handler: workerHandlers({ ctx: this.#ctx, local: this.#local, log: this.#log }),
      onControl: (message) => {
        if (message.t === 'welcome') {
          this.#welcomed = true;
          this.#attempt = 0;
          this.#log.info(`federation: joined relay ${this.#url} as ${this.#workerId}`);
          this.register();
        }
      },
    });
    this.#channel = channel;
    ws.once('open', () => channel.send({ t: 'hello', version: PROTOCOL_VERSION, worker_id: this.#workerId }));
    ws.once('error', (error) => this.#log.debug(`federation: ${this.#url}: ${error.message}`));
    channel.onClose((code, reason) => {
      // Only the current connection's end matters; an older one closing changes nothing.
      if (this.#channel !== channel) return;
      this.#channel = null;
      if (this.#stopped) return;
      if (FATAL_CLOSE_CODES.has(code)) {
        this.#log.error(`federation: the relay refused this worker (${code} ${reason}); not retrying`);
        return;
      }
      const delay = reconnectDelay(this.#attempt++);
      if (this.#welcomed) this.#log.warn(`federation: lost the relay (${code}${reason ? ` ${reason}` : ''}); reconnecting`);
      this.#log.debug(`federation: reconnecting in ${delay} ms`);
      this.#timer = setTimeout(() => this.#connect(), delay).unref();
    });
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#channel?.close(1001, 'worker shutting down');
  }
}
