/**
 * @module layer-loader
 * Each layer's result onto the stage, by what the room's scene says of it: coarse first from
 * its `data_url` (a volume at 64 samples an axis, a mesh at 20,000 triangles, as the page's
 * own results come: coarse-first.ts), then whole from its blob (`/api/blobs/{blob_id}`:
 * immutable, so the browser's cache keeps it and a revisit costs the host nothing), or from
 * the `data_url` with the full delivery when there is no blob (or in VR, where a mesh is asked
 * for within the headset's triangle budget). A layer whose result changes is loaded again; an
 * older load still running is dropped. A segment's surface takes the colour its label has.
 * A volume with time or channels fetches its other steps from the same `data_url`. A static
 * file the host sends only as it is (no result id) is fetched once from its `data_url`, as is.
 * A mesh or a segmentation whose result has levels of detail is drawn from them (level-layers.ts):
 * the mesh's data is never fetched, a segmentation's surfaces come before its volume.
 */
import type { VitrineClient } from '../../core/client/client.ts';
import type { SpecimenData } from '../../core/wire/decoded-types.ts';
import { isAbortError, VitrineHttpError } from '../../core/client/errors.ts';
import { labelRgb } from '../../core/wire/label-colors.ts';
import type { SceneLayer } from '../../core/wire/scene-types.ts';
import type { DeliveryQuery } from '../../core/wire/wire-types.ts';
import * as THREE from 'three';
import { answerBytes, loadCoarseFirst, type CoarseFirstSteps } from '../coarse-first.ts';
import { asDecodedMesh, MESH_DELIVERY } from '../layers/mesh/glb-mesh.ts';
import { eitherSignal } from './latest-request.ts';
import { renderData } from '../layers/render-data.ts';
import type { LodSource } from '../layers/mesh/lod-shared.ts';
import type { Stage } from '../stage/stage.ts';
import type { StageContent } from '../stage/stage-content.ts';
import { findLevels, levelsFirst } from './level-layers.ts';

export interface LayerLoaderOptions {
  client: VitrineClient;
  stage: Stage;
  /** What a page in VR adds to a request of this type (a mesh's triangle budget); undefined outside VR. */
  vrDelivery(type: string): DeliveryQuery | undefined;
  /** Layer `id` now shows `content` (`panel`: its tool panel); `refined`: the full result after the coarse one. */
  shown(id: string, content: StageContent, panel: HTMLElement | undefined, refined: boolean): void;
  /** Where its load stands: `loading`, `refining`, `failed` (with the reason), '' once drawn. */
  status(id: string, status: string, detail?: string): void;
  /**
   * Where layer `id` of the room computes its result (its `/data`), for a layer that names only
   * a blob the host no longer holds (one restored from a snapshot); null for a snapshot shown
   * read-only, whose layers are not the room's.
   */
  ownDataUrl?(id: string): string | null;
  /**
   * The labels versions of layer `id` the page has drawn into what the layer shows by relabelling
   * the box their edit changed in place (edit-panel.ts).
   */
  relabelled?(id: string): ReadonlySet<number>;
}

interface Load {
  key: string;
  /** How the result is shown (kind, the headset's delivery, surfaces only): a change loads it again. */
  look: string;
  /** The labels version what the layer shows holds (an edited segmentation), else null. */
  version: number | null;
  controller: AbortController;
}

/** The labels version an edited layer's data URL reads (`.../labels?version=N`); null for any other URL. */
function labelsVersion(dataUrl: string): number | null {
  const match = /\/labels\?version=(\d+)$/.exec(dataUrl);
  return match ? Number(match[1]) : null;
}

/** The colour of a segment's surface: its label's, when its parameters name one segment. */
function segmentColour(layer: SceneLayer): THREE.Color | null {
  // A segment layer (`"segment"` in its source) or a function given a segment id: drawn in that label's colour.
  const segment = layer.source.segment ?? layer.source.params?.segment;
  if (typeof segment !== 'number' || !Number.isInteger(segment)) return null;
  const [r, g, b] = labelRgb(segment);
  return new THREE.Color().setRGB(r / 255, g / 255, b / 255, THREE.SRGBColorSpace);
}

export class LayerLoader {
  readonly #options: LayerLoaderOptions;
  readonly #loads = new Map<string, Load>();
  /** Results known to have levels of detail: drawn alike in and out of VR, so entering it loads nothing again. */
  readonly #leveled = new Set<string>();

  constructor(options: LayerLoaderOptions) {
    this.#options = options;
  }

  /** Loads `layer`'s result, unless it is the one shown or on its way. */
  load(layer: SceneLayer): void {
    const result = layer.result;
    if (!result) return;
    const vr = result.result_id && this.#leveled.has(result.result_id) ? undefined : this.#options.vrDelivery(result.type);
    // A segmentation shown as surfaces alone reads no volume: another mode loads it again with one.
    const surfaces = layer.kind === 'labels' && layer.mode === 'surface';
    const look = JSON.stringify([layer.kind, vr ?? null, surfaces]);
    const key = JSON.stringify([result.result_id, result.blob_id ?? null, result.data_url, look]);
    const current = this.#loads.get(layer.id);
    if (current?.key === key) return;
    // An edited segmentation's new version, already drawn where the edits changed it: loading it
    // whole again would redraw the whole layer for a change of a few chunks.
    const version = labelsVersion(result.data_url);
    if (current && version !== null && !surfaces && current.look === look && this.#drawnUpTo(layer.id, current, version)) {
      Object.assign(current, { key, version });
      return;
    }
    this.forget(layer.id);
    const load: Load = { key, look, version: layer.kind === 'labels' ? (version ?? 0) : null, controller: new AbortController() };
    this.#loads.set(layer.id, load);
    void this.#run(layer, load, vr);
  }

  /** Every version after the one `load` shows, up to `version`, was drawn in place by its edit. */
  #drawnUpTo(id: string, load: Load, version: number): boolean {
    if (load.version === null || version <= load.version) return false;
    const drawn = this.#options.relabelled?.(id);
    for (let next = load.version + 1; next <= version; next += 1) if (!drawn?.has(next)) return false;
    return true;
  }

  /** Stops loading layer `id` and forgets what it loaded (it was removed, or became the page's own). */
  forget(id: string): void {
    this.#loads.get(id)?.controller.abort();
    this.#loads.delete(id);
  }

  /** Forgets every layer (the page left the room). */
  clear(): void {
    for (const id of [...this.#loads.keys()]) this.forget(id);
  }

  #show(id: string, content: StageContent, panel?: HTMLElement, refined = false): void {
    this.#options.stage.layers.setContent(id, content, refined);
    this.#options.shown(id, content, panel, refined);
  }

  async #run(layer: SceneLayer, load: Load, vr: DeliveryQuery | undefined): Promise<void> {
    const { client, stage, status } = this.#options;
    const { type, blob_id: blobId } = layer.result!;
    // A snapshot's layers name their blob as their data URL: no coarse delivery to ask for there.
    const dataUrl = layer.result!.data_url.startsWith('/api/blobs/') ? '' : layer.result!.data_url;
    const signal = load.controller.signal;
    // The page's first picture waits for this layer's first content (not for its refinement).
    const pictured = stage.firstPicture.hold();
    const isCurrent = (): boolean => this.#loads.get(layer.id) === load && !signal.aborted;
    const viaUrl = (delivery: DeliveryQuery | undefined, part?: AbortSignal, answered?: (r: Response) => void): Promise<SpecimenData> =>
      client.getLayerData(dataUrl, { delivery, signal: eitherSignal(signal, part), onHeaders: answered });
    // A layer restored from a snapshot names only its blob: when that is gone, the room's layer computes it again.
    const ownUrl = dataUrl ? '' : (this.#options.ownDataUrl?.(layer.id) ?? '');
    const viaBlob = async (fallback: () => Promise<SpecimenData>, part?: AbortSignal): Promise<SpecimenData> => {
      try {
        return await client.getBlob(blobId!, eitherSignal(signal, part));
      } catch (error) {
        // A blob the host no longer holds: the data URL computes or serves it again.
        if (error instanceof VitrineHttpError && error.status === 404) {
          if (!dataUrl && ownUrl) return client.getLayerData(ownUrl, { signal: eitherSignal(signal, part) });
          return fallback();
        }
        throw error;
      }
    };
    // A result without an id is a file the host sends only as it is (a `.xyz` point cloud): no delivery to ask for.
    const asIs = layer.result!.result_id === undefined;
    const fine = asIs ? undefined : type === 'mesh' ? { ...MESH_DELIVERY, ...vr } : vr;
    const show = async (data: SpecimenData, refined: boolean, levels?: LodSource): Promise<void> => {
      const steps = dataUrl ? (query: DeliveryQuery, part: AbortSignal) => viaUrl({ ...fine, ...query }, part) : undefined;
      const rendered = await renderData(stage, data, { meshColour: segmentColour(layer), kind: layer.kind, steps, levels });
      if (!isCurrent() || !rendered.content) {
        rendered.content?.dispose();
        return;
      }
      this.#show(layer.id, rendered.content, rendered.panel, refined);
      pictured();
    };
    const steps: CoarseFirstSteps = {
      first: async (delivery, answered) =>
        asDecodedMesh(
          await (dataUrl ? viaUrl(delivery, undefined, (response) => answered?.(answerBytes(response))) : viaBlob(() => viaUrl(delivery))),
        ),
      full: async (delivery, part) =>
        asDecodedMesh(await (blobId && !vr ? viaBlob(() => viaUrl(delivery, part), part) : viaUrl(delivery, part))),
      show: (data, refined) => show(data, refined),
      refining: (on) => isCurrent() && status(layer.id, on ? 'refining' : ''),
      isCurrent,
    };
    status(layer.id, 'loading');
    try {
      const levels = await findLevels(client, layer, signal);
      if (levels) this.#leveled.add(levels.levels.resultId);
      const first = (content: StageContent) => (isCurrent() ? (this.#show(layer.id, content), pictured()) : content.dispose());
      if (levels && !levelsFirst(stage, layer, levels, segmentColour(layer), first)) {
        if (isCurrent()) status(layer.id, '');
        return;
      }
      // Without a data URL there is no coarse delivery to ask for: the blob is drawn as it is.
      const withLevels = levels ? { ...steps, show: (data: SpecimenData) => show(data, true, levels) } : steps;
      await loadCoarseFirst(dataUrl && !asIs ? type : 'none', fine, withLevels);
      if (isCurrent()) status(layer.id, '');
    } catch (error) {
      if (!isCurrent() || isAbortError(error)) return;
      status(layer.id, 'failed', error instanceof Error ? error.message : String(error));
    } finally {
      pictured();
    }
  }
}
