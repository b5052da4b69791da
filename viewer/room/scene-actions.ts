/**
 * @module scene-actions
 * What the layer list asks of the room, as requests to its scene routes: add a layer, remove
 * one, move one up or down (a `PUT` of the whole scene with `If-Match` on the version the page
 * saw, so a move made on an outdated list changes nothing), make one active (a `PATCH` with
 * `active: true`), and share display changes (`PATCH`). The page changes nothing itself: the `scene` event that
 * follows shows the outcome to every peer, this page included. A refusal is reported in words.
 */
import type { VitrineClient } from '../../core/client/client.ts';
import type { LayerChange, LayerSource, NewLayer, RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { describeError } from '../panels/request-failure.ts';
import type { VersionOffer } from './version-offers.ts';

/** A layer as a `PUT` of the scene carries it: everything but the result the host sets. */
function asNew(layer: SceneLayer): NewLayer {
  const { result: _result, ...rest } = layer;
  return rest;
}

/** The specimen id of `remote` (`NAME/path/to/cells.ome.zarr`) added to `room`: `room.cells`, safe characters only. */
function remoteSpecimenId(room: string, remote: string): string {
  const base = remote.replace(/\/+$/, '').split('/').pop()!.replace('.ome.zarr', '').replace('.zarr', '');
  const id = `${room}.${base}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 128);
  return id || 'remote';
}

/**
 * Publishes `remote` for `room` under an id made of the room's name and the image's (as the
 * notebook's `room.add_remote` makes it, so both name the same image alike), then adds it as a
 * specimen layer, a labels layer when the image is an NGFF label image.
 */
async function addRemoteLayer(client: VitrineClient, room: string, remote: string): Promise<void> {
  const id = remoteSpecimenId(room, remote);
  const published = await client.remotes().publish(id, remote);
  await client.scene(room).add({ source: { specimen: id, params: {} }, ...(published.labels ? { kind: 'labels' as const } : {}) });
}

export interface SceneActionsOptions {
  client: VitrineClient;
  /** The room the page follows (null: none). */
  room(): string | null;
  /** The room's scene as last received. */
  scene(): RoomScene | null;
  /** Says what went wrong ('' clears it). */
  report(message: string): void;
}

export class SceneActions {
  readonly #options: SceneActionsOptions;

  constructor(options: SceneActionsOptions) {
    this.#options = options;
  }

  add(source: LayerSource): void {
    this.#run('The layer could not be added', (client, room) => client.scene(room).add({ source }));
  }

  /** Publishes the image `remote` (`NAME/path`) of one of the host's remotes in place and adds it. */
  addRemote(remote: string): void {
    this.#run('The remote image could not be added', (client, room) => addRemoteLayer(client, room, remote));
  }

  remove(id: string): void {
    this.#run('The layer could not be removed', (client, room) => client.scene(room).remove(id));
  }

  /** Moves layer `id` one place up (1: drawn over the next) or down (-1). */
  move(id: string, by: -1 | 1): void {
    const scene = this.#options.scene();
    const layers = [...(scene?.layers ?? [])];
    const at = layers.findIndex((layer) => layer.id === id);
    const to = at + by;
    if (!scene || at < 0 || to < 0 || to >= layers.length) return;
    [layers[at], layers[to]] = [layers[to]!, layers[at]!];
    const order = layers.map(asNew);
    this.#run('The layers could not be reordered', (client, room) =>
      client.scene(room).replace(order, { active: scene.active, ifMatch: scene.version }),
    );
  }

  /** Makes layer `id` the room's active layer (its entry). */
  activate(id: string): void {
    if (this.#options.scene()?.active === id) return;
    this.#run('The active layer could not be changed', (client, room) => client.scene(room).update(id, { active: true }));
  }

  /**
   * Takes a version offer for layer `id`: pinned to its version (absent: following the newest),
   * with its parameters when it gives them; computed again, for everyone in the room.
   */
  retarget(id: string, offer: VersionOffer): void {
    const layer = this.#options.scene()?.layers.find((l) => l.id === id);
    if (!layer) return;
    const { version: _pinned, ...rest } = layer.source;
    const source = { ...rest, ...(offer.params ? { params: offer.params } : {}), ...(offer.version ? { version: offer.version } : {}) };
    this.#run(`The layer could not take ${offer.label.toLowerCase()}`, (client, room) => client.scene(room).update(id, { source }));
  }

  /** Shares a display change of layer `id` (SceneSync's send). */
  async update(id: string, change: LayerChange): Promise<void> {
    const room = this.#options.room();
    if (room === null) return;
    try {
      await this.#options.client.scene(room).update(id, change);
    } catch (error) {
      this.#options.report(`The change could not be shared: ${describeError(error)}`);
      throw error;
    }
  }

  #run(failure: string, request: (client: VitrineClient, room: string) => Promise<unknown>): void {
    const room = this.#options.room();
    if (room === null) return;
    this.#options.report('');
    request(this.#options.client, room).catch((error: unknown) => this.#options.report(`${failure}: ${describeError(error)}`));
  }
}
