/**
 * @module place-changes
 * Where each change is shown: the source file of its function, relative to the working folder,
 * at the parameter's line when the parameter is still written (a TypeScript bound at its tag),
 * else at the function's line (for a removed function, the line it had).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChangeKind, CompatChange } from './compat-change.ts';
import { boundTagLine, parameterLine } from './source-lines.ts';
import { displayPath } from '../diagnostics/format-diagnostic.ts';

/** A change as printed: its place in the current sources. */
export interface PlacedChange extends Omit<CompatChange, 'source'> {
  file: string;
  line: number;
}

const BOUND_KINDS: ReadonlySet<ChangeKind> = new Set<ChangeKind>([
  'minimum-raised', 'minimum-lowered', 'maximum-lowered', 'maximum-raised', 'min-items-raised', 'min-items-lowered', 'max-items-lowered', 'max-items-raised',
]);

/** Each change at its place under `srcDir` (the plugins' folder), its file shown relative to `cwd`. */
export function placeChanges(changes: CompatChange[], srcDir: string, cwd: string): PlacedChange[] {
  const texts = new Map<string, string | null>();
  const textOf = (file: string): string | null => {
    if (!texts.has(file)) {
      try {
        texts.set(file, readFileSync(file, 'utf8'));
      } catch {
        texts.set(file, null);
      }
    }
    return texts.get(file)!;
  };
  return changes.map(({ source, ...change }) => {
    const file = path.join(srcDir, change.plugin, ...source.file.split('/'));
    const text = change.parameter !== null && change.kind !== 'parameter-removed' ? textOf(file) : null;
    const bound = text !== null && BOUND_KINDS.has(change.kind) ? boundTagLine(text, source.line, change.parameter!) : null;
    const line = text === null ? source.line : (bound ?? parameterLine(text, source.line, change.parameter!));
    return { ...change, file: displayPath(file, cwd), line };
  });
}
