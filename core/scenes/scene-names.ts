/**
 * @module scene-names
 * The specimens a scene names: each layer's source specimen, and every specimen an input
 * parameter of its function names (`{"specimen": id}` at any depth of its params, as inputs
 * nest). A published specimen a room names lives as long as the room names it, so the rooms'
 * scenes are asked which of the specimens near their end they still name.
 */
import type { LayerSource, RoomScene } from '../wire/scene-types.ts';
import type { SceneStore } from './scene-store.ts';

/** Deepest params are walked (inputs nest at most 4 deep; a margin above it). */
const MAX_DEPTH = 8;

function namedIn(value: unknown, into: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) namedIn(item, into, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.specimen === 'string') into.add(record.specimen);
  for (const member of Object.values(record)) namedIn(member, into, depth + 1);
}

/** The specimens `source` names, itself and through its inputs. */
export function specimensNamedBy(source: LayerSource, into = new Set<string>()): Set<string> {
  if (typeof source.specimen === 'string') into.add(source.specimen);
  namedIn(source.params, into, 0);
  return into;
}

function renamedIn(value: unknown, names: ReadonlyMap<string, string>, depth: number): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => renamedIn(item, names, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    out[key] = key === 'specimen' && typeof member === 'string' ? (names.get(member) ?? member) : renamedIn(member, names, depth + 1);
  }
  return out;
}

/** `source` with every specimen it names (itself, its inputs) that `names` maps named by the new id. */
export function renameSpecimens(source: LayerSource, names: ReadonlyMap<string, string>): LayerSource {
  const specimen = typeof source.specimen === 'string' ? names.get(source.specimen) : undefined;
  const params = source.params === undefined ? undefined : (renamedIn(source.params, names, 0) as LayerSource['params']);
  return { ...source, ...(specimen !== undefined ? { specimen } : {}), ...(params !== undefined ? { params } : {}) };
}

/** The specimens any layer of `scene` names. */
export function specimensOfScene(scene: Pick<RoomScene, 'layers'>, into = new Set<string>()): Set<string> {
  for (const layer of scene.layers) specimensNamedBy(layer.source, into);
  return into;
}

/** Which specimens the rooms' scenes name, read from their store. */
export class SceneNamers {
  readonly #scenes: Pick<SceneStore, 'everyScene'>;

  constructor(scenes: Pick<SceneStore, 'everyScene'>) {
    this.#scenes = scenes;
  }

  /** Of `ids`, those a layer of some room names; it stops reading once all of them are found. */
  async named(ids: ReadonlySet<string>): Promise<Set<string>> {
    const found = new Set<string>();
    for await (const scene of this.#scenes.everyScene()) {
      for (const id of specimensOfScene(scene)) if (ids.has(id)) found.add(id);
      if (found.size === ids.size) break;
    }
    return found;
  }
}
