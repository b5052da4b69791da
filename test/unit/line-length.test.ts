/**
 * The line rule holds over every TypeScript file of the repository, the ones the lint gate
 * leaves out included (the schema fixtures, which are plugins the generator reads, some of them
 * broken on purpose): no line over 160 characters, counted as characters, not bytes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAX = 160;

describe('the line rule', () => {
  it(`holds over every tracked TypeScript file: no line over ${MAX} characters`, () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.mts', '*.tsx'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.length).toBeGreaterThan(500);
    const long: string[] = [];
    for (const file of files) {
      readFileSync(new URL(file, `file://${ROOT}`), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const length = [...line].length;
          if (length > MAX) long.push(`${file}:${i + 1}: ${length} characters`);
        });
    }
    expect(long).toEqual([]);
  });
});
