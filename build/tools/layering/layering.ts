/**
 * @module layering
 * `npm run layering`: prints the pairs of core/ folders that import each other and the imports
 * that run against the layering table (core-layers.ts), each with a count; known exceptions
 * are listed apart; the same for viewer/ and its table (viewer-layers.ts); and the imports that
 * cross the border between the viewer and the host (viewer-boundary.ts). Exits 1 when an import
 * runs against a table and is not a known exception, when two folders import each other, or
 * when an import crosses the border.
 * test/unit/layering.test.ts and test/unit/viewer-boundary.test.ts hold the same rules.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { againstTable, CORE_TABLE, coreImports, mutualFolders, type LayerTable } from './core-imports.ts';
import { boundaryCrossings, tsFiles } from './viewer-boundary.ts';
import { VIEWER_TABLE } from './viewer-layers.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const out: string[] = [];

/** Prints the findings of `folder` against `table`; returns how many are not known exceptions. */
function report(folder: string, table: LayerTable): number {
  const imports = coreImports(path.join(ROOT, folder));
  const pairs = mutualFolders(imports);
  const against = againstTable(imports, table);
  const known = against.filter((a) => a.known);
  const unknown = against.filter((a) => !a.known);
  out.push(`${folder}/: ${imports.length} imports between files`, '', 'folders importing each other:');
  for (const pair of pairs) out.push(`  ${pair}`);
  out.push(`mutual folder pairs: ${pairs.length}`, '', 'imports against the layering table:');
  for (const a of unknown) out.push(`  ${a.from} -> ${a.to}: ${a.why}`);
  out.push(`imports against the table: ${unknown.length}`);
  if (known.length > 0) {
    out.push('', 'known exceptions (on their way out):');
    for (const a of known) out.push(`  ${a.from} -> ${a.to}: ${a.why}`);
    out.push(`known exceptions: ${known.length}`);
  }
  out.push('');
  return pairs.length + unknown.length;
}

const found = report('core', CORE_TABLE) + report('viewer', VIEWER_TABLE);
const crossings = boundaryCrossings(ROOT);
out.push(`viewer/ (${tsFiles(ROOT, 'viewer').length} files) and core/: imports across the border:`);
for (const c of crossings) out.push(`  ${c.from} -> ${c.to}: ${c.why}`);
out.push(`imports across the border: ${crossings.length}`);
process.stdout.write(`${out.join('\n')}\n`);
process.exitCode = found + crossings.length > 0 ? 1 : 0;
