/**
 * The README is a front door: short, the two commands a newcomer needs at its top, and a table
 * that sends a reader to every page of docs/. A page added to docs/ without a row, or a README
 * that grows back into a manual, fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli-path.ts';

const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const lines = readme.split('\n');

describe('the README', () => {
  it('is at most 300 lines, with both commands in its first 15', () => {
    expect(lines.length).toBeLessThanOrEqual(300);
    const top = lines.slice(0, 15).join('\n');
    expect(top).toContain('npm install && npm start');
    expect(top).toContain('npm test');
  });

  it('links every page of docs/', () => {
    const pages = readdirSync(join(REPO, 'docs')).filter((name) => name.endsWith('.md'));
    const unlinked = pages.filter((name) => !readme.includes(`](docs/${name}`));
    expect(unlinked, 'docs/ pages the README does not link').toEqual([]);
  });

  it('states no measured figure that could go stale (timings, test counts)', () => {
    const figures = lines.filter((line) => /\b\d+(\.\d+)?\s?(ms|min|minutes|seconds)\b|\b[\d,]+ tests\b/.test(line));
    expect(figures).toEqual([]);
  });
});
