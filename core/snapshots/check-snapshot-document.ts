/**
 * @module check-snapshot-document
 * A snapshot document as it came from outside (a session file taken in, or a record another
 * host wrote), checked as what it must be before anything keeps or restores it: `{annotations,
 * scene, view}` (and the room's `conversation` with its agent when it had one, the `edits` of
 * its edited labels layers when it has some) and nothing
 * else, its nesting shallow, each layer as a scene takes one (every
 * field and size a scene bounds, with the result the host recorded), the view as a room takes
 * one, and each mark as a room takes one (label, properties, author ... within their caps, at
 * most a room's count of them) with the fields the host stamped. The document hashing to its
 * id says nothing of this: anyone can hash anything.
 */
import { createHostError, isHostError } from '../errors.ts';
import { checkDraft } from '../annotations/check-annotation.ts';
import { isRecord } from '../wire/json-object.ts';
import { DEFAULT_MAX_ANNOTATIONS } from '../annotations/annotation-store.ts';
import { checkLayer, checkLayerId } from '../scenes/check-layer.ts';
import { MAX_LAYERS } from '../scenes/scene-limits.ts';
import { checkLayerBytes } from '../scenes/scene-size.ts';
import { checkViewChange } from '../rooms/room-view.ts';
import type { SceneLayer } from '../wire/scene-types.ts';
import { HISTORY_ENTRIES } from '../wire/agent-types.ts';
import type { SnapshotDocument } from '../wire/snapshot-types.ts';
import { checkLayerRecord, checkMarkStamp } from './snapshot-record-fields.ts';

/** How deep any value of a document may nest (a mark's point is 4 deep; parameters a few more). */
export const MAX_DOCUMENT_DEPTH = 32;

/** The fields of a snapshot document. */
const DOCUMENT_FIELDS = ['annotations', 'conversation', 'edits', 'scene', 'view'];

/** Edits a snapshot carries, at most (each is made again where it is restored). */
const MAX_CARRIED_EDITS = 100_000;

/** A document's own fault, said with where it is. */
class DocumentFault extends Error {}

/** Throws when `value` nests deeper than MAX_DOCUMENT_DEPTH, without recursing (a document may nest 100,000 deep). */
function checkDepth(value: unknown): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > MAX_DOCUMENT_DEPTH) throw new DocumentFault(`it nests more than ${MAX_DOCUMENT_DEPTH} levels deep`);
    for (const child of Object.values(item)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
}

function checkScene(value: unknown): void {
  if (!isRecord(value)) throw new DocumentFault("'scene' must be an object {layers, active}");
  const extra = Object.keys(value).find((key) => key !== 'layers' && key !== 'active');
  if (extra !== undefined) throw new DocumentFault(`'scene.${extra}' is not a field of a snapshot's scene`);
  if (!Array.isArray(value.layers)) throw new DocumentFault("'scene.layers' must be a list of layers");
  const count = value.layers.length;
  if (count > MAX_LAYERS) throw new DocumentFault(`'scene.layers' holds ${count} layers, more than the ${MAX_LAYERS} a scene holds`);
  const ids = new Set<string>();
  value.layers.forEach((raw, i) => {
    const path = `scene.layers[${i}]`;
    const layer = checkLayer(raw, path) as SceneLayer;
    const record = raw as Record<string, unknown>;
    if (layer.id === undefined) throw new DocumentFault(`'${path}.id' is required`);
    if (layer.kind === undefined) throw new DocumentFault(`'${path}.kind' is required`);
    if (ids.has(layer.id)) throw new DocumentFault(`'${path}.id' '${layer.id}' names two layers`);
    ids.add(layer.id);
    Object.assign(layer, checkLayerRecord(record, path));
    checkLayerBytes(layer, path);
  });
  if (value.active === undefined || value.active === null) return;
  const active = checkLayerId(value.active, 'scene.active');
  if (!ids.has(active)) throw new DocumentFault(`'scene.active' names '${active}', which is none of its layers`);
}

function checkMarks(value: unknown, each: boolean): void {
  if (!Array.isArray(value)) throw new DocumentFault("'annotations' must be a list of marks");
  const max = DEFAULT_MAX_ANNOTATIONS;
  if (value.length > max) throw new DocumentFault(`'annotations' holds ${value.length} marks, more than a room keeps (${max})`);
  if (!each) return;
  const ids = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const path = `annotations[${i}]`;
    checkDraft(value[i], path);
    const { id } = checkMarkStamp(value[i] as Record<string, unknown>, path);
    if (ids.has(id)) throw new DocumentFault(`'${path}.id' '${id}' names two marks`);
    ids.add(id);
  }
}

/** A room's conversation as a snapshot carries it: its newest turns, each the user's or the agent's words. */
function checkConversation(value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw new DocumentFault("'conversation' must be a list of turns");
  if (value.length > HISTORY_ENTRIES) throw new DocumentFault(`'conversation' holds ${value.length} turns, more than a snapshot carries (${HISTORY_ENTRIES})`);
  value.forEach((turn: unknown, i) => {
    const fine = isRecord(turn) && (turn.role === 'user' || turn.role === 'agent') && typeof turn.text === 'string' && Object.keys(turn).length === 2;
    if (!fine) throw new DocumentFault(`'conversation[${i}]' must be {role: "user" | "agent", text}`);
  });
}

/**
 * The edits of edited labels layers, as a snapshot carries them: each of a labels layer of its
 * scene, the versions of each layer 1, 2, 3 ... in order. The edits themselves are checked
 * where they are made again, as any edit is.
 */
function checkEdits(value: unknown, scene: { layers: SceneLayer[] }): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw new DocumentFault("'edits' must be a list of edits");
  if (value.length > MAX_CARRIED_EDITS) throw new DocumentFault(`'edits' holds ${value.length} edits, more than a snapshot carries (${MAX_CARRIED_EDITS})`);
  const labels = new Set(scene.layers.filter((layer) => layer.kind === 'labels').map((layer) => layer.id));
  const versions = new Map<string, number>();
  value.forEach((entry: unknown, i) => {
    const path = `edits[${i}]`;
    if (!isRecord(entry) || !isRecord(entry.edit) || typeof entry.edit.op !== 'string')
      throw new DocumentFault(`'${path}' must be {layer, seq, ts, by, version, edit}`);
    if (typeof entry.layer !== 'string' || !labels.has(entry.layer)) throw new DocumentFault(`'${path}.layer' names no labels layer of the scene`);
    const next = (versions.get(entry.layer) ?? 0) + 1;
    if (entry.version !== next) throw new DocumentFault(`'${path}.version' must be ${next}, the next of layer '${entry.layer}'`);
    versions.set(entry.layer, next);
    if (!Number.isSafeInteger(entry.seq) || typeof entry.ts !== 'number' || typeof entry.by !== 'string')
      throw new DocumentFault(`'${path}' must have a seq, a ts and a by`);
  });
}

/**
 * Throws when `document` (parsed JSON) is no snapshot document: a catalogued 4xx, or this
 * module's own fault. `each`: every mark checked too (a tenth of a second for 100,000), else
 * only that they are a list within a room's count.
 */
function check(document: unknown, each: boolean): void {
  if (!isRecord(document)) throw new DocumentFault('it must be an object {annotations, scene, view}');
  checkDepth(each ? document : { scene: document.scene, view: document.view });
  const extra = Object.keys(document).find((key) => !DOCUMENT_FIELDS.includes(key));
  if (extra !== undefined) throw new DocumentFault(`'${extra}' is not a field of a snapshot document (${DOCUMENT_FIELDS.join(', ')})`);
  for (const field of ['annotations', 'scene', 'view']) if (document[field] === undefined) throw new DocumentFault(`it has no '${field}'`);
  checkScene(document.scene);
  if (!isRecord(document.view)) throw new DocumentFault("'view' must be an object of view settings");
  checkViewChange(document.view);
  checkMarks(document.annotations, each);
  checkConversation(document.conversation);
  checkEdits(document.edits, document.scene as { layers: SceneLayer[] });
}

/** Why `document` is no snapshot document, or null when it is one; `each` as for check(). */
export function snapshotDocumentFault(document: unknown, each = true): string | null {
  try {
    check(document, each);
    return null;
  } catch (error) {
    if (error instanceof DocumentFault || (isHostError(error) && error.statusCode < 500)) return error.message;
    throw error;
  }
}

/**
 * The text of a snapshot document taken in, parsed and checked.
 * @throws SPC_ERR_SESSION_INVALID naming `name` (the file's part) and what is at fault.
 */
export function readSnapshotDocument(json: string, name: string): SnapshotDocument {
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch (error) {
    throw createHostError('SPC_ERR_SESSION_INVALID', `'${name}' is not JSON: ${(error as Error).message}`);
  }
  const fault = snapshotDocumentFault(document);
  if (fault !== null) throw createHostError('SPC_ERR_SESSION_INVALID', `'${name}' is not a snapshot document: ${fault}`);
  return document as SnapshotDocument;
}

/**
 * A kept snapshot's document, checked before it is restored or verified: one kept before
 * documents were checked on the way in may be none. Its marks are not checked one by one again
 * (those taken here and taken in since were), so a restore of 100,000 costs no more than it did.
 * @throws SPC_ERR_SNAPSHOT_LOST saying what is at fault.
 */
export function storedSnapshotDocument(id: string, json: string): SnapshotDocument {
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch {
    throw createHostError('SPC_ERR_SNAPSHOT_LOST', id, 'its document is not JSON');
  }
  const fault = snapshotDocumentFault(document, false);
  if (fault !== null) throw createHostError('SPC_ERR_SNAPSHOT_LOST', id, `its document is not a snapshot document (${fault})`);
  return document as SnapshotDocument;
}
