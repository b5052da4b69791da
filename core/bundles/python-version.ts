/**
 * @module python-version
 * The version of a Python plugin bundle: a hash of its manifest and of every `.py` file in its
 * folder (sibling modules are part of its code), read in a stable order. It keys room entries
 * and tells the plugin processes when to import the plugin again.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Python sources in `dir` and below (hidden folders and `__pycache__` left out), sorted. */
async function pythonFiles(dir: string, depth = 0): Promise<string[]> {
  if (depth > 8) return [];
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === '__pycache__') continue;
    const file = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await pythonFiles(file, depth + 1)));
    else if (e.isFile() && e.name.endsWith('.py')) out.push(file);
  }
  return out.sort();
}

export async function pythonVersion(dir: string): Promise<string> {
  const hash = createHash('sha256').update(await readFile(path.join(dir, 'manifest.json')));
  for (const file of await pythonFiles(dir)) hash.update(path.relative(dir, file)).update('\0').update(await readFile(file));
  return hash.digest('hex').slice(0, 16);
}
