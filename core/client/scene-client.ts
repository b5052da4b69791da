/**
 * @module scene-client
 * A room's scene over HTTP (`client.scenes`): read it, replace it (optionally only if nobody
 * changed it since a version, or from a snapshot), add, change and remove one layer, take a
 * snapshot and read one back. Every change reaches every follower of the room as a `scene`
 * event, this client's own included.
 * @example
 * const id = (await client.scenes.add('lab', { source: { specimen: 'ct-head' }, opacity: 0.5 })).id;
 * await client.scenes.update('lab', id, { colormap: 'magma', window: [0, 1200] });
 */
import type { SpecimenData } from './decoded-types.ts';
import { readDataResponse } from './read-data-response.ts';
import type { LayerDisplay, LayerKind, LayerSource, RoomScene, SceneLayer, SnapshotCreated } from './scene-types.ts';
import type { Transport } from './transport.ts';
import type { DeliveryQuery, RoomSnapshot } from './wire-types.ts';

/** A layer to add: its source, and optionally its id, kind and display. */
export type NewLayer = LayerDisplay & { source: LayerSource; id?: string; kind?: LayerKind };

/** A change of a layer: display fields (null removes one), a new source (computed again), or `active: true` (it becomes the room's entry). */
export type LayerChange = { [K in keyof LayerDisplay]?: LayerDisplay[K] | null } & { source?: LayerSource; active?: true };

const enc = encodeURIComponent;

export class SceneClient {
  readonly #http: Transport;
  readonly #envelopeMediaType: string | undefined;

  constructor(http: Transport, envelopeMediaType?: string) {
    this.#http = http;
    this.#envelopeMediaType = envelopeMediaType;
  }

  /** `GET /api/rooms/{room}/scene`. */
  get(room: string, signal?: AbortSignal): Promise<RoomScene> {
    return this.#http.json('GET', `/api/rooms/${enc(room)}/scene`, { signal });
  }

  /**
   * `PUT /api/rooms/{room}/scene`: the room's whole scene (`layers`, `active`), or the scene of
   * a snapshot (`{ snapshot: id }`). With `version`, only if the scene is still at it (else a 412).
   */
  replace(room: string, body: { layers: NewLayer[]; active?: string | null } | { snapshot: string }, version?: number): Promise<RoomScene> {
    const headers: Record<string, string> = version === undefined ? {} : { 'if-match': `"${version}"` };
    return this.#http.json('PUT', `/api/rooms/${enc(room)}/scene`, { body, headers });
  }

  /** `POST /api/rooms/{room}/layers`: on top, or at `index` (0 is the bottom); answers the layer. */
  add(room: string, layer: NewLayer, index?: number): Promise<SceneLayer> {
    return this.#http.json('POST', `/api/rooms/${enc(room)}/layers`, { body: layer, query: { index } });
  }

  /** `PATCH /api/rooms/{room}/layers/{id}`: merges the fields given. */
  async update(room: string, id: string, change: LayerChange, signal?: AbortSignal): Promise<void> {
    await this.#http.send('PATCH', `/api/rooms/${enc(room)}/layers/${enc(id)}`, { body: change, signal });
  }

  /** `DELETE /api/rooms/{room}/layers/{id}`. */
  async remove(room: string, id: string): Promise<void> {
    await this.#http.send('DELETE', `/api/rooms/${enc(room)}/layers/${enc(id)}`);
  }

  /** `POST /api/rooms/{room}/snapshots`: the room as it is now, kept; answers its id and the viewer link. */
  snapshot(room: string): Promise<SnapshotCreated> {
    return this.#http.json('POST', `/api/rooms/${enc(room)}/snapshots`);
  }

  /**
   * A layer's result from its `data_url` (the host's own URL for it), with `delivery` options
   * added to its query (a coarse `max_dim`, a GLB); decoded as `/data` answers are.
   */
  async layerData(dataUrl: string, options: { delivery?: DeliveryQuery; signal?: AbortSignal; onHeaders?: (response: Response) => void } = {}): Promise<SpecimenData> {
    const url = new URL(dataUrl, 'http://host.invalid');
    for (const [name, value] of Object.entries(options.delivery ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const response = await this.#http.send('GET', `${url.pathname}${url.search}`, { signal: options.signal });
    options.onHeaders?.(response);
    return readDataResponse(response, this.#envelopeMediaType);
  }

  /** `GET /api/snapshots/{id}`: a snapshot, as it was taken (its layers' results by blob id). */
  getSnapshot(id: string, signal?: AbortSignal): Promise<RoomSnapshot> {
    return this.#http.json('GET', `/api/snapshots/${enc(id)}`, { signal });
  }
}
