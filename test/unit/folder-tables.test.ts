/**
 * The folder tables tell the truth: every folder of `core/` is described in core/README.md's
 * Folders table and in docs/layout.md's Layout section, and neither names a folder that is gone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const coreFolders = readdirSync(new URL('core/', root), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Folder names written as `name/` in `text`. */
function namedFolders(text: string): string[] {
  return [...new Set([...text.matchAll(/`([a-z][a-z-]*)\/`/g)].map((match) => match[1]!))].sort();
}

/** The part of a Markdown file from `heading` to the next heading of that level. */
function section(file: string, heading: string): string {
  const text = readFileSync(new URL(file, root), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no '${heading}'`);
  const level = heading.split(' ')[0]!;
  const end = text.indexOf(`\n${level} `, start + heading.length + 2);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('folder tables', () => {
  it("core/README.md's Folders table names exactly the folders of core/ in its first column", () => {
    const table = section('core/README.md', '## Folders')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|')[1] ?? '')
      .join('\n');
    expect(namedFolders(table)).toEqual(coreFolders);
  });

  it("docs/layout.md's Layout names every folder of core/", () => {
    const layout = section('docs/layout.md', '## Layout');
    const coreText = layout.slice(layout.indexOf('`core/`'), layout.indexOf('`build/`'));
    expect(namedFolders(coreText).filter((name) => name !== 'core')).toEqual(coreFolders);
  });
});
