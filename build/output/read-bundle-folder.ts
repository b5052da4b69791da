/**
 * @module read-bundle-folder
 * Lists the files of an existing bundle folder, and tells bundle folders (those with a
 * manifest.json) from anything else an operator keeps in the output directory.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Relative posix path → bytes for every file under `dir` (empty when `dir` is missing). */
export function readBundleFolder(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  if (!existsSync(dir)) return files;
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.set(path.relative(dir, full).split(path.sep).join('/'), readFileSync(full));
    }
  };
  walk(dir);
  return files;
}

/** Names of the bundle folders directly in `outDir`. */
export function listBundleFolders(outDir: string): string[] {
  if (!existsSync(outDir)) return [];
  return readdirSync(outDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(outDir, entry.name, 'manifest.json')))
    .map((entry) => entry.name)
    .sort();
}
