/**
 * @module mesh-lods
 * The level sets of held results, per surface: every labels volume (each segment its own set)
 * and every mesh over `--mesh-lod-triangles` (one set, segment 1). A set is built on an encode
 * thread the first time any of its files is asked, in the asking client's turn among the
 * delivery work (fair turns, so a build never holds back a small answer for someone else);
 * concurrent askers share the one build; the set is then kept beside its result as a dependent
 * in the host's result budget (counted in its bytes, gone when the result goes, or earlier
 * when the budget needs room), and where results are kept (a data folder, a service's blob
 * store: kept-level-sets.ts), where it is looked for before it is built, so a host started
 * again or another host of the service serves it without building it. A set is determined by
 * its result, so the files it answers may be cached by anyone for good. An edited
 * segmentation's new version shares the sets of every segment its edits left alone with the
 * version it was made from (level-set-lineage.ts): only the changed segments are built, each
 * from the box it lies in, read from the layer's chunks (region-labels.ts): a version's voxels
 * are never made whole for its surfaces. Such a set's coarsest level is told by its thread before
 * the finer levels are encoded, and what a viewer reads first of the segment (its sidecar, the
 * coarsest level's fragments) is answered from it meanwhile, with the finished set's bytes.
 */
import { keptWhileMade, type ResultBudget } from '../cache/result-budget.ts';
import { createHostError, isHostError, wrapHostError, type HostError } from '../errors.ts';
import { findLabel, type LabelIndex } from '../labels/label-index.ts';
import type { IndexBox, IndexChange } from '../labels/derived-label-index.ts';
import type { StoredResult, StoredVolume } from '../results/stored-result.ts';
import { hasMeshLevels, meshLevelsOf } from './has-levels.ts';
import type { MeshLodsRunner } from './lod-tasks.ts';
import { IDENTITY, voxelTransform } from './lod-sources.ts';
import type { SegmentLods, ShownLevels } from './level-set.ts';
import { CoarsestLevels, coarsestPort, type TellCoarsest } from './coarsest-levels.ts';
import { levelSetName, type KeptLevelSets } from './kept-level-sets.ts';
import type { LevelPart } from './assemble-level.ts';
import { labelColour } from '../wire/label-colors.ts';
import { buildBytes } from './build-bytes.ts';
import { LevelSetLineage } from './level-set-lineage.ts';
import { MESH_SEGMENT, segmentSource, type LodResult, type LodSubject, type SourceOf } from './lod-subjects.ts';
import { isRegionLabels, type RegionLabels } from './region-labels.ts';

/**
 * The share of `--cache-max-bytes` one level-set build may hold: the host keeps within 1.5 times
 * the cache (and its own 300 MiB), the cache itself taking up to once, so a build gets the half
 * beyond it.
 */
export const BUILD_SHARE = 0.5;

/** What the sets are made with: the encode threads, their turns, the budget, a volume's label index, where sets are kept. */
export interface MeshLodsDeps {
  run: MeshLodsRunner;
  turns: { run<V>(client: string, work: () => Promise<V>, small?: boolean): Promise<V> };
  budget: ResultBudget<StoredResult>;
  labelIndex(volume: StoredVolume, client: string): Promise<LabelIndex>;
  /** Told that a volume is an earlier one with some segments changed (its index is derived from the earlier one's). */
  indexDerived?(volume: StoredVolume, from: StoredResult, change: IndexChange): void;
  /** A mesh over this many triangles has levels (`--mesh-lod-triangles`). */
  lodTriangles: number;
  /** Where sets outlive this process (a data folder, a service's blob store); null: the budget alone. */
  kept: KeptLevelSets | null;
  /** A result's id (what names its sets where they are kept). */
  idOf(result: StoredResult): Promise<string>;
  /** Says why a set could not be kept or read back (it is built again). */
  warn(line: string): void;
}

export class MeshLods {
  #deps: MeshLodsDeps;
  #sets = new WeakMap<LodResult, Map<number, Promise<SegmentLods>>>();
  #levels = new WeakMap<LodResult, Map<string, Promise<StoredResult>>>();
  /** The coarsest levels of sets being built coarsest first (labels read by region), until each set is done. */
  #coarsest = new CoarsestLevels<LodResult>();
  /**
   * Builds that failed, by result and segment: answered again at once rather than built again
   * (a build that ran out of memory would do so again, at the same cost, for every ask). Held
   * by the result itself, so a changed result (another object) is built afresh, and forgotten
   * when the host restarts.
   */
  #failed = new WeakMap<LodResult, Map<number, HostError>>();
  /** Level sets built since start, found where sets are kept, and written there. */
  readonly counts = { built: 0, found: 0, kept: 0 };
  /** Which earlier result each segment's set of an edited segmentation is. */
  #lineage: LevelSetLineage<LodResult>;

  constructor(deps: MeshLodsDeps) {
    this.#deps = deps;
    this.#lineage = new LevelSetLineage((result) => this.#idOf(result));
  }

  /**
   * Says that `result` is `from` with only the voxels of `changed` segments changed (an edit's
   * new version), within their boxes in `from` and `boxes`: every other segment's level set is
   * `from`'s, taken from it rather than built, and its files keep their tags; its label index is
   * `from`'s with the changed segments' entries found in their region. When someone was looking at a changed segment (`from` holds
   * its set), the changed segments still present are built at once, so viewers redrawing after
   * the edit find them made or under way.
   */
  derived(result: LodResult, from: LodResult, changed: Iterable<number>, boxes: readonly IndexBox[]): void {
    const ids = [...new Set(changed)];
    this.#lineage.derived(result, from, ids);
    if (result.type === 'volume' && !isRegionLabels(from)) this.#deps.indexDerived?.(result, from, { changed: ids, boxes });
    const viewed = this.#sets.get(from);
    if (!ids.some((id) => viewed?.has(id)) || (!isRegionLabels(result) && !hasMeshLevels(result, this.#deps.lodTriangles))) return;
    void this.subject(result, '')
      .then((subject) => {
        for (const id of ids) if (subject.index && findLabel(subject.index, id) >= 0) this.segment(subject, id).catch(() => {});
      })
      .catch((error: unknown) => this.#deps.warn(`the changed segments of an edited version were not built ahead (${String(error)})`));
  }

  /**
   * Says that `result` is `named` (labels read by region) made whole: each of its level sets is
   * `named`'s, built once for both; its label index is `from`'s with `change` (as {@link derived}).
   * Nothing is built ahead for it: `named` was.
   */
  madeWhole(result: StoredVolume, named: RegionLabels, from: StoredResult, change: IndexChange): void {
    this.#lineage.derived(result, named, []);
    if (from !== result) this.#deps.indexDerived?.(result, from, change);
  }

  /** The id of the earlier result whose level set of `segment` this result's is (what tags its files); null: its own. */
  setId(result: LodResult, segment: number): Promise<string> | null {
    return this.#lineage.originOf(result, segment).id;
  }

  /**
   * The result as a subject of levels of detail. @throws SPC_ERR_NO_MESH_LEVELS (404) for a
   * result that has none (neither a labels volume nor a mesh over the bound).
   */
  async subject(result: LodResult, id: string, client = ''): Promise<LodSubject> {
    if (isRegionLabels(result)) {
      const index = await result.index(client);
      return { result, segments: index.ids, transform: result.transform, index };
    }
    const levels = meshLevelsOf(result, this.#deps.lodTriangles);
    if ('why' in levels) throw wrapHostError(levels.error, 'SPC_ERR_NO_MESH_LEVELS', id, levels.why());
    const { volume } = levels;
    if (!volume) return { result, segments: Uint32Array.of(MESH_SEGMENT), transform: IDENTITY, index: null };
    const index = await this.#deps.labelIndex(volume, client);
    return { result, segments: index.ids, transform: voxelTransform(volume), index };
  }

  /** The level set of `segment` of a subject, built on first ask. @throws SPC_ERR_SEGMENT_NOT_FOUND. */
  segment(subject: LodSubject, segment: number, client = ''): Promise<SegmentLods> {
    const source = segmentSource(subject, segment);
    const { result } = subject;
    let sets = this.#sets.get(result);
    if (!sets) this.#sets.set(result, (sets = new Map()));
    this.#deps.budget.touch(result);
    const known = sets.get(segment);
    if (known) {
      void known.then((lods) => this.#deps.budget.touch(lods), () => {});
      return known;
    }
    const origin = this.#lineage.originOf(result, segment);
    // An earlier version whose set of the segment is this one's, still holding it.
    for (const earlier of origin.sharing) {
      const shared = this.#sets.get(earlier)?.get(segment);
      if (!shared) continue;
      this.#deps.budget.touch(earlier);
      void shared.then((lods) => this.#deps.budget.touch(lods), () => {});
      return shared;
    }
    const failed = this.#failed.get(result)?.get(segment);
    if (failed) return Promise.reject(failed);
    const table = sets;
    const told = isRegionLabels(result) ? this.#coarsest.expect(result, segment) : undefined;
    const making = this.#made(origin.id ? () => origin.id! : () => this.#idOf(result), segment, source, client, told).catch((error: unknown) => {
      throw this.#keptFailed(result, segment, error);
    });
    if (told) this.#coarsest.until(result, segment, making);
    return keptWhileMade(table, segment, making, (lods) => {
      const bytes = lods.packed.byteLength + lods.fragments.length * 128;
      this.#deps.budget.holdDependent(lods, bytes, result, `levels:${segment}`, () => table.delete(segment));
    });
  }

  /** What a viewer reads first of `segment` (sidecar, coarsest fragments) from: its set, or its coarsest level when that comes first. */
  shown(subject: LodSubject, segment: number, client = ''): Promise<ShownLevels> {
    const whole = this.segment(subject, segment, client);
    const coarsest = this.#coarsest.of(subject.result, segment);
    return coarsest ? Promise.race([whole, coarsest]) : whole;
  }

  /** The failure of a build, as the error every later ask of the segment answers. */
  #keptFailed(result: LodResult, segment: number, error: unknown): HostError {
    const why = isHostError(error) ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    // A refusal the host made says why itself; anything else is told as a failed build.
    const kept = isHostError(error) ? error : wrapHostError(error, 'SPC_ERR_MESH_LEVELS_FAILED', String(segment), why);
    let failed = this.#failed.get(result);
    if (!failed) this.#failed.set(result, (failed = new Map()));
    failed.set(segment, kept);
    this.#deps.warn(`level set of segment ${segment} failed, kept as failed: ${why}`);
    return kept;
  }

  /**
   * The set found where sets are kept (named by the id of the result it is first of, `origin`:
   * the asked one, or the id of an earlier one whose set it is), else built in the client's
   * turn (and then kept). `told`, when given, is told the coarsest level as soon as the thread has it.
   */
  async #made(origin: () => Promise<string>, segment: number, source: SourceOf, client: string, told?: TellCoarsest): Promise<SegmentLods> {
    const { kept, warn } = this.#deps;
    const name = kept ? levelSetName(await origin(), segment) : '';
    const unread = (error: unknown): void => void warn(`a kept level set could not be read (${String(error)}): built again`);
    const found = kept ? await kept.find(name).catch(unread) : null;
    if (found) {
      this.counts.found++;
      return found;
    }
    // Refused before anything is sent to a thread: the surface's triangles are known already
    // (the label index counts each segment's faces; a mesh has its own), so what the build
    // would hold is too.
    const { triangles } = source;
    const maxBytes = this.#deps.budget.maxBytes * BUILD_SHARE;
    const bytes = buildBytes(triangles);
    if (bytes > maxBytes) {
      const mib = (n: number) => `${Math.ceil(n / 2 ** 20)} MiB`;
      throw createHostError('SPC_ERR_MESH_LEVELS_TOO_LARGE', String(segment), String(triangles), mib(bytes), mib(maxBytes));
    }
    // Labels read by region: read before the build's turn, which never waits on them, then built coarsest first (told on a port).
    const read = source.read();
    const from = read instanceof Promise ? await read : read;
    const channel = told ? coarsestPort(told) : null;
    const task = { op: 'meshLods' as const, source: from, ...(channel ? { port: channel.port } : {}) };
    const { lods, keptId } = await this.#deps.turns.run(client, () => this.#deps.run.build(task)).finally(() => channel?.close());
    this.counts.built++;
    kept?.keep(name, lods, keptId).then(
      () => void this.counts.kept++,
      (error: unknown) => warn(`a level set could not be kept (${String(error)}): it stays in memory only`),
    );
    return lods;
  }

  /**
   * One segment's surface (a mesh's: null), or every segment's painted in its colour (`all`),
   * at the finest level whose triangles are within `maxTriangles` (the coarsest when none is),
   * as one mesh in physical units; null when the result has no levels (the caller shapes the
   * result itself). Made once per level. A fault on the way (the label index, a build) is thrown,
   * never taken for "no levels".
   */
  async levelMesh(result: StoredResult, segment: number | 'all' | null, maxTriangles: number, client = ''): Promise<StoredResult | null> {
    if (!hasMeshLevels(result, this.#deps.lodTriangles)) return null;
    const subject = await this.subject(result, '', client);
    if ((segment === null) !== (subject.index === null)) return null;
    const ids = segment === 'all' ? Array.from(subject.segments) : [segment ?? MESH_SEGMENT];
    const sets = await Promise.all(ids.map((id) => this.segment(subject, id, client)));
    const deepest = Math.max(...sets.map((lods) => lods.levels));
    const at = (lods: SegmentLods, level: number) => Math.min(level, lods.levels - 1);
    let level = 0;
    while (level < deepest - 1 && sets.reduce((n, lods) => n + lods.triangles[at(lods, level)]!, 0) > maxTriangles) level++;
    const colors = result.type === 'volume' ? result.label_colors : undefined;
    const parts: LevelPart[] = sets.map((lods, k) => {
      // Painted as every view paints a segment (wire/label-colors.ts).
      const rgb = segment === 'all' ? (labelColour(ids[k]!, { resultColors: colors }) ?? undefined) : undefined;
      return { lods, level: at(lods, level), ...(rgb ? { rgb } : {}) };
    });
    return this.#assembled(result, `${segment ?? MESH_SEGMENT}@${level}`, parts, client);
  }

  /** Level `level` of one segment's set as one mesh in physical units (unpainted). */
  async level(subject: LodSubject, segment: number, level: number, client = ''): Promise<StoredResult> {
    const lods = await this.segment(subject, segment, client);
    return this.#assembled(subject.result, `${segment}#${level}`, [{ lods, level: Math.min(level, lods.levels - 1) }], client);
  }

  /** Parts of level sets assembled into one mesh on an encode thread, once per key, kept beside the result. */
  #assembled(result: LodResult, key: string, parts: LevelPart[], client: string): Promise<StoredResult> {
    let made = this.#levels.get(result);
    if (!made) this.#levels.set(result, (made = new Map()));
    const known = made.get(key);
    if (known) return known;
    const table = made;
    return keptWhileMade(table, key, this.#deps.turns.run(client, () => this.#deps.run.assemble({ op: 'assembleLevel', parts })), (mesh) => {
      const bytes = mesh.type === 'mesh' ? mesh.vertices.byteLength * 2 + mesh.indices.byteLength : 0;
      this.#deps.budget.holdDependent(mesh, bytes, result, `level:${key}`, () => table.delete(key));
    });
  }

  /** A result's id, or what labels read by region are named. */
  #idOf(result: LodResult): Promise<string> {
    return isRegionLabels(result) ? result.id : this.#deps.idOf(result);
  }
}
