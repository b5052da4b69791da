/**
 * @module input-stamp
 * Whether a step's output is current: a stamp is the SHA-256 of every input file's path, size
 * and modification time, written beside the output once the step succeeded. Equal stamps mean
 * no input was touched since, so `npm start` (and the `vitrine` command in a checkout) skip the
 * compile and the plugin build that would make the same files again. Times and sizes, not
 * contents: reading ~1,000 files' metadata costs milliseconds, and an edit moves the time.
 * Plain JavaScript, so a check costs no TypeScript loader before a host starts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The compiled distribution's stamp, and the built plugins', in a checkout at `root`. */
export const compileStampOf = (root = REPO_ROOT) => path.join(root, 'build', 'dist', '.inputs-stamp');
export const pluginsStampOf = (root = REPO_ROOT) => path.join(root, 'build', 'out', '.inputs-stamp');
export const COMPILE_STAMP = compileStampOf();
export const PLUGINS_STAMP = pluginsStampOf();

/** Folders never read as inputs: installed packages, bytecode, history. */
const SKIPPED = new Set(['node_modules', '__pycache__', '.git']);

/** Every file under `dir`, the folders of `outputs` left out. */
function walk(dir, found, outputs) {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name) && !outputs.has(full)) walk(full, found, outputs);
    } else if (entry.isFile()) found.push(full);
  }
  return found;
}

/** What the compiled distribution is made of: core/ and build/ (not its outputs), the package's manifest and lock, and the TypeScript settings. */
export function compileInputs(root = REPO_ROOT) {
  const outputs = new Set([path.join(root, 'build', 'dist'), path.join(root, 'build', 'out')]);
  // The web viewer (viewer/) is bundled by the compile too.
  const files = ['core', 'viewer', 'build'].flatMap((dir) => walk(path.join(root, dir), [], outputs));
  for (const name of ['package.json', 'package-lock.json', 'tsconfig.json']) files.push(path.join(root, name));
  return files;
}

/** What the built plugins are made of: the plugin sources, and the compiled build (its stamp). */
export function pluginInputs(root = REPO_ROOT) {
  return [...walk(path.join(root, 'plugins'), [], new Set()), compileStampOf(root)];
}

/** The stamp of `files`: a missing file counts as one, so its appearing moves the stamp. */
export function stampOf(files) {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    const stat = statSync(file, { throwIfNoEntry: false });
    hash.update(`${file}\t${stat ? `${stat.size}\t${stat.mtimeMs}` : 'missing'}\n`);
  }
  return hash.digest('hex');
}

/** Whether the stamp at `stampFile` is `stamp` (false when there is none). */
export function isCurrent(stampFile, stamp) {
  try {
    return readFileSync(stampFile, 'utf8').trim() === stamp;
  } catch {
    return false;
  }
}

/** Records that the output beside `stampFile` was made from inputs of `stamp`. */
export function writeStamp(stampFile, stamp) {
  writeFileSync(stampFile, `${stamp}\n`);
}
