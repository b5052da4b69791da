/**
 * @module viewer-boundary
 * The border between the viewer (`viewer/`, a browser package of its own) and the host
 * (`core/`). The viewer speaks to a host only as any client would: it imports the client
 * library (`core/client/`), the shapes both sides share (`core/wire/`), three.js and the VR
 * panel kit built on it, and nothing of the server. The server, in turn, never imports the
 * viewer or the client library: what it shares with them lives in `core/wire/`. Type imports
 * and dynamic imports count like any other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Folders of core/ the viewer may import (the client library and what it speaks): those that are not the server. */
export const VIEWER_MAY_IMPORT = ['core/client/', 'core/wire/'] as const;

/** Packages the viewer may import, with what they ship (`three/examples/...`). */
export const VIEWER_PACKAGES = ['three', '@pmndrs/uikit'] as const;

/** One import across the border, both ends as repository paths (or the package named). */
export interface Crossing {
  from: string;
  to: string;
  why: string;
}

const SPECIFIER = /^\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every specifier `text` imports: static, type-only, side-effect, re-exports and dynamic. */
export function allSpecifiersOf(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

function packageOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Why an import of `spec` from the repository file `from` crosses the border, or null. */
export function crossingOf(from: string, spec: string): Crossing | null {
  const relative = spec.startsWith('.');
  const to = relative ? path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)) : spec;
  if (from.startsWith('viewer/')) {
    if (!relative) {
      const name = packageOf(spec);
      return (VIEWER_PACKAGES as readonly string[]).includes(name) ? null : { from, to, why: `the viewer imports the package ${name}` };
    }
    if (to.startsWith('viewer/') || VIEWER_MAY_IMPORT.some((dir) => to.startsWith(dir))) return null;
    return { from, to, why: 'the viewer imports the server' };
  }
  if (!from.startsWith('core/') || !relative) return null;
  if (to.startsWith('viewer/')) return { from, to, why: 'core/ imports the viewer' };
  if (to.startsWith('core/client/') && !VIEWER_MAY_IMPORT.some((dir) => from.startsWith(dir))) {
    return { from, to, why: 'the server imports the client library (shared shapes belong in core/wire/)' };
  }
  return null;
}

/** The TypeScript sources under `root`/`dir` (no declarations, no node_modules), as paths from `root`. */
export function tsFiles(root: string, dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') tsFiles(root, rel, found);
    } else if (/\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(rel);
  }
  return found;
}

/** Every import across the border in the repository at `root`, sorted. */
export function boundaryCrossings(root: string): Crossing[] {
  const found: Crossing[] = [];
  for (const file of [...tsFiles(root, 'viewer'), ...tsFiles(root, 'core')]) {
    for (const spec of allSpecifiersOf(readFileSync(path.join(root, file), 'utf8'))) {
      const crossing = crossingOf(file, spec);
      if (crossing) found.push(crossing);
    }
  }
  return found.sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`));
}
