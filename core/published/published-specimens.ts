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
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertPinnable } from '../cache/pin-room.ts';
import type { ResultBudget } from '../cache/result-budget.ts';
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { VOLUME_FIELD_NAMES, type VolumeFieldsInput } from '../results/volume-fields-input.ts';
import type { PublishedMeta, PublishedShare } from './published-record.ts';
import { publishedThumbnail } from './published-thumbnail.ts';

/** The catalog source of published specimens. */
const SOURCE = 'published';
/** How often expired specimens are dropped. */
const SWEEP_MS = 1000;
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
  /** Moved by each publish and delete made here: a list read before one of them is stale. */
  #edits = 0;
  #sweep: NodeJS.Timeout;
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
  }) {
    this.#onChange = deps.onChange ?? (() => {});
    this.#catalog = deps.catalog;
    this.#budget = deps.budget;
    this.#share = deps.share;
    this.#log = deps.log;
    this.ttlMs = deps.ttlSeconds * 1000;
    this.#sweep = setInterval(() => this.#dropExpired(), SWEEP_MS);
    this.#sweep.unref();
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
    if (!this.#share) return;
    this.#refreshing ??= this.#readShare().finally(() => (this.#refreshing = null));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#refreshing.catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, REFRESH_WAIT_MS)))]);
    clearTimeout(timer);
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
  async #keep(meta: PublishedMeta, bytes: Buffer): Promise<void> {
    const dir = path.join(this.#rootDir(), `${meta.id}-${meta.sha.slice(0, 16)}`);
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, meta.file_name);
    await writeFile(file, bytes);
    const old = this.#held.get(meta.id);
    const token = {};
    const held: Held = { meta, record: toRecord(meta, file), token, dir };
    this.#held.set(meta.id, held);
    if (old) this.#release(old, old.dir !== dir);
    // A service keeps the file itself: this host's copy may go and be read again.
    if (this.#share) this.#budget.holdDependent(token, bytes.length, token, `published:${meta.id}`, () => this.#evicted(meta.id, token));
    else this.#budget.pinBytes(token, bytes.length, `published:${meta.id}`);
    this.#list(meta.id);
  }

  /**
   * Lists a file the share keeps on this host's disk, by a link under its own name in a folder
   * of its own: nothing read or copied, and nothing held in memory (its bytes are on disk).
   */
  async #keepAt(meta: PublishedMeta, target: string): Promise<void> {
    const dir = path.join(this.#rootDir(), `${meta.id}-${meta.sha.slice(0, 16)}`);
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, meta.file_name);
    await rm(file, { force: true });
    await symlink(target, file);
    const old = this.#held.get(meta.id);
    const held: Held = { meta, record: toRecord(meta, file), token: {}, dir };
    this.#held.set(meta.id, held);
    if (old) this.#release(old, old.dir !== dir);
    this.#list(meta.id);
  }

  #relist(held: Held, meta: PublishedMeta): void {
    held.meta = meta;
    held.record = toRecord(meta, path.join(held.dir, meta.file_name));
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

  #dropExpired(): void {
    const now = Date.now();
    for (const [id, held] of [...this.#held]) if (held.meta.expires_at <= now) this.#drop(id);
  }

  #list(changed: string): void {
    this.#catalog.setSource(
      SOURCE,
      'published',
      [...this.#held.values()].map((held) => held.record),
    );
    this.#onChange(changed);
  }

  #rootDir(): string {
    this.#root ??= mkdtempSync(path.join(tmpdir(), 'vitrine-published-'));
    return this.#root;
  }

  close(): void {
    clearInterval(this.#sweep);
    for (const held of this.#held.values()) this.#budget.release(held.token, `published:${held.meta.id}`);
    this.#held.clear();
    if (this.#root) rmSync(this.#root, { recursive: true, force: true });
  }
}

/** What a published volume says of its time, channels and unit, as its data source carries it. */
function describedOf(meta: PublishedMeta): { described?: VolumeFieldsInput } {
  const described = Object.fromEntries(VOLUME_FIELD_NAMES.filter((name) => meta[name] !== undefined).map((name) => [name, meta[name]]));
  return Object.keys(described).length > 0 ? { described } : {};
}

/** The catalog record of a published specimen whose file is at `file`. */
function toRecord(meta: PublishedMeta, file: string): SpecimenRecord {
  const data: SpecimenRecord['data'] =
    meta.type === 'volume' && meta.file_name.toLowerCase().endsWith('.npy')
      ? {
          kind: 'npy',
          path: file,
          fileName: meta.file_name,
          ...(meta.spacing ? { spacing: meta.spacing } : {}),
          ...(meta.origin ? { origin: meta.origin } : {}),
          ...(meta.labels ? { labels: meta.labels } : {}),
          ...describedOf(meta),
        }
      : { kind: 'file', path: file, fileName: meta.file_name };
  return {
    id: meta.id,
    display_name: meta.display_name,
    description: meta.description,
    type: meta.type,
    tags: meta.tags,
    is_dynamic: false,
    function_name: null,
    thumbnail_file: null,
    thumbnail: publishedThumbnail(meta, file),
    story: null,
    data,
    origin: 'published',
    ...(meta.room !== undefined ? { room: meta.room } : {}),
  };
}
