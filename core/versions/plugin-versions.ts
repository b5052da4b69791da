/**
 * @module plugin-versions
 * The versions of each plugin a host keeps side by side: the newest serves layers and links
 * that name no version, older ones (up to the host's `--plugin-versions`) still compute for
 * what pinned them. A bundle that fails its checks is refused and recorded against its
 * plugin, while the version it would have replaced keeps serving. A version that comes after a
 * later one (a downgrade: an older release dropped in, or a plugins folder behind what a data
 * folder kept) serves as any newly loaded version does, and is said: in the reload's log line,
 * as a warning, and on the plugin's record (`downgradedFrom`) until a version not earlier comes.
 */
import path from 'node:path';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { KeptBundles } from '../bundles/kept-bundles.ts';
import type { LoadedPlugin } from '../registry/manifest-loader.ts';
import { isEarlier } from './version-order.ts';

/** One plugin as operators see it. */
export interface PluginRecord {
  name: string;
  /** Kept versions, newest (the serving one) first. */
  versions: LoadedPlugin[];
  /** What was refused at the last reload that looked at it. */
  problems: string[];
  /** The later version the serving one came after (a downgrade), while it serves. */
  downgradedFrom?: string;
}

/** What one reload changed, for its log line. */
export interface VersionChange {
  came: LoadedPlugin[];
  went: LoadedPlugin[];
  refused: { plugin: string; problem: string }[];
  /** Plugins whose new serving version is earlier than the one it took over from. */
  downgraded: { plugin: string; from: string; to: string }[];
}

/** A pin: a version people read (`1.2.0`), a bundle id, or a bundle id's first 12 or more hex digits. */
export function matchesPin(plugin: LoadedPlugin, pin: string): boolean {
  if (plugin.version === pin) return true;
  return /^[0-9a-f]{12,64}$/.test(pin) && plugin.bundle.startsWith(pin);
}

export class PluginVersions {
  #plugins = new Map<string, PluginRecord>();
  /** The plugin each function of a version no longer kept belonged to: a pin of it is then that plugin's version gone. */
  #formerly = new Map<string, string>();
  #listeners: ((change: VersionChange) => void)[] = [];
  readonly keep: number;
  #kept: KeptBundles | null;

  constructor(keep: number, kept: KeptBundles | null = null) {
    this.keep = Math.max(1, keep);
    this.#kept = kept;
  }

  /** Takes `loaded` as its plugin's newest version (nothing changes when it already is). */
  accept(loaded: LoadedPlugin, change: VersionChange): void {
    const record = this.#record(loaded.name);
    record.problems = [];
    const serving = record.versions[0];
    if (serving?.bundle === loaded.bundle) return;
    if (serving && isEarlier(loaded.version, serving.version)) {
      record.downgradedFrom = serving.version;
      change.downgraded.push({ plugin: loaded.name, from: serving.version, to: loaded.version });
    } else {
      delete record.downgradedFrom;
    }
    const earlier = record.versions.find((v) => v.bundle === loaded.bundle);
    record.versions = [earlier ? { ...earlier, loadedAt: loaded.loadedAt } : loaded, ...record.versions.filter((v) => v.bundle !== loaded.bundle)];
    change.came.push(loaded);
    for (const old of record.versions.splice(this.keep)) this.#forget(old, change);
  }

  /**
   * Keeps `loaded` as an older version of its plugin, when the host serves that plugin, does not
   * keep this version yet and has room for it: what serves, and what it kept, stay as they are.
   */
  adopt(loaded: LoadedPlugin): boolean {
    const record = this.#plugins.get(loaded.name);
    if (!record || record.versions.length >= this.keep || record.versions.some((v) => v.bundle === loaded.bundle)) return false;
    record.versions.push(loaded);
    return true;
  }

  /** Records that a bundle of `name` was refused; its serving version, if any, stays. */
  refuse(name: string, problem: string, change: VersionChange): void {
    this.#record(name).problems = [problem];
    change.refused.push({ plugin: name, problem });
  }

  /** The plugin's folder is gone: every version of it goes. */
  remove(name: string, change: VersionChange): void {
    const record = this.#plugins.get(name);
    if (!record) return;
    this.#plugins.delete(name);
    for (const old of record.versions) this.#forget(old, change);
  }

  #forget(old: LoadedPlugin, change: VersionChange): void {
    change.went.push(old);
    for (const f of old.functions) this.#formerly.set(f.name, old.name);
    const stillKept = [...this.#plugins.values()].some((r) => r.versions.some((v) => v.bundle === old.bundle));
    if (!stillKept) void this.#kept?.drop(old.bundle).catch(() => {});
  }

  #record(name: string): PluginRecord {
    let record = this.#plugins.get(name);
    if (!record) this.#plugins.set(name, (record = { name, versions: [], problems: [] }));
    return record;
  }

  /** Calls `listener` after each reload that brought or took a version, once the newest serve. */
  onChange(listener: (change: VersionChange) => void): void {
    this.#listeners.push(listener);
  }

  /** Tells the listeners what a reload changed (nothing when it changed nothing), and notes the kept versions beside them. */
  announce(change: VersionChange): void {
    if (change.came.length === 0 && change.went.length === 0) return;
    this.#kept?.writeIndex(Object.fromEntries(this.list().map((r) => [r.name, r.versions.map((v) => v.bundle)])));
    for (const listener of this.#listeners) listener(change);
  }

  /**
   * Takes back the versions kept in the kept folder's index (a host started again on its data
   * folder), or those `index` names (copied into the kept folder from a share), oldest first, so the plugins folder's bundles then come on top of them. A kept
   * bundle that no longer loads is left out with why.
   */
  async restore(load: (dir: string) => Promise<LoadedPlugin>, index: Record<string, string[]> | null = null): Promise<string[]> {
    if (!this.#kept) return [];
    const problems: string[] = [];
    const change = noChange();
    for (const [plugin, bundles] of Object.entries(index ?? this.#kept.readIndex())) {
      for (const bundle of [...bundles].reverse().slice(-this.keep)) {
        try {
          const loaded = await load(path.join(this.#kept.dir, bundle));
          if (loaded.name === plugin) this.accept(loaded, change);
        } catch (error) {
          problems.push(`${plugin}: the kept version ${bundle.slice(0, 12)} cannot be loaded (${(error as Error).message}); left out`);
        }
      }
    }
    return problems;
  }

  /** The serving version of each plugin, by name order. */
  serving(): LoadedPlugin[] {
    return this.list().flatMap((r) => r.versions.slice(0, 1));
  }

  names(): string[] {
    return [...this.#plugins.keys()].sort();
  }

  get(name: string): PluginRecord | undefined {
    return this.#plugins.get(name);
  }

  list(): PluginRecord[] {
    return [...this.#plugins.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The plugin a kept version of which has function `name`, else the one a version no longer kept had it in; null when none did. */
  pluginOf(name: string): string | null {
    for (const record of this.list()) if (record.versions.some((v) => v.functions.some((f) => f.name === name))) return record.name;
    return this.#formerly.get(name) ?? null;
  }

  /** The kept version of `plugin` that `pin` names, or undefined. */
  find(plugin: string, pin: string): LoadedPlugin | undefined {
    return this.#plugins.get(plugin)?.versions.find((v) => matchesPin(v, pin));
  }

  /** Function `name` as a kept version of its plugin has it. */
  entryOf(plugin: string, pin: string, name: string): FunctionEntry | undefined {
    return this.find(plugin, pin)?.functions.find((f) => f.name === name);
  }

  /** The kept version whose bundle id is `bundle` (any plugin). */
  byBundle(bundle: string): LoadedPlugin | undefined {
    for (const record of this.#plugins.values()) for (const v of record.versions) if (v.bundle === bundle) return v;
    return undefined;
  }
}

export const noChange = (): VersionChange => ({ came: [], went: [], refused: [], downgraded: [] });

/** Whether a reload's line is a warning: something refused, or a plugin gone back to an earlier version. */
export const warnsOf = (change: VersionChange): boolean => change.refused.length > 0 || change.downgraded.length > 0;

/** The log line of a reload: what came, went and was refused. */
export function describeChange(change: VersionChange): string | null {
  const named = (p: LoadedPlugin) => `${p.name}@${p.version} (bundle ${p.bundle.slice(0, 12)})`;
  const parts = [
    change.came.length ? `came ${change.came.map(named).join(', ')}` : '',
    change.went.length ? `went ${change.went.map(named).join(', ')}` : '',
    change.refused.length ? `refused ${change.refused.map((r) => `${r.plugin}: ${r.problem}`).join('; ')}` : '',
    ...change.downgraded.map((d) => `${d.plugin} went back from ${d.from} to ${d.to} (layers that pin no version now follow ${d.to})`),
  ].filter(Boolean);
  return parts.length ? `plugins reloaded: ${parts.join('; ')}` : null;
}
