/**
 * core/ is layered: a room (a folder, or a file at its root) imports only from rooms below it
 * in the table of build/tools/layering/core-layers.ts, type imports and dynamic imports
 * included, so no change adds an arrow back up unnoticed. `npm run layering` prints the same
 * findings with counts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { againstTable, coreImports, mutualFolders, roomsIn, specifiersOf } from '../../build/tools/layering/core-imports.ts';
import { ENTRY_FILES, KNOWN_EXCEPTIONS, LAYERS, layerOf } from '../../build/tools/layering/core-layers.ts';

const CORE = fileURLToPath(new URL('../../core/', import.meta.url));
const imports = coreImports(CORE);

describe('the layering of core/', () => {
  it('has no import against the table', () => {
    expect(imports.length).toBeGreaterThan(1000);
    const against = againstTable(imports).filter((a) => !a.known).map((a) => `${a.from} -> ${a.to}: ${a.why}`);
    expect(against).toEqual([]);
  });

  it('still has each known exception (delete an entry once its import is gone)', () => {
    const known = new Set(againstTable(imports).filter((a) => a.known).map((a) => `${a.from} -> ${a.to}`));
    expect(KNOWN_EXCEPTIONS.filter((entry) => !known.has(entry))).toEqual([]);
  });

  it('places every room of core/ exactly once', () => {
    expect([...ENTRY_FILES, ...roomsIn(CORE)].filter((room) => layerOf(room) === undefined)).toEqual([]);
    const listed = LAYERS.flat();
    expect(listed.filter((room, at) => listed.indexOf(room) !== at)).toEqual([]);
  });

  it('names no room that is gone (a stale name would hold a place nothing takes)', () => {
    expect(LAYERS.flat().filter((room) => !existsSync(path.join(CORE, room)))).toEqual([]);
  });

  it('has no two folders importing each other but through a known exception or the package entry', () => {
    const explained = (i: { from: string; to: string }) => KNOWN_EXCEPTIONS.includes(`${i.from} -> ${i.to}`) || ENTRY_FILES.includes(i.from);
    expect(mutualFolders(imports.filter((i) => !explained(i)))).toEqual([]);
  });

  it('catches an arrow back up, a type import and a dynamic import alike', () => {
    const text = [
      "import type { HostContext } from '../host-context.ts';",
      "export { x } from './x.ts';",
      "const m = await import('../assembly/assemble-host.ts');",
    ].join('\n');
    expect(specifiersOf(text).sort()).toEqual(['../assembly/assemble-host.ts', '../host-context.ts', './x.ts']);
    const against = againstTable([
      { from: 'results/stored-result.ts', to: 'host-context.ts' },
      { from: 'results/stored-result.ts', to: 'assembly/assemble-host.ts' },
      { from: 'jobs/job.ts', to: 'zarr/routes-zarr.ts' },
      { from: 'http/routes-jobs.ts', to: 'results/stored-result.ts' },
    ]);
    expect(against.map((a) => `${a.from} -> ${a.to}`)).toEqual([
      'results/stored-result.ts -> host-context.ts',
      'results/stored-result.ts -> assembly/assemble-host.ts',
      'jobs/job.ts -> zarr/routes-zarr.ts',
    ]);
  });
});
