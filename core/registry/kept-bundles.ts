/**
 * @module kept-bundles
 * The bundles a host keeps by bundle id: each checked bundle is written once into
 * `<dir>/<bundle id>/` from the bytes that were checked, and served from there. So an
 * operator overwriting the plugins folder never changes code a running host already took,
 * and older versions kept side by side still have their files. Written into a scratch folder
 * and renamed into place, so a kept bundle is never half there.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SIGNATURE_FILE, type CheckedBundle } from './checked-bundle.ts';

export class KeptBundles {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The folder holding `bundle`'s files, written now if it is not there yet. */
  async keep(bundle: CheckedBundle & { files: Map<string, Buffer> }): Promise<string> {
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

  /** Drops a bundle no kept version needs any more. */
  async drop(bundleId: string): Promise<void> {
    if (/^[0-9a-f]{64}$/.test(bundleId)) await rm(path.join(this.dir, bundleId), { recursive: true, force: true });
  }
}
