/**
 * @module room-snapshots
 * Snapshots of rooms: a content-addressed, immutable record of a room's scene, view and
 * annotations, each layer's result named by its blob id (`data_url` is the blob's URL, the same
 * bytes forever), except a static file no parser reads: the host holds no result of it, so the
 * snapshot names the specimen's file (its `/data`), which lies on disk as long as the specimen
 * does, and pins nothing for it. Taking one computes (or takes from the cache) every layer's result, pins
 * those results for `--snapshot-ttl`, and stores the document under the SHA-256 of its
 * canonical JSON (keys sorted), so the same room taken twice unchanged is the same snapshot.
 * It opens in the viewer at `/?snapshot=<id>`; `PUT .../scene {"snapshot": id}` restores its
 * scene and view into a room: each layer whose bytes the host still holds (pinned, so while the
 * snapshot lives) shows them at once, any other is computed again from its source. A snapshot
 * also travels as a session file (write-session.ts, read-session.ts): its document and the
 * bytes it pins, taken in by another host under the same id, its bytes pinned there, and the
 * published specimens its layers name, published there (session-specimens.ts). Restored into a
 * room of another name, the arrays published for the room it was taken of are copied into that
 * room and its layers name the copies (room-arrays.ts). Every
 * read of a snapshot (its document, its session file, verifying it, restoring it) is asked with
 * who may read which rooms: a snapshot of rooms the asker may not read is not there to them
 * (snapshot-rooms.ts), the same 404 as an unknown one, so a closed room's name never shows.
 */
import { computedProvenance } from '../../wire/provenance-types.ts';
import { boundFrame } from '../../annotations/layer-frame.ts';
import { renderStableJson } from '../../annotations/chunked-render.ts';
import { createHash } from 'node:crypto';
import type { LayerResult, RoomScene, SceneLayer, SnapshotCreated } from '../../wire/scene-types.ts';
import type { CarriedEdit, SnapshotDocument } from '../../wire/snapshot-types.ts';
import { createHostError, isHostError } from '../../errors.ts';
import { stableJson } from '../../wire/stable-json.ts';
import { loadFileResult, type FileResult } from '../../results/file-result.ts';
import type { StoredResult } from '../../results/stored-result.ts';
import { readSessionFile, type ReadSession } from '../read-session.ts';
import { storedSnapshotDocument } from '../check-snapshot-document.ts';
import { namedResults } from '../session-layout.ts';
import type { ResultPins, SnapshotStore } from '../snapshot-store.ts';
import { roomsAfterTaking, roomsOf } from '../snapshot-rooms.ts';
import { writeSession } from '../write-session.ts';
import { COMPUTATION_FAILURES, slotOf } from '../../scenes/service/layer-runs.ts';
import { asIsFileResult } from '../../scenes/service/file-layers.ts';
import { obtainLayerResult, resolveLayerSource, staleOutcome, type LayerOutcome, type LayerSourceDeps } from '../../scenes/service/layer-sources.ts';
import type { RecordedScene, RoomScenes } from '../../scenes/service/room-scenes.ts';
import { VIEW_FIELDS, type ViewChange } from '../../rooms/room-view.ts';
import type { RoomWorkspace } from '../../rooms/service/room-workspace.ts';
import type { TranscriptEntry } from '../../wire/agent-types.ts';
import { pinnedVersion } from '../../scenes/service/pinned-versions.ts';
import { verifySnapshot, type SnapshotVerification } from './snapshot-verify.ts';
import { asRoomsOwn } from '../../events/acting-user.ts';
import { specimensOfScene } from '../../scenes/scene-names.ts';
import type { PublishedSpecimens } from '../../published/published-specimens.ts';
import type { SessionSpecimens } from './session-specimens.ts';

/**
 * Whether the one asking for a snapshot may read one of `rooms`, the rooms it was taken of (an
 * empty list: no room's, anyone may).
 */
export type SnapshotReader = (rooms: readonly string[]) => Promise<boolean>;

/** A snapshot as the host answers it: the document's bytes as hashed, its id, and when it was first taken (ms since the epoch). */
export type StoredSnapshot = Pick<ReadSession, 'id' | 'json' | 'created'>;

export interface SnapshotDeps {
  store: SnapshotStore;
  pins: ResultPins;
  scenes: Pick<RoomScenes, 'scene' | 'restore'>;
  rooms: Pick<RoomWorkspace, 'view' | 'changeView'>;
  sources: LayerSourceDeps;
  ttlSeconds: number;
  /** Where session files taken in are written as they arrive (the data folder's `tmp/`, else the system's). */
  spoolDir: string;
  /** The room's conversation with its agent (its log's), carried by the snapshot when it holds one. */
  conversation?: (roomId: string) => Promise<readonly TranscriptEntry[]>;
  /** The published specimens, each a snapshot names held as long as the snapshot lives. */
  published?: Pick<PublishedSpecimens, 'holdUntil'>;
  /** Whether a result is served as levels of detail: recorded on its layer, as the room's scene does. */
  hasLevels?: (result: StoredResult) => boolean;
  /** The published specimens a session file carries: those named, to save; those carried, to take in. */
  carried?: SessionSpecimens;
  /** Another room's arrays the layers name, published into the room restored into: the layers naming the copies (room-arrays.ts). */
  arraysInto?: (roomId: string, layers: SceneLayer[]) => Promise<SceneLayer[]>;
  /** An edited labels layer's current version, with what made it, its base and its edits; null for one never edited. */
  editedVersion?: (roomId: string, layerId: string) => Promise<(LayerOutcome & { blobId: string; base: StoredResult; edits: CarriedEdit[] }) | null>;
  /** Makes a restored snapshot's carried edits again in the room, for the layers that have none of their own. */
  replayEdits?: (roomId: string, edits: readonly CarriedEdit[]) => Promise<void>;
}

export class RoomSnapshots {
  #deps: SnapshotDeps;

  constructor(deps: SnapshotDeps) {
    this.#deps = deps;
  }

  /**
   * Each layer with its result, computed (or taken from the cache) now, named by its blob. A
   * layer whose function fails is recorded as the room shows it: without a result.
   */
  async #layers(roomId: string, scene: RoomScene): Promise<{ layers: SceneLayer[]; results: StoredResult[]; edits: CarriedEdit[] }> {
    const { sources } = this.#deps;
    // An edited layer's edits travel with it, and its base result is pinned beside its version.
    const edits: CarriedEdit[] = [];
    const bases: StoredResult[] = [];
    const outcomes = await Promise.all(
      scene.layers.map(async (layer) => {
        // A stale layer is recorded as it shows: its last result, while the host holds it.
        if (layer.stale) return staleOutcome(sources, layer);
        // An edited labels layer is recorded at the version it shows now: that version is pinned.
        const edited = layer.kind === 'labels' ? await this.#deps.editedVersion?.(roomId, layer.id) : null;
        if (edited) return (edits.push(...edited.edits), bases.push(edited.base), edited);
        const frame = boundFrame(scene.layers, layer.id);
        // The room's own layer: what whoever put it there was checked for is not asked again.
        const slot = slotOf(roomId, scene, layer.id);
        const resolved = await asRoomsOwn(() => resolveLayerSource(sources, roomId, slot, layer.source, `layers.${layer.id}`, undefined, frame));
        // A file no parser reads is referred to where it lies: the host has no result of it to pin.
        if (resolved.kind === 'file') return { file: await asIsFileResult(resolved.record, resolved.type) };
        return obtainLayerResult(sources, resolved).catch((error: unknown) => {
          if (isHostError(error) && (COMPUTATION_FAILURES as readonly string[]).includes(error.code)) return null;
          throw error;
        });
      }),
    );
    const layers = scene.layers.map((layer, i) => {
      const { result: _shown, ...rest } = layer;
      const outcome = outcomes[i];
      if (!outcome) return rest as SceneLayer;
      if ('file' in outcome) return { ...rest, result: outcome.file };
      // A result named otherwise than by its bytes' hash (an edited version) is kept under that hash.
      const blobId = 'blobId' in outcome && typeof outcome.blobId === 'string' ? outcome.blobId : outcome.resultId;
      const recorded: LayerResult = {
        result_id: outcome.resultId,
        type: outcome.result.type,
        data_url: `/api/blobs/${blobId}`,
        blob_id: blobId,
        ...(outcome.provenance ? { provenance: outcome.provenance } : {}),
        ...(this.#deps.hasLevels?.(outcome.result) ? { levels: true as const } : {}),
      };
      // The version that made it is pinned: restored, the layer is computed by it while the host keeps it.
      const bundle = computedProvenance(outcome.provenance)?.bundle;
      const source = bundle ? { ...rest.source, version: bundle } : rest.source;
      return { ...rest, source, result: recorded };
    });
    return { layers, results: [...outcomes.flatMap((o) => (o && !('file' in o) ? [o.result] : [])), ...bases], edits };
  }

  /** `POST .../snapshots`. */
  async create(roomId: string): Promise<SnapshotCreated> {
    const { store, pins, scenes, rooms, sources, ttlSeconds } = this.#deps;
    const [scene, view, { annotations }, conversation] = await Promise.all([
      scenes.scene(roomId),
      rooms.view(roomId),
      sources.annotations.list(roomId),
      this.#deps.conversation?.(roomId) ?? [],
    ]);
    const { layers, results, edits } = await this.#layers(roomId, scene);
    // Keys sorted, `annotations` first: the marks' canonical JSON is made a batch at a time, each mark's kept.
    // A room that never talked to its agent is taken as before (its id unchanged).
    const carried = { ...(conversation.length > 0 ? { conversation } : {}), ...(edits.length > 0 ? { edits } : {}) };
    const rest = stableJson({ ...carried, scene: { layers, active: scene.active }, view });
    const json = `{"annotations":${await renderStableJson(annotations)},${rest.slice(1)}`;
    const id = createHash('sha256').update(json).digest('hex');
    const ttlMs = ttlSeconds * 1000;
    const known = await store.get(id);
    const pinned = await pins.pin(id, results, ttlMs);
    const owners = roomsAfterTaking(known, roomId);
    // Kept with its entry in the room's log (which so names the seq it was taken at), in one write.
    let logged;
    try {
      logged = await store.put(id, { json, created: known?.created ?? Date.now(), pins: pinned, ...(owners ? { rooms: owners } : {}) }, ttlMs, roomId);
    } catch (error) {
      // Refused: the results pinned for it are let go, unless an earlier take still keeps them.
      if (!known) pins.release?.(id);
      throw error;
    }
    await this.#deps.published?.holdUntil(specimensOfScene({ layers }), Date.now() + ttlMs);
    return { id, url: `/?snapshot=${id}`, ...(logged ? { log_seq: logged.seq } : {}) };
  }

  /**
   * The snapshot: `json`, the very bytes its id hashes, and when it was first taken; 404 when
   * unknown, expired or of rooms `reader` may not read, 410 when its bytes were lost although pinned.
   */
  async get(id: string, reader: SnapshotReader): Promise<StoredSnapshot> {
    const record = await this.#deps.store.get(id);
    if (!record || !(await reader(record.rooms ?? []))) throw createHostError('SPC_ERR_SNAPSHOT_NOT_FOUND', id);
    if (!(await this.#deps.pins.intact(id, record.pins))) {
      throw createHostError(
        'SPC_ERR_SNAPSHOT_LOST',
        id,
        "the bytes of one of its layers were dropped (the host's memory budget or the blob store let them go before their time)",
      );
    }
    return { id, json: record.json, created: record.created };
  }

  /**
   * `GET /api/snapshots/{id}?format=bundle`: the snapshot as a session file's pieces.
   * @throws SPC_ERR_SNAPSHOT_NOT_FOUND, or SPC_ERR_SNAPSHOT_LOST when a pinned result is gone.
   */
  async session(id: string, reader: SnapshotReader): Promise<{ chunks: Uint8Array[]; length: number }> {
    const snapshot = await this.get(id, reader);
    const results = new Map<string, StoredResult>();
    const document = JSON.parse(snapshot.json) as SnapshotDocument;
    for (const resultId of namedResults(document)) {
      const result = await this.#deps.sources.resultIds.find(resultId);
      if (!result) throw createHostError('SPC_ERR_SNAPSHOT_LOST', id, `the bytes of result '${resultId}' are no longer held`);
      results.set(resultId, result);
    }
    const specimens = (await this.#deps.carried?.of(specimensOfScene(document.scene))) ?? [];
    return writeSession(id, snapshot.json, snapshot.created, results, specimens);
  }

  /** Where session files are written as they arrive, to be taken in from there. */
  get spoolDir(): string {
    return this.#deps.spoolDir;
  }

  /**
   * `POST /api/snapshots` with a session file (lying at `file`): the snapshot under its own id,
   * its results checked against their ids and pinned for `--snapshot-ttl` as if it had been
   * taken here, the published specimens it carries published here first (what this host keeps
   * of its own instead is said in `kept_own`). @throws SPC_ERR_SESSION_INVALID or
   * SPC_ERR_SESSION_MISMATCH naming what is at fault, or what publishing a carried file would.
   */
  async importFile(file: string): Promise<SnapshotCreated> {
    const { store, ttlSeconds } = this.#deps;
    const session = await readSessionFile(file);
    const keptOwn = (await this.#deps.carried?.takeIn(session.specimens)) ?? [];
    const ttlMs = ttlSeconds * 1000;
    const known = await store.get(session.id);
    const pinned = await this.#pinFiles(session.id, session.results, ttlMs);
    // Taken in, a snapshot new here is no room's (whoever holds the file could give its bytes to
    // anyone); one kept here already stays its rooms', so no file brought in opens a closed room's.
    const rooms = known ? roomsOf(known) : {};
    await store.put(session.id, { json: session.json, created: known?.created ?? session.created, pins: pinned, ...rooms }, ttlMs);
    await this.#deps.published?.holdUntil(specimensOfScene(session.document.scene), Date.now() + ttlMs);
    return { id: session.id, url: `/?snapshot=${session.id}`, ...(keptOwn.length > 0 ? { kept_own: keptOwn } : {}) };
  }

  /**
   * A session's results pinned: taken from the file where the pins can (on disk, never in
   * memory), else read in (pins held in memory are memory) and indexed by id, so the blob
   * routes and a restore find them at once.
   */
  async #pinFiles(id: string, files: FileResult[], ttlMs: number): Promise<unknown> {
    const { pins, sources } = this.#deps;
    if (pins.pinFiles) return pins.pinFiles(id, files, ttlMs);
    const results: StoredResult[] = [];
    for (const file of files) results.push(await loadFileResult(file));
    await Promise.all(results.map((result) => sources.resultIds.of(result)));
    return pins.pin(id, results, ttlMs);
  }

  /**
   * The layers of a snapshot found whole (`get` checked every pin), each keeping the result it
   * names by id; a file shown as it is (no id) is looked up again from its specimen.
   */
  #restorable(snapshot: SnapshotDocument): RecordedScene {
    const layers = snapshot.scene.layers.map((layer) => {
      const { result, ...rest } = layer;
      return result?.result_id ? layer : (rest as SceneLayer);
    });
    return { layers, active: snapshot.scene.active };
  }

  /** `POST /api/snapshots/{id}/verify`: each layer computed again with its pinned version, compared. */
  async verify(id: string, reader: SnapshotReader): Promise<SnapshotVerification> {
    const snapshot = storedSnapshotDocument(id, (await this.get(id, reader)).json);
    return verifySnapshot(this.#deps.sources, id, snapshot);
  }

  /**
   * `PUT .../scene {"snapshot": id}`: the snapshot's scene, view and annotations become the room's.
   * `author`, when the one restoring is known, becomes every mark's author: what a snapshot says
   * of who placed its marks is a claim (a session file can be made to say anything), kept in the
   * snapshot, never passed on to the room as the host's word; a restore is its restorer's write,
   * as a mark sent in a body is its sender's.
   */
  async restore(roomId: string, id: string, reader: SnapshotReader, ifMatch?: number, author?: string): Promise<RoomScene> {
    const snapshot = storedSnapshotDocument(id, (await this.get(id, reader)).json);
    // A layer pinned to a version this host no longer keeps is refused now, before the room changes.
    for (const layer of snapshot.scene.layers) {
      pinnedVersion(this.#deps.sources, layer.source, computedProvenance(layer.result?.provenance)?.plugin ?? undefined);
    }
    const restorable = this.#restorable(snapshot);
    // The arrays its layers name go with it: each published for another room is copied into this one first.
    const layers = (await this.#deps.arraysInto?.(roomId, restorable.layers)) ?? restorable.layers;
    const scene = await this.#deps.scenes.restore(roomId, { ...restorable, layers }, ifMatch);
    // The marks first were the scene's to bind: a layer bound to points computes with the snapshot's.
    const marks = author === undefined ? snapshot.annotations : snapshot.annotations.map((mark) => ({ ...mark, author }));
    await this.#deps.sources.annotations.replace(roomId, marks);
    const change: ViewChange = {};
    for (const field of VIEW_FIELDS) (change as Record<string, unknown>)[field] = snapshot.view[field] ?? null;
    await this.#deps.rooms.changeView(roomId, change);
    // Its edits made again, so the room's edit list, undo and later edits go on from its version.
    if (snapshot.edits) await this.#deps.replayEdits?.(roomId, snapshot.edits);
    return scene;
  }
}
