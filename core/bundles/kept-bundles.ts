/**
 * @module kept-bundles
 * The bundles a host keeps by bundle id: each checked bundle is written once into
 * `<dir>/<bundle id>/` from the bytes that were checked, and served from there. So an
 * operator overwriting the plugins folder never changes code a running host already took,
 * and older versions kept side by side still have their files. Written into a scratch folder
 * and renamed into place, so a kept bundle is never half there. `versions.json` says which
 * bundles each plugin keeps, newest first: a host started on a data folder takes its older
 * versions back from it (plugin-versions.ts), so pinned layers outlive a restart.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SIGNATURE_FILE, type CheckedBundle } from './checked-bundle.ts';

/** The index of kept versions, beside the bundles. */
const INDEX_FILE = 'versions.json';

export class KeptBundles {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The folder holding `bundle`'s files, written now if it is not there yet. */
  async keep(bundle: Pick<CheckedBundle, 'bundleId' | 'manifestBytes' | 'signature'> & { files: Map<string, Buffer> }): Promise<string> {
    const target = path.join(this.dir, bundle.bundleId);
    if (existsSync(target)) return target;
    const scratch = path.join(this.dir, `.${bundle.bundleId}.${process.pid}.${Date.now()}`);
    await mkdir(scratch, { recursive: true });
    const files: [string, Buffer][] = [...bundle.files, ['manifest.json', bundle.manifestBytes]];
    if (bundle.signature) files.push([SIGNATURE_FILE, bundle.signature]);
    for (const [name, bytes] of files) {
      const file = path.join(scratch, ...name.split('/'));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
    }
    try {
      await rename(scratch, target);
    } catch (error) {
      // Another load of the same bundle got there first: its copy holds the same bytes.
      await rm(scratch, { recursive: true, force: true });
      if (!existsSync(target)) throw error;
    }
    return target;
  }

  /** Which bundles each plugin keeps, newest first, as last written (empty when none was). */
  readIndex(): Record<string, string[]> {
    try {
      const index = JSON.parse(readFileSync(path.join(this.dir, INDEX_FILE), 'utf8')) as unknown;
      if (!index || typeof index !== 'object' || Array.isArray(index)) return {};
      const bundles = (ids: unknown) => (Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string' && /^[0-9a-f]{64}$/.test(id)) : []);
      return Object.fromEntries(Object.entries(index).map(([plugin, ids]) => [plugin, bundles(ids)]));
    } catch {
      return {};
    }
  }

  /** Writes which bundles each plugin keeps (whole or not at all: a new file renamed over the last). */
  writeIndex(index: Record<string, string[]>): void {
    mkdirSync(this.dir, { recursive: true });
    const scratch = path.join(this.dir, `.${INDEX_FILE}.${process.pid}`);
    writeFileSync(scratch, JSON.stringify(index));
    renameSync(scratch, path.join(this.dir, INDEX_FILE));
  }

  /** Whether `bundleId` has a kept copy here. */
  has(bundleId: string): boolean {
    return /^[0-9a-f]{64}$/.test(bundleId) && existsSync(path.join(this.dir, bundleId));
  }

  /** Drops a bundle no kept version needs any more. */
  async drop(bundleId: string): Promise<void> {
    if (/^[0-9a-f]{64}$/.test(bundleId)) await rm(path.join(this.dir, bundleId), { recursive: true, force: true });
  }
}
