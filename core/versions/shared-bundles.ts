/**
 * @module shared-bundles
 * Plugin versions kept where every host of a Redis service can load them. A host that loads a
 * new checked bundle offers it here; a host that joins later takes the versions it lacks from
 * here at start, and a compute node asked for a version it never loaded takes that one. What is
 * taken is written into the taker's own kept folder and loaded from there with the checks every
 * bundle gets (its manifest must hash to the bundle id, each file to the manifest), so a shared
 * copy is trusted no more than a folder an operator copied in. Each plugin keeps its newest
 * versions by when they were first offered; older ones leave with their bytes.
 *
 * Homes side by side: memory-shared-bundles.ts (one process; keeps the interface honest) and
 * redis-shared-bundles.ts. One conformance suite runs over both.
 */
import { createHash } from 'node:crypto';

/** A checked bundle's bytes: what a kept copy is written from. */
export interface SharedBundle {
  manifestBytes: Buffer;
  /** Each file the manifest lists, by its path inside the bundle. */
  files: Map<string, Buffer>;
  /** `manifest.sig`, when the bundle was signed. */
  signature: Buffer | null;
}

export interface SharedBundles {
  /**
   * Offers `bundle` (id `bundleId`) as a version of `plugin`; a bundle offered before keeps its
   * first time. Then only the newest `keep` versions of the plugin stay.
   */
  offer(plugin: string, bundleId: string, bundle: SharedBundle, keep: number): Promise<void>;
  /** Each plugin's shared bundle ids, newest first. */
  index(): Promise<Record<string, string[]>>;
  /** The bundle's bytes, or null when it is not shared (or what is stored is not that bundle). */
  fetch(bundleId: string): Promise<SharedBundle | null>;
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** One bundle in one buffer: a length-prefixed JSON table of parts, then the parts' bytes in order. */
export function packBundle(bundle: SharedBundle): Buffer {
  const parts: [string, Buffer][] = [['manifest.json', bundle.manifestBytes], ...bundle.files];
  if (bundle.signature) parts.push(['manifest.sig', bundle.signature]);
  const table = Buffer.from(JSON.stringify(parts.map(([name, bytes]) => [name, bytes.length])));
  const head = Buffer.alloc(4);
  head.writeUInt32BE(table.length);
  return Buffer.concat([head, table, ...parts.map(([, bytes]) => bytes)]);
}

/**
 * The bundle packed in `bytes`, or null when they are malformed or their manifest does not
 * hash to `bundleId` (a store never hands out a bundle under another's id).
 */
export function unpackBundle(bytes: Buffer, bundleId: string): SharedBundle | null {
  try {
    const tableLength = bytes.readUInt32BE(0);
    const table = JSON.parse(bytes.subarray(4, 4 + tableLength).toString('utf8')) as unknown;
    if (!Array.isArray(table)) return null;
    let offset = 4 + tableLength;
    const parts = new Map<string, Buffer>();
    for (const part of table as unknown[]) {
      if (!Array.isArray(part) || typeof part[0] !== 'string' || !Number.isSafeInteger(part[1]) || (part[1] as number) < 0) return null;
      const end = offset + (part[1] as number);
      if (end > bytes.length) return null;
      parts.set(part[0], bytes.subarray(offset, end));
      offset = end;
    }
    const manifestBytes = parts.get('manifest.json');
    if (!manifestBytes || offset !== bytes.length || sha256(manifestBytes) !== bundleId) return null;
    const signature = parts.get('manifest.sig') ?? null;
    parts.delete('manifest.json');
    parts.delete('manifest.sig');
    return { manifestBytes, files: parts, signature };
  } catch {
    return null;
  }
}
