/**
 * @module level-set-lineage
 * Which earlier result a labels result's level sets come from. An edited segmentation's
 * version is a result of its own, but most of its segments are voxel for voxel what they were
 * in the version it was made from: a segment's surface depends on its own voxels alone, so
 * its level set is that version's, byte for byte. Whoever makes such a result says so
 * (`derived`: result B is result A with segments S changed); each segment then has an origin,
 * the latest result of the chain in which it changed (or the first of the chain). Its level set
 * is named, kept and tagged by that origin's id, and may be taken from any result of the chain
 * down to the origin that still holds it, so a segment an edit did not touch keeps its bytes and
 * its ETag in every later version, and only the changed ones are built.
 *
 * Results are held weakly (a version the budget let go is not kept alive by its lineage); the
 * ids are worked out once, when a result joins a chain.
 */
import type { StoredResult } from '../results/stored-result.ts';

/** A result in a chain: the one it was made from and the segments that changed between them. */
interface Link<Subject extends object> {
  result: WeakRef<Subject>;
  id: Promise<string>;
  /** Null for the first result of a chain. */
  from: { link: Link<Subject>; changed: ReadonlySet<number> } | null;
}

/** Where a segment's level set of a result comes from. */
export interface SegmentOrigin<Subject extends object> {
  /**
   * The id of the earlier result whose set it is (what names the set where sets are kept and
   * tags its files); null when it is the asked result's own.
   */
  id: Promise<string> | null;
  /** The results still in memory whose set of the segment is the same, newest first, the asked one excluded. */
  sharing: Subject[];
}

/** Over results of type `Subject` (a stored result, or labels read by region), held by identity alone. */
export class LevelSetLineage<Subject extends object = StoredResult> {
  #links = new WeakMap<Subject, Link<Subject>>();
  #idOf: (result: Subject) => Promise<string>;

  constructor(idOf: (result: Subject) => Promise<string>) {
    this.#idOf = idOf;
  }

  #linkOf(result: Subject): Link<Subject> {
    let link = this.#links.get(result);
    if (!link) {
      const id = this.#idOf(result);
      id.catch(() => {});
      link = { result: new WeakRef(result), id, from: null };
      this.#links.set(result, link);
    }
    return link;
  }

  /** Says that `result` is `from` with the voxels of `changed` (and of no other segment) changed. */
  derived(result: Subject, from: Subject, changed: Iterable<number>): void {
    if (result === from || this.#links.get(result)?.from) return;
    const link = this.#linkOf(result);
    link.from = { link: this.#linkOf(from), changed: new Set(changed) };
  }

  /** Where `segment`'s level set of `result` comes from. */
  originOf(result: Subject, segment: number): SegmentOrigin<Subject> {
    const asked = this.#links.get(result);
    if (!asked) return { id: null, sharing: [] };
    let link = asked;
    const sharing: Subject[] = [];
    while (link.from && !link.from.changed.has(segment)) {
      link = link.from.link;
      const held = link.result.deref();
      if (held) sharing.push(held);
    }
    return { id: link === asked ? null : link.id, sharing };
  }
}
