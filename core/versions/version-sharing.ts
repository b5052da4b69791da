/**
 * @module version-sharing
 * A host of a Redis service and the versions its hosts share (shared-bundles.ts): it offers
 * each version a reload brought, takes the shared versions it lacks before its own reload reads
 * its plugins folder, and a compute node takes the one version a pinned computation names when
 * no reload brought it here. Whatever is taken is copied into this host's kept folder and loaded
 * from there with the checks any bundle gets.
 */
import path from 'node:path';
import { readCheckedBundle } from '../bundles/checked-bundle.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { KeptBundles } from '../bundles/kept-bundles.ts';
import { loadPluginBundle, type LoadedPlugin, type LoadOptions } from '../registry/manifest-loader.ts';
import type { PluginVersions } from './plugin-versions.ts';
import type { SharedBundles } from './shared-bundles.ts';

/** The versions a host keeps and how it loads a bundle (its plugin home). */
export interface VersionHome {
  versions: PluginVersions;
  load: LoadOptions;
}

export class VersionSharing {
  #shared: SharedBundles;
  #home: VersionHome;
  #kept: KeptBundles;
  /** Versions taken for pinned computations, by bundle id (each loaded once). */
  #taken = new Map<string, Promise<LoadedPlugin | null>>();

  constructor(shared: SharedBundles, home: VersionHome, kept: KeptBundles) {
    this.#shared = shared;
    this.#home = home;
    this.#kept = kept;
  }

  /** Offers each of `plugins` whose files the host checked (a hand-written manifest lists none: it stays this host's). */
  async offer(plugins: LoadedPlugin[]): Promise<void> {
    for (const plugin of plugins) {
      const checked = await readCheckedBundle(plugin.dir);
      if (!checked.files || checked.mismatch || checked.bundleId !== plugin.bundle) continue;
      const { manifestBytes, files, signature } = checked;
      await this.#shared.offer(plugin.name, plugin.bundle, { manifestBytes, files, signature }, this.#home.versions.keep);
    }
  }

  /**
   * Copies the shared versions this host lacks into its kept folder, and answers which bundles
   * each plugin has there, newest first, for the versions to be taken back from.
   */
  async take(wanted: (plugin: string) => boolean = () => true): Promise<Record<string, string[]>> {
    const taken: Record<string, string[]> = {};
    for (const [plugin, bundles] of Object.entries(await this.#shared.index())) {
      if (!wanted(plugin)) continue;
      taken[plugin] = [];
      for (const bundle of bundles.slice(0, this.#home.versions.keep)) if (await this.#copy(bundle)) taken[plugin].push(bundle);
    }
    return taken;
  }

  /**
   * After a later reload: the shared versions of plugins this host serves that it does not keep
   * yet (another host brought them) are kept as older versions while there is room, so a layer
   * pinned to one computes here too; what this host serves does not change.
   */
  async catchUp(): Promise<void> {
    const versions = this.#home.versions;
    for (const [plugin, bundles] of Object.entries(await this.take((plugin) => versions.get(plugin) !== undefined))) {
      for (const bundle of bundles) {
        if (versions.byBundle(bundle)) continue;
        const loaded = await this.#load(bundle);
        if (loaded?.name === plugin) versions.adopt(loaded);
      }
    }
  }

  /** Function `name` as the version with bundle id `bundle` has it: a version this host keeps, else the shared one. */
  async entry(name: string, bundle: string): Promise<FunctionEntry | undefined> {
    const kept = this.#home.versions.byBundle(bundle);
    if (kept) return kept.functions.find((f) => f.name === name);
    let taking = this.#taken.get(bundle);
    if (!taking) {
      taking = this.#load(bundle);
      this.#taken.set(bundle, taking);
      // Not shared (yet): the next computation that names it asks again.
      void taking.then((loaded) => loaded ?? this.#taken.delete(bundle));
    }
    return (await taking)?.functions.find((f) => f.name === name);
  }

  async #load(bundle: string): Promise<LoadedPlugin | null> {
    try {
      if (!(await this.#copy(bundle))) return null;
      return await loadPluginBundle(path.join(this.#kept.dir, bundle), this.#home.load);
    } catch {
      return null;
    }
  }

  /** Whether `bundle` is in the kept folder now (copied from the share if it was not). */
  async #copy(bundle: string): Promise<boolean> {
    if (this.#kept.has(bundle)) return true;
    const shared = await this.#shared.fetch(bundle);
    if (!shared) return false;
    await this.#kept.keep({ bundleId: bundle, ...shared });
    return true;
  }
}
