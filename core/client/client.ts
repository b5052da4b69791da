/**
 * @module client
 * `VitrineClient`: every route of the host as a typed method, plus the background job flow:
 * `load` for a specimen, `runFunction` for a function. Runs in browsers and Node alike (only
 * `fetch`, `AbortController`, `TextDecoder` and typed arrays); what it takes: client-options.ts.
 */
import { dataQuery, type ClientOptions, type DataOptions, type InvokeOptions } from './client-options.ts';
import type { SpecimenData, TypedData } from '../wire/decoded-types.ts';
import { decodeTypedResult } from './decode-typed-result.ts';
import { followJob, followRoom, type FollowJobOptions, type FollowRoomOptions } from './follow-events.ts';
import { runJob, runJobFlow, type JobEndpoints, type JobFlowOptions, type LoadOptions } from './load-job.ts';
import { readDataResponse } from './read-data-response.ts';
import { RoomAnnotations } from './room-annotations.ts';
import { SceneClient } from './scene-client.ts';
import { MeshLevels } from './mesh-levels.ts';
import { LayerEdits } from './layer-edits.ts';
import { RemoteImages } from './remote-images.ts';
import { PeopleClient } from './people-client.ts';
import type { SnapshotCreated } from '../wire/scene-types.ts';
import { Transport } from './transport.ts';
import { agentUrl, liveUrl, type AgentWho, type LiveWho } from './live-url.ts';
import type { CacheStats, CatalogEntry, FunctionInfo, JobEvent, ParameterSchema, ProgressResponse } from '../wire/wire-types.ts';
import type { ReloadResponse, SpecimenMetadata, StartResponse } from '../wire/wire-types.ts';
import type { ReplayStatus, RoomEvent, RoomLogPage, RoomPeer, RoomView } from '../wire/room-types.ts';
import { SNAPSHOT_CREATED_HEADER, type Snapshot, type SnapshotDocument } from '../wire/snapshot-types.ts';
import { FOLLOWER_HEADER } from '../wire/follower-header.ts';

const enc = encodeURIComponent;

/** A client of one vitrine host. Create it with {@link createClient}. */
export class VitrineClient implements JobEndpoints {
  readonly #http: Transport;
  readonly #envelopeMediaType: string | undefined;

  constructor(options: ClientOptions = {}) {
    this.#http = new Transport(options.baseUrl ?? '', options.fetch, options.token);
    this.#envelopeMediaType = options.envelopeMediaType;
  }

  /** The host address requests go to ('' for same origin). */
  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** `GET /api/specimens/`: the catalog; with `room`, the arrays published for that room's layers too. */
  listSpecimens(signal?: AbortSignal, room?: string): Promise<CatalogEntry[]> {
    return this.#http.json('GET', room ? `/api/specimens/?room=${enc(room)}` : '/api/specimens/', { signal });
  }

  /** `GET /api/specimens/{id}`: full metadata; `schema` is set for dynamic specimens. */
  getSpecimen(id: string, signal?: AbortSignal): Promise<SpecimenMetadata> {
    return this.#http.json('GET', `/api/specimens/${enc(id)}`, { signal });
  }

  /** The thumbnail's URL (for an `<img src>`). */
  thumbnailUrl(id: string): string {
    return this.#http.url(`/api/specimens/${enc(id)}/thumbnail`);
  }

  /** The URL of `GET /data` with these params and room (for links and downloads). */
  dataUrl(id: string, options: Pick<DataOptions, 'params' | 'room' | 'delivery'> = {}): string {
    return this.#http.url(`/api/specimens/${enc(id)}/data`, dataQuery(options));
  }

  /**
   * A specimen's data. Dynamic mesh and volume results arrive as a binary envelope and are
   * decoded with `decodeEnvelope` (typed array views over the received bytes, copied only when
   * a block's offset is not aligned for its element type); point clouds and images arrive as
   * typed result JSON; a static specimen's file comes back as bytes with its content type
   * (a static `.npy` volume is an envelope too).
   */
  async getData(id: string, options: DataOptions = {}): Promise<SpecimenData> {
    const { params, room, delivery, signal } = options;
    const sent = { signal, headers: options.follows ? { [FOLLOWER_HEADER]: '1' } : undefined };
    const path = `/api/specimens/${enc(id)}/data`;
    const response =
      options.method === 'POST'
        ? await this.#http.send('POST', path, { body: { params: params ?? {}, room_id: room, ...(delivery ? { delivery } : {}) }, ...sent })
        : await this.#http.send('GET', path, { query: dataQuery(options), ...sent });
    options.onHeaders?.(response);
    return readDataResponse(response, this.#envelopeMediaType);
  }

  /** The URL of a blob (an answer's `X-Blob-Id`, a room entry's `blob_id`): bytes any cache may keep for good. */
  blobUrl(blobId: string): string {
    return this.#http.url(`/api/blobs/${enc(blobId)}`);
  }

  /**
   * A blob, decoded as `getData` decodes a `/data` answer: a room entry's `blob_id` gives its
   * result without computing or touching the room, from any cache on the way.
   */
  async getBlob(blobId: string, signal?: AbortSignal): Promise<SpecimenData> {
    return readDataResponse(await this.#http.send('GET', `/api/blobs/${enc(blobId)}`, { signal }), this.#envelopeMediaType);
  }

  /**
   * A scene layer's result from its `data_url` (the host's own URL for it), with `delivery`
   * options added to its query (a coarse `max_dim`, a GLB); decoded as `getData` decodes.
   */
  async getLayerData(dataUrl: string, options: Pick<DataOptions, 'delivery' | 'signal' | 'onHeaders'> = {}): Promise<SpecimenData> {
    const url = new URL(dataUrl, 'http://host.invalid');
    for (const [name, value] of Object.entries(options.delivery ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const response = await this.#http.send('GET', `${url.pathname}${url.search}`, { signal: options.signal });
    options.onHeaders?.(response);
    return readDataResponse(response, this.#envelopeMediaType);
  }

  /** `POST /api/processing/invoke`: runs a function (or serves the room cache); the result as typed arrays. */
  async invoke(name: string, options: InvokeOptions = {}): Promise<TypedData> {
    const body = { function_name: name, args: options.args, kwargs: options.kwargs, room_id: options.room };
    return decodeTypedResult(await this.#http.json('POST', '/api/processing/invoke', { body, signal: options.signal }));
  }

  /** The images the host reads in place from its remotes (remote-images.ts): their names, one published. */
  remotes(): RemoteImages {
    return new RemoteImages(this.#http);
  }

  /** `GET /api/processing/functions`. */
  listFunctions(signal?: AbortSignal): Promise<FunctionInfo[]> {
    return this.#http.json('GET', '/api/processing/functions', { signal });
  }

  /** `POST /api/processing/functions/{name}/start`: a function as a job, no specimen needed; `done` at once on a room cache hit. */
  startFunctionJob(name: string, options: Pick<DataOptions, 'params' | 'room' | 'signal'> = {}): Promise<StartResponse> {
    return this.#start(`/api/processing/functions/${enc(name)}/start`, options);
  }

  /** Runs a function as a job, with progress and cancel as `load` has; the result from `/jobs/{id}/result`. */
  runFunction(name: string, params?: Record<string, unknown>, options: JobFlowOptions = {}): Promise<TypedData> {
    const start = () => this.startFunctionJob(name, { params, room: options.room });
    return runJobFlow(this, { start, result: (jobId, signal) => this.result(jobId, signal) }, options);
  }

  /** `GET /api/processing/functions/{name}/schema`. */
  getSchema(name: string, signal?: AbortSignal): Promise<ParameterSchema> {
    return this.#http.json('GET', `/api/processing/functions/${enc(name)}/schema`, { signal });
  }

  /** `GET /api/processing/cache/stats`. */
  cacheStats(signal?: AbortSignal): Promise<CacheStats> {
    return this.#http.json('GET', '/api/processing/cache/stats', { signal });
  }

  /** `POST /api/processing/cache/clear`: drops every room's cached result. */
  async clearCache(): Promise<void> {
    await this.#http.send('POST', '/api/processing/cache/clear');
  }

  /** `GET /api/specimens/reload`: re-scans the specimens directory. */
  reload(): Promise<ReloadResponse> {
    return this.#http.json('GET', '/api/specimens/reload');
  }

  /** `POST /api/specimens/{id}/start`: `status` is `done` at once on a room cache hit. */
  startJob(id: string, options: Omit<DataOptions, 'method'> = {}): Promise<StartResponse> {
    return this.#start(`/api/specimens/${enc(id)}/start`, options);
  }

  /** Either `/start` (a specimen's or a function's): the same body, the same answer. */
  #start(path: string, options: Pick<DataOptions, 'params' | 'room' | 'signal'>): Promise<StartResponse> {
    return this.#http.json('POST', path, { body: { params: options.params ?? {}, room_id: options.room }, signal: options.signal });
  }

  /** `GET /api/jobs/{id}/progress`: status, the messages with `seq > since`, and the error. */
  progress(jobId: string, since = -1, signal?: AbortSignal): Promise<ProgressResponse> {
    return this.#http.json('GET', `/api/jobs/${enc(jobId)}/progress`, { query: { since }, signal });
  }

  /** `GET /api/jobs/{id}/result` as typed arrays (409 while running, 410 after an error). */
  async result(jobId: string, signal?: AbortSignal): Promise<TypedData> {
    return decodeTypedResult(await this.#http.json('GET', `/api/jobs/${enc(jobId)}/result`, { signal }));
  }

  /**
   * `GET /api/jobs/{id}/events` as an async iterator: each progress message once, in seq
   * order, then the `done` or `error` event; a dropped connection resumes with `Last-Event-ID`.
   */
  followJob(jobId: string, options?: FollowJobOptions): AsyncGenerator<JobEvent, void, undefined> {
    return followJob(this.#http, jobId, options);
  }

  /**
   * `GET /api/rooms/{room}/events` as an async iterator: `state` and `view`, then `computing`,
   * `result`, `failed` and `view` as they happen (with `events: 'all'`, also `scene` and
   * `annotation`), until the loop is left or the signal aborts; a reconnection yields a fresh `state`.
   */
  followRoom(room: string, options?: FollowRoomOptions): AsyncGenerator<RoomEvent, never, undefined> {
    return followRoom(this.#http, room, options);
  }

  /** `POST /api/rooms/{room}/replay` without `from`: pauses, resumes, seeks or changes the speed of the replay playing into the room. */
  async steerReplay(room: string, steer: { pause?: boolean; seek?: number; speed?: number }, signal?: AbortSignal): Promise<ReplayStatus> {
    return this.#http.json<ReplayStatus>('POST', `/api/rooms/${enc(room)}/replay`, { body: steer, signal });
  }

  /** `GET /api/rooms/{room}/presence`: who is in the room now, in the order they came. */
  async roomPresence(room: string, signal?: AbortSignal): Promise<RoomPeer[]> {
    return (await this.#http.json<{ peers: RoomPeer[] }>('GET', `/api/rooms/${enc(room)}/presence`, { signal })).peers;
  }

  /** Whom the host takes this client for, and who may read and write a room (people-client.ts). */
  people(): PeopleClient {
    return new PeopleClient(this.#http);
  }

  /** The address of `WS /api/rooms/{room}/live` for `who` (a listed follower, or a new peer), with a one-time ticket when signed in. */
  liveUrl(room: string, who: LiveWho, signal?: AbortSignal): Promise<string> {
    return liveUrl(this.#http, room, who, signal);
  }

  /** `GET /api/rooms/{room}/log`: the room's changes after `since`, oldest first (read on from `next_since` while `more`). */
  roomLog(room: string, since = 0, signal?: AbortSignal): Promise<RoomLogPage> {
    return this.#http.json('GET', `/api/rooms/${enc(room)}/log?since=${since}`, { signal });
  }

  /** The address of `WS /ws/agent/{room}` (the room's agent) for a socket named `who`, with a one-time ticket when signed in. */
  agentUrl(room: string, who: AgentWho, signal?: AbortSignal): Promise<string> {
    return agentUrl(this.#http, room, who, signal);
  }

  /** `PUT /api/rooms/{room}/view`: shares how `room` looks (only the settings given change); followers get a `view` event. */
  async setRoomView(room: string, view: RoomView, signal?: AbortSignal): Promise<void> {
    await this.#http.send('PUT', `/api/rooms/${enc(room)}/view`, { body: view, signal });
  }

  /** One room's annotations: list (or CSV), add, import, change, remove, and a copy kept from its events. */
  annotations(room: string): RoomAnnotations {
    return new RoomAnnotations(this.#http, room);
  }

  /** A room's scene (scene-client.ts): layers read, replaced, added, changed, removed; snapshots taken and restored. */
  scene(room: string): SceneClient {
    return new SceneClient(this.#http, room);
  }

  /** A labels layer's edits (layer-edits.ts): merge, split, paint, names; undo, redo; the list; any version's labels. */
  edits(room: string, layer: string): LayerEdits {
    return new LayerEdits(this.#http, room, layer);
  }

  /** A result's levels of detail (its surfaces' octrees of fragments, mesh-levels.ts), by its `X-Result-Id`. */
  meshLevels(resultId: string): MeshLevels {
    return new MeshLevels(this.#http, resultId);
  }

  /** `GET /api/snapshots/{id}`: a room as it was, with its id and time taken (the host's headers, beside the document's bytes). */
  async getSnapshot(id: string, signal?: AbortSignal): Promise<Snapshot> {
    const response = await this.#http.send('GET', `/api/snapshots/${enc(id)}`, { signal });
    const document = (await response.json()) as SnapshotDocument;
    const created = Number(response.headers.get(SNAPSHOT_CREATED_HEADER) ?? Date.parse(response.headers.get('last-modified') ?? ''));
    // The id is the document's address: the one asked for is the one answered.
    return { ...document, id, created };
  }

  /** The URL of the snapshot as a session file (`<id>.vitrine`: its document and every byte it pins, to keep or move). */
  sessionUrl(id: string): string {
    return this.#http.url(`/api/snapshots/${enc(id)}`, { format: 'bundle' });
  }

  /** `GET /api/snapshots/{id}?format=bundle`: the session file's bytes. */
  async getSession(id: string, signal?: AbortSignal): Promise<ArrayBuffer> {
    return (await this.#http.send('GET', `/api/snapshots/${enc(id)}`, { query: { format: 'bundle' }, signal })).arrayBuffer();
  }

  /** `POST /api/snapshots`: a session file taken in under its own id, each byte checked; restore with `scene(room).restore(id)`. */
  loadSession(file: Blob | ArrayBuffer, signal?: AbortSignal): Promise<SnapshotCreated> {
    return this.#http.json('POST', '/api/snapshots', { bytes: { type: 'application/x-tar', value: file }, signal });
  }

  /** `DELETE /api/jobs/{id}`: cancels a running job (it ends as `error` / `cancelled`). */
  async cancel(jobId: string): Promise<void> {
    await this.#http.send('DELETE', `/api/jobs/${enc(jobId)}`);
  }

  /**
   * Loads a specimen with progress: a dynamic one through the job flow (see `load-job.ts`:
   * start, follow the job's events (or poll, on a host without them), then the result from the
   * room cache; abort cancels the job), a static one (pass its catalog entry) with `getData`.
   * @example
   * const mesh = await client.load('sphere', { radius: 2 }, { room: 'lab-1', onProgress: (m) => console.log(m.text) });
   */
  load(specimen: string | Pick<CatalogEntry, 'id' | 'is_dynamic'>, params?: Record<string, unknown>, options: LoadOptions = {}): Promise<SpecimenData> {
    if (typeof specimen !== 'string' && !specimen.is_dynamic) return this.getData(specimen.id, options);
    return runJob(this, typeof specimen === 'string' ? specimen : specimen.id, params, options);
  }
}

/**
 * Creates a client of the host at `baseUrl`.
 * @example
 * import { createClient } from 'vitrine/client';
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8000' });
 * for (const s of await client.listSpecimens()) console.log(s.id, s.is_dynamic);
 */
export function createClient(options: ClientOptions = {}): VitrineClient {
  return new VitrineClient(options);
}
