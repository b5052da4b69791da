/**
 * @module safe-path
 * Path confinement for everything the catalog reads from disk. A path written in a
 * `specimen.json` (or any other user-supplied relative path) is resolved against a root and
 * accepted only when both its lexical form and its real location (symlinks followed) stay
 * strictly inside that root.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/** Longest relative path accepted; far beyond any real file name, short of abuse. */
const MAX_RELATIVE_LENGTH = 1024;

/**
 * True when `p` is a plain relative path: non-empty, no NUL or other control characters, no
 * leading `/` or `\`, no backslashes at all (a Windows separator), no drive (`C:`) or UNC
 * (`//host`) form, and no `..` segment anywhere (even one that would stay inside).
 *
 * It is a syntactic check only; {@link resolveInside} adds the symlink check.
 */
export function isSafeRelativePath(p: string): boolean {
  if (typeof p !== 'string' || p.length === 0 || p.length > MAX_RELATIVE_LENGTH) return false;
  // NUL truncates paths in C APIs; other control characters have no place in a file name.
  if (/[\u0000-\u001f\u007f]/.test(p)) return false;
  if (p.includes('\\')) return false;
  if (p.startsWith('/')) return false;
  if (/^[A-Za-z]:/.test(p)) return false;
  const segments = p.split('/');
  if (segments.some((s) => s === '..')) return false;
  // Something must be named: `.`, `./` and `.//.` all mean the root itself.
  return segments.some((s) => s !== '' && s !== '.');
}

/** True when `candidate` is `root` itself or below it (both absolute and normalised). */
function isWithin(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The real path of `candidate` when it exists; for a path that does not exist yet, the real
 * path of its nearest existing ancestor joined with the missing remainder. Null when a
 * component cannot be resolved for another reason (a loop, a file used as a directory...).
 */
async function realOrNearest(candidate: string): Promise<string | null> {
  const missing: string[] = [];
  let current = candidate;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null;
      const parent = path.dirname(current);
      if (parent === current) return null;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Resolves `relative` under an already real (symlink-free, absolute) root. Exported for
 * callers that resolve many paths under one root (the scanner) and so realpath it once.
 */
export async function resolveInsideReal(realRoot: string, relative: string): Promise<string | null> {
  if (!isSafeRelativePath(relative)) return null;
  const lexical = path.resolve(realRoot, relative);
  if (lexical === realRoot || !isWithin(realRoot, lexical)) return null;
  const real = await realOrNearest(lexical);
  if (real === null || real === realRoot || !isWithin(realRoot, real)) return null;
  return real;
}

/**
 * The absolute real path of `relative` under `root`, or null when it would leave the root.
 *
 * Rejected: absolute paths, `..` segments, NUL and control characters, backslashes, Windows
 * drive and UNC forms, the root itself, and any path whose real location (every symlink on
 * the way followed, the root's own included) is outside the real root. A path that does not
 * exist yet is accepted when its nearest existing ancestor is inside; the result is then the
 * would-be path, and the caller's open reports it missing.
 *
 * @example await resolveInside('/srv/specimens', 'knot/knot.glb') // '/srv/specimens/knot/knot.glb'
 * @example await resolveInside('/srv/specimens', '../etc/passwd') // null
 */
export async function resolveInside(root: string, relative: string): Promise<string | null> {
  if (!isSafeRelativePath(relative)) return null;
  let realRoot: string;
  try {
    realRoot = await realpath(path.resolve(root));
  } catch {
    return null;
  }
  return resolveInsideReal(realRoot, relative);
}
