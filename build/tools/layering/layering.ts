/**
 * @module layering
 * `npm run layering`: prints the pairs of core/ folders that import each other and the imports
 * that run against the layering table (core-layers.ts), each with a count; known exceptions
 * are listed apart. Exits 1 when an import runs against the table and is not a known
 * exception. test/unit/layering.test.ts holds the same rule.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { againstTable, coreImports, mutualFolders } from './core-imports.ts';

const CORE = path.join(fileURLToPath(new URL('../../../', import.meta.url)), 'core');
const imports = coreImports(CORE);
const pairs = mutualFolders(imports);
const against = againstTable(imports);
const known = against.filter((a) => a.known);
const unknown = against.filter((a) => !a.known);

const out: string[] = [`core/: ${imports.length} imports between files`, '', 'folders importing each other:'];
for (const pair of pairs) out.push(`  ${pair}`);
out.push(`mutual folder pairs: ${pairs.length}`, '', 'imports against the layering table:');
for (const a of unknown) out.push(`  ${a.from} -> ${a.to}: ${a.why}`);
out.push(`imports against the table: ${unknown.length}`);
if (known.length > 0) {
  out.push('', 'known exceptions (on their way out):');
  for (const a of known) out.push(`  ${a.from} -> ${a.to}: ${a.why}`);
  out.push(`known exceptions: ${known.length}`);
}
process.stdout.write(`${out.join('\n')}\n`);
process.exitCode = unknown.length > 0 ? 1 : 0;
