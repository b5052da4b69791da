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
import { openStaticData } from '../catalog/open-static-data.ts';
import { openThumbnail } from '../catalog/open-thumbnail.ts';
import { describeOpened } from '../catalog/opened-body.ts';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import type { JobRef, ProgressUpdate } from '../invoke/invoker.ts';
import { specimenOr404, specimenSchema, specimenType } from '../registry/specimen-functions.ts';
import { encodeResultFrame } from '../results/result-frame.ts';
import type { HandlerContext, HandlerReply, RequestHandler } from './channel-types.ts';
import type { LocalRuns } from './local-runs.ts';
import { PeerChannel } from './peer-channel.ts';
import { FATAL_CLOSE_CODES, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, TOKEN_HEADER, type WireFunction, type WireSpecimen } from './wire-messages.ts';

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

interface WorkerHandlerDeps {
  ctx: HostContext;
  /** This host's own result service and job store, as far as relayed runs need them. */
  local: LocalRuns;
  log: FastifyBaseLogger;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The relay's job this run belongs to, when it names one this worker can keep under the same
 * id (a UUID not in use here); its specimen when this worker has it.
 */
function jobOf(deps: WorkerHandlerDeps, value: unknown): JobRef | null {
  if (!value || typeof value !== 'object') return null;
  const { id, specimen_id: specimenId } = value as { id?: unknown; specimen_id?: unknown };
  if (typeof id !== 'string' || !UUID.test(id) || !deps.local.jobIdFree(id)) return null;
  return { id, specimenId: typeof specimenId === 'string' && deps.ctx.catalog.get(specimenId) ? specimenId : null };
}

async function invoke(deps: WorkerHandlerDeps, body: Record<string, unknown>, hc: HandlerContext): Promise<HandlerReply> {
  const { ctx } = deps;
  const name = body.function;
  if (typeof name !== 'string') throw createHostError('SPC_ERR_BAD_REQUEST', 'invoke needs a function name');
  const entry = ctx.functions.get(name);
  if (!entry || entry.source.kind === 'remote') throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', name);
  const values = body.values && typeof body.values === 'object' && !Array.isArray(body.values) ? (body.values as Record<string, unknown>) : {};
  const roomId = typeof body.room_id === 'string' ? body.room_id : ctx.options.defaultRoomId;
  hc.signal.addEventListener('abort', () => deps.log.info(`federation: the relay cancelled ${name} in room ${roomId}`), { once: true });
  const request = {
    entry,
    values,
    roomId,
    signal: hc.signal,
    onProgress: (update: ProgressUpdate) => hc.emit({ text: update.text, fraction: update.fraction, ts: update.ts }),
  };
  const job = jobOf(deps, body.job);
  const result = await deps.local.run(request, job && { id: job.id, meta: { specimenId: job.specimenId, functionName: name, roomId } });
  const { header, blocks } = encodeResultFrame(result);
  return { body: { header }, payload: { byteLength: header.byteLength, blocks } };
}

async function openOwn(deps: WorkerHandlerDeps, what: 'thumbnail' | 'data', body: Record<string, unknown>, hc: HandlerContext): Promise<HandlerReply> {
  const id = body.id;
  if (typeof id !== 'string') throw createHostError('SPC_ERR_BAD_REQUEST', `${what} needs a specimen id`);
  const record = specimenOr404(deps.ctx.catalog, id);
  const request = { signal: hc.signal };
  const opened =
    what === 'thumbnail'
      ? await openThumbnail(record, request)
      : await openStaticData(record, request, { envelopeMediaType: deps.ctx.options.envelopeMediaType });
  const { contentType, length } = describeOpened(opened);
  const reply: HandlerReply = { body: { content_type: contentType, file_name: opened.fileName } };
  const content = opened.body ?? Buffer.alloc(0);
  if (Buffer.isBuffer(content)) {
    reply.payload = { byteLength: content.length, blocks: [content] };
    return reply;
  }
  if (length !== null) {
    reply.payload = { byteLength: length, blocks: content };
    return reply;
  }
  // No length known (not the case for this host's own files): buffer it.
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  reply.payload = { byteLength: bytes.length, blocks: [bytes] };
  return reply;
}

/**
 * How a worker answers its relay's requests, with its own host logic: `invoke` through its
 * result service (its room cache and in-flight sharing apply, progress goes back as events, the
 * result as a result frame; a relay's job is kept here under the same id), `thumbnail` and
 * `data` opened from its own catalog (the same openers its routes use), and `reload`.
 */
function workerHandlers(deps: WorkerHandlerDeps): RequestHandler {
  return async (op, body, hc) => {
    switch (op) {
      case 'invoke':
        return invoke(deps, body, hc);
      case 'thumbnail':
      case 'data':
        return openOwn(deps, op, body, hc);
      case 'reload':
        // ctx.reload on a worker re-sends the registration itself (install-federation.ts).
        return { body: { ...(await deps.ctx.reload()) } };
      default:
        throw createHostError('SPC_ERR_BAD_REQUEST', `unknown federation request '${op}'`);
    }
  };
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
