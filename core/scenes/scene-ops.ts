/**
 * @module scene-ops
 * Every change a scene can take, as a pure function from the scene before to the scene after
 * (or null: nothing changes, so the version stays and no event goes out). Both stores apply
 * these same functions, each atomically: the memory store at once, the Redis store by reading,
 * applying and writing only if no other writer came first. The store moves `version`; an op
 * never does. Ops throw the catalogued errors (an id taken, an unknown layer, a full scene).
 */
import type { LayerKind, LayerResult, LayerSource, LayerStale, RoomScene, SceneLayer } from '../wire/scene-types.ts';
import { createHostError } from '../errors.ts';
import { bad, DISPLAY_DEFAULTS, DISPLAY_FIELDS } from './check-display.ts';
import type { LayerChange, LayerInput } from './check-layer.ts';
import { sameSource } from './check-source.ts';
import { makeLayerId } from './layer-ids.ts';
import { fitLayerSteps, type StepCounts } from './layer-steps.ts';
import { MAX_LAYERS } from './scene-limits.ts';
import { checkLayerBytes, checkSceneBytes } from './scene-size.ts';
import { stableJson } from '../wire/stable-json.ts';
import { editedFrom } from '../wire/provenance-types.ts';

/**
 * A layer ready to store: its kind decided (the host fills it from the source when not given),
 * and who makes it (`by`, as the host knows them; absent when no one is known to).
 */
export type LayerDraft = LayerInput & { kind: LayerKind; result?: LayerResult; stale?: LayerStale; failed?: LayerStale; by?: string };

/** One change: the scene after it, or null when it changes nothing. */
export type SceneOp = (scene: RoomScene) => RoomScene | null;

export const EMPTY_SCENE: RoomScene = { version: 0, layers: [], active: null };

/**
 * The name a layer takes when a request gives none: what it shows (its specimen or function),
 * and for a label's surface which segment, so a segmentation and the surfaces made of it read
 * as different rows in every list (`cells`, `cells segment 2`, `cells all segments`); a source
 * naming neither gives the layer's id.
 */
function defaultLayerName(source: LayerSource, id: string): string {
  const base = source.specimen ?? source.function;
  if (base === undefined) return id;
  if (source.segment === undefined) return base;
  return source.segment === 'all' ? `${base} all segments` : `${base} segment ${source.segment}`;
}

/** A stored layer: its fields in one order, the display defaults filled, a name when none was given. */
export function composeLayer(id: string, draft: LayerDraft): SceneLayer {
  const layer: Record<string, unknown> = {
    id,
    name: draft.name ?? defaultLayerName(draft.source, id),
    source: draft.source,
    kind: draft.kind,
  };
  for (const field of DISPLAY_FIELDS) {
    if (field === 'name') continue;
    const value = draft[field] ?? (DISPLAY_DEFAULTS as Record<string, unknown>)[field];
    if (value !== undefined) layer[field] = value;
  }
  if (draft.result) layer.result = draft.result;
  if (draft.result && draft.stale) layer.stale = draft.stale;
  if (!draft.result && draft.failed) layer.failed = draft.failed;
  if (draft.by !== undefined) layer.by = draft.by;
  return layer as unknown as SceneLayer;
}

/** Whether two layers are the same, whoever changed each last (field order aside). */
function sameLayer(a: SceneLayer, b: SceneLayer): boolean {
  const { by: _a, ...restA } = a;
  const { by: _b, ...restB } = b;
  return stableJson(restA) === stableJson(restB);
}

function finish(roomId: string, scene: RoomScene, changed: ReadonlySet<string>): RoomScene {
  scene.layers.forEach((layer, i) => {
    if (changed.has(layer.id)) checkLayerBytes(layer, `layers[${i}]`);
  });
  checkSceneBytes(roomId, scene);
  return scene;
}

function find(roomId: string, scene: RoomScene, id: string): number {
  const at = scene.layers.findIndex((layer) => layer.id === id);
  if (at < 0) throw createHostError('SPC_ERR_LAYER_NOT_FOUND', id, roomId);
  return at;
}

/**
 * The whole scene replaced by `drafts` (bottom first). A layer that keeps its id and source
 * keeps its result. `active` undefined keeps the active layer when it stays, else the top one.
 */
export function replaceLayers(roomId: string, drafts: LayerDraft[], active?: string | null): SceneOp {
  return (scene) => {
    if (drafts.length > MAX_LAYERS) throw createHostError('SPC_ERR_SCENE_FULL', String(MAX_LAYERS));
    const given = new Set<string>();
    drafts.forEach((draft, i) => {
      if (draft.id === undefined) return;
      if (given.has(draft.id)) throw bad(`layers[${i}].id`, `'${draft.id}' names two layers: ids are unique in a scene`);
      given.add(draft.id);
    });
    const taken = new Set(given);
    const layers = drafts.map((draft) => {
      const id = draft.id ?? makeLayerId(draft.source, taken);
      taken.add(id);
      const before = scene.layers.find((layer) => layer.id === id);
      // A layer that keeps its source keeps its result (and whether that result is stale).
      const kept = before?.result && sameSource(before.source, draft.source) ? { ...draft, result: before.result, stale: before.stale } : draft;
      const layer = composeLayer(id, kept);
      // A layer given again as it was is not changed: it keeps who changed it last.
      return before && sameLayer(layer, before) ? before : layer;
    });
    const ids = layers.map((layer) => layer.id);
    if (active !== undefined && active !== null && !ids.includes(active)) throw bad('active', `names '${active}', which is not one of the layers given`);
    const chosen = active !== undefined ? active : scene.active !== null && ids.includes(scene.active) ? scene.active : (ids.at(-1) ?? null);
    return finish(roomId, { version: scene.version, layers, active: chosen }, new Set(ids));
  };
}

/** Adds `draft` on top, or at `index` (0 is the bottom); the first layer of a scene becomes the active one. */
export function addLayer(roomId: string, draft: LayerDraft, index?: number): SceneOp {
  return (scene) => {
    const taken = new Set(scene.layers.map((layer) => layer.id));
    if (draft.id !== undefined && taken.has(draft.id)) throw createHostError('SPC_ERR_LAYER_ID_TAKEN', draft.id, roomId);
    if (scene.layers.length >= MAX_LAYERS) throw createHostError('SPC_ERR_SCENE_FULL', String(MAX_LAYERS));
    const layer = composeLayer(draft.id ?? makeLayerId(draft.source, taken), draft);
    const layers = [...scene.layers];
    layers.splice(Math.min(index ?? layers.length, layers.length), 0, layer);
    return finish(roomId, { version: scene.version, layers, active: scene.active ?? layer.id }, new Set([layer.id]));
  };
}

/** Merges `change` into layer `id`: a new source drops the old result, `null` takes a display field back to its default. */
export function patchLayer(roomId: string, id: string, change: LayerChange & { kind?: LayerKind }): SceneOp {
  return (scene) => {
    const at = find(roomId, scene, id);
    const old = scene.layers[at]!;
    const next: Record<string, unknown> = { ...old };
    if (change.source && !sameSource(old.source, change.source)) {
      next.source = change.source;
      delete next.result;
      delete next.stale;
      delete next.failed;
      if (change.display.name === undefined && old.name === defaultLayerName(old.source, id)) next.name = defaultLayerName(change.source, id);
    }
    if (change.kind) next.kind = change.kind;
    for (const [field, value] of Object.entries(change.display)) {
      if (value !== null) next[field] = value;
      else if (field === 'name') next.name = defaultLayerName(next.source as SceneLayer['source'], id);
      else if (field in DISPLAY_DEFAULTS) next[field] = (DISPLAY_DEFAULTS as Record<string, unknown>)[field];
      else delete next[field];
    }
    const composed = composeLayer(id, next as unknown as LayerDraft);
    const active = change.active ? id : scene.active;
    const same = sameLayer(composed, old);
    if (same && active === scene.active) return null;
    // Only a change of the layer itself says who made it (making it active changes the scene).
    const layer = same ? old : change.by !== undefined ? { ...composed, by: change.by } : composed;
    const layers = scene.layers.map((l, i) => (i === at ? layer : l));
    return finish(roomId, { version: scene.version, layers, active }, new Set([id]));
  };
}

/** Removes layer `id`; when it was the active one, the top layer left becomes active. */
export function removeLayer(roomId: string, id: string): SceneOp {
  return (scene) => {
    const at = find(roomId, scene, id);
    const layers = scene.layers.filter((_, i) => i !== at);
    const active = scene.active === id ? (layers.at(-1)?.id ?? null) : scene.active;
    return { version: scene.version, layers, active };
  };
}

/** Makes layer `id` (or none) the active one: the room's entry. */
export function setActive(roomId: string, id: string | null): SceneOp {
  return (scene) => {
    if (id !== null) find(roomId, scene, id);
    return scene.active === id ? null : { ...scene, active: id };
  };
}

/**
 * Whether `result` is a version of an edited labels layer older than the one `shown` already is
 * (the same base, fewer edits: named late, its id took longer to work out), or the base itself
 * computed again under an edited version (a restored or replayed room's own run finishing after
 * the version was set): either changes nothing.
 */
function olderVersion(result: LayerResult, shown: LayerResult | undefined): boolean {
  const [next, now] = [editedFrom(result.provenance), editedFrom(shown?.provenance)];
  if (now === null) return false;
  return next === null ? result.result_id === now.base_result : next.base_result === now.base_result && next.edits.length < now.edits.length;
}

/** `result` with the levels and provenance `shown` has of it when it is the same result told without them. */
function withKnown(result: LayerResult, shown: LayerResult | undefined): LayerResult {
  if (!shown || shown.result_id !== result.result_id) return result;
  return {
    ...result,
    ...(shown.levels && !result.levels ? { levels: shown.levels } : {}),
    ...(shown.provenance && !result.provenance ? { provenance: shown.provenance } : {}),
  };
}

/**
 * Sets layer `id`'s result, computed from `source` (and its kind, when the result decides it),
 * unless the layer has gone or shows another source by now. `counts`: the result's steps and
 * channels, when known: the layer's `t` and `channels` are fitted to them (layer-steps.ts).
 */
export function setLayerResult(id: string, source: SceneLayer['source'], result: LayerResult, kind?: LayerKind, counts?: StepCounts): SceneOp {
  return (scene) => {
    const at = scene.layers.findIndex((layer) => layer.id === id);
    const old = scene.layers[at];
    if (!old || !sameSource(old.source, source)) return null;
    if (olderVersion(result, old.result)) return null;
    // A result of its source set again: the layer is no longer stale. The same result told
    // without what the layer knows of it (its levels, what made it: a room's entry may know
    // neither) keeps what it knows, in whichever order the two came.
    const { stale: _stale, failed: _failed, ...fresh } = old;
    const set = { ...fresh, ...(kind ? { kind } : {}), result: withKnown(result, old.result) };
    const layer = counts ? fitLayerSteps(set, counts) : set;
    if (JSON.stringify(layer) === JSON.stringify(old)) return null;
    return { ...scene, layers: scene.layers.map((l, i) => (i === at ? layer : l)) };
  };
}

/**
 * Says why layer `id`'s source failed while it still shows `source`: a layer with a result keeps
 * showing it, marked `stale`; one without says `failed`.
 */
export function setLayerStale(id: string, source: SceneLayer['source'], why: LayerStale): SceneOp {
  return (scene) => {
    const at = scene.layers.findIndex((layer) => layer.id === id);
    const old = scene.layers[at];
    if (!old || !sameSource(old.source, source)) return null;
    const field = old.result ? 'stale' : 'failed';
    const said = old[field];
    if (said && said.code === why.code && said.detail === why.detail) return null;
    return { ...scene, layers: scene.layers.map((l, i) => (i === at ? { ...old, [field]: why } : l)) };
  };
}

/**
 * Fits layer `id`'s `t` and `channels` to `counts`, the steps and channels of its `result`,
 * unless it shows another result by now (a change taken before its result was known).
 */
export function fitSteps(id: string, result: LayerResult, counts: StepCounts): SceneOp {
  return (scene) => {
    const at = scene.layers.findIndex((layer) => layer.id === id);
    const old = scene.layers[at];
    if (!old?.result || JSON.stringify(old.result) !== JSON.stringify(result)) return null;
    const layer = fitLayerSteps(old, counts);
    return layer === old ? null : { ...scene, layers: scene.layers.map((l, i) => (i === at ? layer : l)) };
  };
}

/**
 * Layer `id` shows `source` now, with `kind` and (when known) `result`: the room's entry
 * changed to it. Nothing changes when the layer has gone or no longer shows `expected`.
 */
export function replaceSource(
  roomId: string,
  id: string,
  expected: SceneLayer['source'],
  source: SceneLayer['source'],
  kind: LayerKind,
  result?: LayerResult,
  counts?: StepCounts,
): SceneOp {
  return (scene) => {
    const layer = scene.layers.find((l) => l.id === id);
    if (!layer || !sameSource(layer.source, expected)) return null;
    const patched = patchLayer(roomId, id, { source, kind, display: {} })(scene);
    const after = patched ?? scene;
    const withResult = result ? setLayerResult(id, source, result, undefined, counts)(after) : null;
    return withResult ?? patched;
  };
}
