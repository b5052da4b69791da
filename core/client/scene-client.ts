/**
 * @module scene-client
 * One room's scene from the client: read it, replace it (with `ifMatch`, the version it was
 * read at: a 412 when another writer came first), add, change and remove layers, take and
 * restore snapshots, and the room as a Neuroglancer state. Every follower of the room sees each
 * change as a `scene` event (`followRoom`).
 */
import type { LayerChange, NewLayer, RoomScene, SceneLayer, SnapshotCreated } from '../wire/scene-types.ts';
import type { Transport } from './transport.ts';

const enc = encodeURIComponent;

/** Options of {@link SceneClient.replace}. */
export interface ReplaceOptions {
  /** Which layer is the room's entry (default: the active one when it stays, else the top one). */
  active?: string | null;
  /** The version the change is made against: a VitrineHttpError of status 412 when the scene moved on. */
  ifMatch?: number;
  signal?: AbortSignal;
}

export class SceneClient {
  readonly #http: Transport;
  readonly #path: string;

  constructor(http: Transport, readonly room: string) {
    this.#http = http;
    this.#path = `/api/rooms/${enc(room)}`;
  }

  /** `GET .../scene`: the layers bottom first, the active one and the version. */
  get(signal?: AbortSignal): Promise<RoomScene> {
    return this.#http.json('GET', `${this.#path}/scene`, { signal });
  }

  /** `PUT .../scene`: every layer replaced (a layer that keeps its id and source keeps its result). */
  replace(layers: NewLayer[], options: ReplaceOptions = {}): Promise<RoomScene> {
    const body = options.active === undefined ? { layers } : { layers, active: options.active };
    return this.#http.json('PUT', `${this.#path}/scene`, { body, ifMatch: options.ifMatch, signal: options.signal });
  }

  /** `POST .../layers`: the layer as stored (its result follows as `result` and `scene` events). */
  add(layer: NewLayer, options: { index?: number; signal?: AbortSignal } = {}): Promise<SceneLayer> {
    return this.#http.json('POST', `${this.#path}/layers`, { body: layer, query: { index: options.index }, signal: options.signal });
  }

  /** `PATCH .../layers/{id}`: the layer after the change. */
  update(layerId: string, change: LayerChange, signal?: AbortSignal): Promise<SceneLayer> {
    return this.#http.json('PATCH', `${this.#path}/layers/${enc(layerId)}`, { body: change, signal });
  }

  /** `DELETE .../layers/{id}`. */
  async remove(layerId: string, signal?: AbortSignal): Promise<void> {
    await this.#http.send('DELETE', `${this.#path}/layers/${enc(layerId)}`, { signal });
  }

  /** Where a layer's result is read (its `result.data_url`), with delivery options. */
  layerDataUrl(layerId: string, delivery?: Record<string, string | number>): string {
    return this.#http.url(`${this.#path}/layers/${enc(layerId)}/data`, delivery);
  }

  /** `POST .../snapshots`: the room recorded as it is, its bytes kept; `url` opens it in the viewer. */
  snapshot(signal?: AbortSignal): Promise<SnapshotCreated> {
    return this.#http.json('POST', `${this.#path}/snapshots`, { signal });
  }

  /** `PUT .../scene {"snapshot": id}`: the snapshot's scene and view put back into the room. */
  restore(snapshotId: string, options: Pick<ReplaceOptions, 'ifMatch' | 'signal'> = {}): Promise<RoomScene> {
    return this.#http.json('PUT', `${this.#path}/scene`, { body: { snapshot: snapshotId }, ifMatch: options.ifMatch, signal: options.signal });
  }

  /** `GET .../neuroglancer`: the scene as a Neuroglancer viewer state. */
  neuroglancer(signal?: AbortSignal): Promise<Record<string, unknown>> {
    return this.#http.json('GET', `${this.#path}/neuroglancer`, { signal });
  }
}
