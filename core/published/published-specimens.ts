/**
 * @module published-specimens
 * The published specimens of this host (`PUT /api/specimens/{id}`), listed in its catalog as
 * static file specimens: each file is written to a folder of this host's own, so every route
 * serves it as it serves a file from the specimens directory (the envelope of a `.npy` volume,
 * the known-client profile, ranges, compression, thumbnails). Their bytes count in the host's
 * result budget. A lone host is their only keeper: it pins them, so no computed result ever
 * pushes one out, and refuses a new one (507) once pins would pass the budget; with a data folder they live in its
 * files, linked from the host's folder and held nowhere in memory; on a Redis service they live in the
 * service (PublishedShare) and this host keeps copies: it reads the list again whenever the
 * service's version has moved, so a specimen published or deleted on one host is listed (or
 * gone) on every other at its next catalog request, and a restarted host lists them all.
 * A specimen goes `--published-ttl` after it was published unless something names it
 * (published-expiry.ts): a room's scene renews it, a snapshot holds it until the snapshot goes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertPinnable } from '../cache/pin-room.ts';
import { waitAtMost } from '../redis/time-limit.ts';
import type { ResultBudget } from '../cache/result-budget.ts';
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { publishedRecord } from './published-catalog-record.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { PublishedMeta, PublishedShare } from './published-record.ts';
import { PublishedExpiry, type SpecimenNamers } from './published-expiry.ts';

/** The catalog source of published specimens. */
const SOURCE = 'published';
/** Longest a catalog request waits for the service's list before answering with this host's copy. */
const REFRESH_WAIT_MS = 1500;

interface Held {
  meta: PublishedMeta;
  record: SpecimenRecord;
  /** The object the budget counts this file under. */
  token: object;
  dir: string;
}

export interface PublishedLog {
  warn(line: string): void;
}

export class PublishedSpecimens {
  #catalog: SpecimenCatalog;
  #budget: ResultBudget<StoredResult>;
  #share: PublishedShare | null;
  #log: PublishedLog;
  #root: string | null = null;
  #held = new Map<string, Held>();
  /** The service's version this host's copies match; null: read the list at the next chance. */
  #version: string | null = null;
  #refreshing: Promise<void> | null = null;
  #followers: (() => Promise<void>)[] = [];
  /** Moved by each publish and delete made here: a list read before one of them is stale. */
  #edits = 0;
  #expiry: PublishedExpiry;
  #onChange: (id: string) => void;
  readonly ttlMs: number;

  /** `onChange`: called with the id of each published specimen this host lists anew, changed or no longer lists. */
  constructor(deps: {
    catalog: SpecimenCatalog;
    budget: ResultBudget<StoredResult>;
    share: PublishedShare | null;
    ttlSeconds: number;
    log: PublishedLog;
    onChange?: (id: string) => void;
    /** What names published specimens (the rooms' scenes): what they name does not expire. */
    namers?: SpecimenNamers;
  }) {
    this.#onChange = deps.onChange ?? (() => {});
    this.#catalog = deps.catalog;
    this.#budget = deps.budget;
    this.#share = deps.share;
    this.#log = deps.log;
    this.ttlMs = deps.ttlSeconds * 1000;
    this.#expiry = new PublishedExpiry(this.ttlMs, deps.namers ?? null, {
      held: () => [...this.#held.values()].map((held) => held.meta),
      renew: (id, until) => this.#extend(id, until),
      // A host that alone keeps its specimens removes them; a service's expire there on their own.
      drop: async (id) => void (this.#share && !this.#share.sweptByHost ? this.#drop(id) : await this.remove(id)),
      warn: (line) => this.#log.warn(line),
    });
  }

  /** Whether published specimens live in a service shared with other hosts. */
  get shared(): boolean {
    return this.#share !== null;
  }

  /** Whether a file of `bytes` bytes can be kept at all (the whole result budget is larger). */
  fits(bytes: number): boolean {
    return bytes <= this.#budget.maxBytes;
  }

  /** The published specimen `id` held here, or undefined. */
  get(id: string): PublishedMeta | undefined {
    const held = this.#held.get(id);
    return held && held.meta.expires_at > Date.now() ? held.meta : undefined;
  }

  /**
   * Publishes `bytes` as `meta.id`; true when it replaced a published specimen. On a service
   * the service keeps it first, so a host that fails to write its copy still lists it later.
   */
  async publish(meta: PublishedMeta, bytes: Buffer): Promise<boolean> {
    if (!this.#share) assertPinnable(this.#budget, bytes.length - (this.#held.get(meta.id)?.meta.bytes ?? 0), `the published file '${meta.id}'`);
    this.#edits++;
    const replaced = this.#share ? await this.#share.put(meta, bytes) : this.get(meta.id) !== undefined;
    const file = this.#share?.fileOf?.(meta);
    await (file ? this.#keepAt(meta, file) : this.#keep(meta, bytes));
    // This host's copy is current, but another host may have written meanwhile: read again next time.
    if (this.#share) this.#version = null;
    return replaced;
  }

  /** Removes the published specimen `id`; false when there was none. */
  async remove(id: string): Promise<boolean> {
    this.#edits++;
    const removed = this.#share ? await this.#share.remove(id) : this.get(id) !== undefined;
    this.#drop(id);
    if (this.#share) this.#version = null;
    return removed;
  }

  /**
   * Brings this host's copies in line with the service (nothing to do on a lone host). Waits
   * a bounded time: the catalog keeps answering from the copies while the service is away.
   */
  async refresh(): Promise<void> {
    // A lone host is the only writer of what it lists: nothing to bring in line.
    if (!this.#share) return;
    const followers = this.#followers.map((follower) => follower().catch((error: Error) => this.#log.warn(`a catalog refresh failed: ${error.message}`)));
    this.#refreshing ??= this.#readShare().finally(() => (this.#refreshing = null));
    await waitAtMost(Promise.all([this.#refreshing, ...followers]), REFRESH_WAIT_MS);
  }

  /**
   * Something else the catalog lists from a store shared beyond this host (the specimens
   * published from remotes), brought in line at every refresh, beside the published files.
   */
  follow(refresh: () => Promise<void>): void {
    this.#followers.push(refresh);
  }

  async #readShare(): Promise<void> {
    const share = this.#share!;
    const edits = this.#edits;
    const version = await share.version();
    if (version === this.#version) return;
    const listed = await share.list();
    // A publish or delete made here meanwhile is newer than this list: the next read applies.
    if (this.#edits !== edits) return;
    const ids = new Set(listed.map((meta) => meta.id));
    for (const id of [...this.#held.keys()]) if (!ids.has(id)) this.#drop(id);
    let complete = true;
    for (const meta of listed) {
      if (this.#edits !== edits) return;
      const held = this.#held.get(meta.id);
      if (held && held.meta.sha === meta.sha && held.meta.file_name === meta.file_name) {
        // The same file published again (new fields, a new expiry): only the record changes.
        if (held.meta.published_at !== meta.published_at) this.#relist(held, meta);
        // Renewed or held longer by another host.
        else if (meta.expires_at > held.meta.expires_at) held.meta = meta;
        continue;
      }
      const file = share.fileOf?.(meta);
      const bytes = file ? null : await share.read(meta);
      if (file || bytes)
        await (file ? this.#keepAt(meta, file) : this.#keep(meta, bytes!)).catch(
          (error: Error) => ((complete = false), this.#log.warn(`published specimen '${meta.id}' could not be written here: ${error.message}`)),
        );
    }
    if (complete && this.#edits === edits) this.#version = version;
  }

  /** Writes the file into a folder of its own (named by its hash) and lists it. */
  #keep(meta: PublishedMeta, bytes: Buffer): Promise<void> {
    return this.#place(meta, (file) => writeFile(file, bytes), (token) => {
      // A service keeps the file itself: this host's copy may go and be read again.
      if (this.#share) this.#budget.holdDependent(token, bytes.length, token, `published:${meta.id}`, () => this.#evicted(meta.id, token));
      else this.#budget.pinBytes(token, bytes.length, `published:${meta.id}`);
    });
  }

  /**
   * Lists a file the share keeps on this host's disk, by a link under its own name in a folder
   * of its own: nothing read or copied, and nothing held in memory (its bytes are on disk).
   */
  #keepAt(meta: PublishedMeta, target: string): Promise<void> {
    return this.#place(meta, async (file) => {
      await rm(file, { force: true });
      await symlink(target, file);
    });
  }

  /** Puts the file of `meta` in its folder (`write`), holds it in place of an older one, lists it. */
  async #place(meta: PublishedMeta, write: (file: string) => Promise<void>, count?: (token: object) => void): Promise<void> {
    const dir = path.join(this.#rootDir(), `${meta.id}-${meta.sha.slice(0, 16)}`);
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, meta.file_name);
    await write(file);
    const old = this.#held.get(meta.id);
    const held: Held = { meta, record: publishedRecord(meta, file), token: {}, dir };
    this.#held.set(meta.id, held);
    if (old) this.#release(old, old.dir !== dir);
    count?.(held.token);
    this.#list(meta.id);
  }

  #relist(held: Held, meta: PublishedMeta): void {
    held.meta = meta;
    held.record = publishedRecord(meta, path.join(held.dir, meta.file_name));
    this.#list(meta.id);
  }

  /** The budget dropped this host's copy of a service's file: it is read again later. */
  #evicted(id: string, token: object): void {
    const held = this.#held.get(id);
    if (!held || held.token !== token) return;
    this.#held.delete(id);
    void rm(held.dir, { recursive: true, force: true });
    this.#list(id);
    this.#version = null;
  }

  #drop(id: string): void {
    const held = this.#held.get(id);
    if (!held) return;
    this.#held.delete(id);
    this.#release(held, true);
    this.#list(id);
  }

  #release(held: Held, removeFiles: boolean): void {
    this.#budget.release(held.token, `published:${held.meta.id}`);
    if (removeFiles) void rm(held.dir, { recursive: true, force: true });
  }

  /**
   * Keeps each of `ids` published here at least until `until` (ms since the epoch), whatever
   * `--published-ttl` says: a snapshot holds what it names as long as it lives.
   */
  async holdUntil(ids: Iterable<string>, until: number): Promise<void> {
    for (const id of new Set(ids)) if ((this.#held.get(id)?.meta.expires_at ?? Infinity) < until) await this.#extend(id, until);
  }

  async #extend(id: string, until: number): Promise<void> {
    const held = this.#held.get(id);
    if (!held || held.meta.expires_at >= until) return;
    const meta = { ...held.meta, expires_at: until };
    await this.#share?.renew(meta);
    // Replaced meanwhile: the new file has an expiry of its own.
    if (this.#held.get(id) === held) held.meta = meta;
  }

  #list(changed: string): void {
    this.#catalog.setSource(SOURCE, 'published', [...this.#held.values()].map((held) => held.record));
    this.#onChange(changed);
  }

  #rootDir(): string {
    this.#root ??= mkdtempSync(path.join(tmpdir(), 'vitrine-published-'));
    return this.#root;
  }

  close(): void {
    this.#expiry.close();
    for (const held of this.#held.values()) this.#budget.release(held.token, `published:${held.meta.id}`);
    this.#held.clear();
    if (this.#root) rmSync(this.#root, { recursive: true, force: true });
  }
}
