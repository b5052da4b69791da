/**
 * @module core-imports
 * Every import between files of `core/` (or of `viewer/`), read from the sources as text:
 * static imports and re-exports (type-only ones too), side-effect imports (a stylesheet) and
 * dynamic `import()`s of relative paths. And what a layering table makes of them: the imports
 * that run against it, and the pairs of folders that import each other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { folderOf, KNOWN_EXCEPTIONS, LAYERS, layerOf, roomOf } from './core-layers.ts';
import { allSpecifiersOf, tsFiles } from './viewer-boundary.ts';

/** A layering table: its layers low to high, the room of a path, the imports known to run against it. */
export interface LayerTable {
  layers: readonly (readonly string[])[];
  roomOf(rel: string): string;
  knownExceptions: readonly string[];
}

/** core/'s table (core-layers.ts). */
export const CORE_TABLE: LayerTable = { layers: LAYERS, roomOf, knownExceptions: KNOWN_EXCEPTIONS };

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

/** Relative specifiers `text` imports (static, type-only, side-effect, re-exports and dynamic). */
export function specifiersOf(text: string): string[] {
  return allSpecifiersOf(text).filter((spec) => /^\.{1,2}\//.test(spec));
}

/** The rooms of `dir` (core/ or viewer/): each folder holding TypeScript and each TypeScript file at its root. */
export function roomsIn(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const holdsTs = entry.isDirectory() && readdirSync(path.join(dir, entry.name), { recursive: true, encoding: 'utf8' }).some((name) => name.endsWith('.ts'));
    if (holdsTs) found.push(`${entry.name}/`);
    else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(entry.name);
  }
  return found;
}

/** Every import between two files of `coreDir`, sorted. */
export function coreImports(coreDir: string): CoreImport[] {
  const found: CoreImport[] = [];
  const root = path.dirname(coreDir);
  for (const file of tsFiles(root, path.basename(coreDir)).map((rel) => path.join(root, rel))) {
    for (const spec of specifiersOf(readFileSync(file, 'utf8'))) {
      const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
      const to = path.relative(coreDir, target).split(path.sep).join('/');
      if (to.startsWith('..')) continue;
      found.push({ from: path.relative(coreDir, file).split(path.sep).join('/'), to });
    }
  }
  return found.sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`));
}

/** The imports that run against a layering table (core/'s unless told), each with the reason. */
export function againstTable(imports: readonly CoreImport[], table: LayerTable = CORE_TABLE): AgainstTable[] {
  const against: AgainstTable[] = [];
  for (const { from, to } of imports) {
    const a = table.roomOf(from);
    const b = table.roomOf(to);
    if (a === b) continue;
    const la = layerOf(a, table.layers);
    const lb = layerOf(b, table.layers);
    let why: string | null = null;
    if (la === undefined) why = `${a} has no place in the layering table`;
    else if (lb === undefined) why = `${b} has no place in the layering table`;
    else if (la === lb) why = `${a} and ${b} share a layer`;
    else if (la < lb) why = `${b} (layer ${lb}) sits above ${a} (layer ${la})`;
    if (why) against.push({ from, to, why, known: table.knownExceptions.includes(`${from} -> ${to}`) });
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
