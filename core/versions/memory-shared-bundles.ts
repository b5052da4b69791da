/**
 * @module memory-shared-bundles
 * Shared plugin versions in one process's memory: what the Redis home does, for the
 * conformance suite and for tests of what takes versions from a share. Bundles are held packed,
 * as Redis holds them, so a taker meets the same unpacking and checks.
 */
import { packBundle, unpackBundle, type SharedBundle, type SharedBundles } from './shared-bundles.ts';

export class MemorySharedBundles implements SharedBundles {
  /** Plugin → its bundle ids with the time each was first offered. */
  #versions = new Map<string, { id: string; at: number }[]>();
  #bytes = new Map<string, Buffer>();
  #clock = 0;

  async offer(plugin: string, bundleId: string, bundle: SharedBundle, keep: number): Promise<void> {
    const versions = this.#versions.get(plugin) ?? [];
    if (!this.#bytes.has(bundleId)) this.#bytes.set(bundleId, packBundle(bundle));
    // A counter, not the wall clock: two offers in one millisecond still have an order.
    if (!versions.some((v) => v.id === bundleId)) versions.push({ id: bundleId, at: ++this.#clock });
    versions.sort((a, b) => b.at - a.at);
    for (const gone of versions.splice(Math.max(1, keep))) this.#bytes.delete(gone.id);
    this.#versions.set(plugin, versions);
  }

  async index(): Promise<Record<string, string[]>> {
    return Object.fromEntries([...this.#versions].map(([plugin, versions]) => [plugin, versions.map((v) => v.id)]));
  }

  async fetch(bundleId: string): Promise<SharedBundle | null> {
    const bytes = this.#bytes.get(bundleId);
    return bytes ? unpackBundle(bytes, bundleId) : null;
  }
}
