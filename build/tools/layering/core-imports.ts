/**
 * @module core-imports
 * Every import between files of `core/`, read from the sources as text: static imports and
 * re-exports (type-only ones too) and dynamic `import()`s of relative paths. And what the
 * layering table makes of them: the imports that run against it, and the pairs of folders
 * that import each other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { folderOf, KNOWN_EXCEPTIONS, layerOf, roomOf } from './core-layers.ts';

/** One import, both ends as paths inside core/ (`http/app.ts -> errors.ts`). */
export interface CoreImport {
  from: string;
  to: string;
}

/** An import the table does not allow, and why. */
export interface AgainstTable extends CoreImport {
  why: string;
  /** Listed in KNOWN_EXCEPTIONS. */
  known: boolean;
}

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') sourceFiles(full, found);
    } else if (/\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

const STATIC = /^\s*(?:import|export)\s[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Relative specifiers `text` imports (static, type-only, re-exports and dynamic). */
export function specifiersOf(text: string): string[] {
  return [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)].map((m) => m[1]!);
}

/** Every import between two files of `coreDir`, sorted. */
export function coreImports(coreDir: string): CoreImport[] {
  const found: CoreImport[] = [];
  for (const file of sourceFiles(coreDir)) {
    for (const spec of specifiersOf(readFileSync(file, 'utf8'))) {
      const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
      const to = path.relative(coreDir, target).split(path.sep).join('/');
      if (to.startsWith('..')) continue;
      found.push({ from: path.relative(coreDir, file).split(path.sep).join('/'), to });
    }
  }
  return found.sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`));
}

/** The imports that run against the layering table, each with the reason. */
export function againstTable(imports: readonly CoreImport[]): AgainstTable[] {
  const against: AgainstTable[] = [];
  for (const { from, to } of imports) {
    const a = roomOf(from);
    const b = roomOf(to);
    if (a === b) continue;
    const la = layerOf(a);
    const lb = layerOf(b);
    let why: string | null = null;
    if (la === undefined) why = `${a} has no place in the layering table`;
    else if (lb === undefined) why = `${b} has no place in the layering table`;
    else if (la === lb) why = `${a} and ${b} share a layer`;
    else if (la < lb) why = `${b} (layer ${lb}) sits above ${a} (layer ${la})`;
    if (why) against.push({ from, to, why, known: KNOWN_EXCEPTIONS.includes(`${from} -> ${to}`) });
  }
  return against;
}

/** Pairs of folders (a root file counting as its own) that import each other, sorted. */
export function mutualFolders(imports: readonly CoreImport[]): string[] {
  const arrows = new Set(imports.map(({ from, to }) => `${folderOf(from)} ${folderOf(to)}`));
  const pairs = new Set<string>();
  for (const arrow of arrows) {
    const [a, b] = arrow.split(' ') as [string, string];
    if (a < b && arrows.has(`${b} ${a}`)) pairs.add(`${a} <-> ${b}`);
  }
  return [...pairs].sort();
}
