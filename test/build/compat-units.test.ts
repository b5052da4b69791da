/**
 * The small parts of `vitrine build --against`: its arguments, and where a parameter or a bound
 * is written in TypeScript and Python sources.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBuildArgs } from '../../core/cli/build-args.ts';
import { boundTagLine, parameterLine } from '../../build/compat/source-lines.ts';
import { AgainstError, readBuiltManifests } from '../../build/compat/earlier-build.ts';
import { tempDir, writeFiles } from './helpers/run-cli.ts';

describe('parseBuildArgs --against and --format', () => {
  const cwd = path.resolve('/work/project');

  it('keeps git:<ref> as given and resolves a folder; --format needs --against', () => {
    expect(parseBuildArgs(['--against', 'git:origin/main'], cwd)).toMatchObject({ against: 'git:origin/main' });
    expect(parseBuildArgs(['--against=old', '--format=json'], cwd)).toMatchObject({ against: path.join(cwd, 'old'), format: 'json' });
    expect(parseBuildArgs(['--against'], cwd)).toEqual({ error: '--against needs a build output folder or git:<ref>' });
    expect(parseBuildArgs(['--against', 'git:'], cwd)).toEqual({ error: '--against needs a build output folder or git:<ref>' });
    expect(parseBuildArgs(['--against', 'old', '--format', 'yaml'], cwd)).toEqual({ error: '--format is text or json' });
    expect(parseBuildArgs(['--format', 'json'], cwd)).toEqual({ error: '--format applies to the changes --against prints' });
    expect(parseBuildArgs([], cwd)).not.toHaveProperty('against');
  });
});

describe('an earlier build output folder', () => {
  it('must hold bundle folders with manifests that parse', () => {
    const sources = tempDir('vitrine-against-dir-');
    writeFiles(sources, { 'lab/index.ts': 'export {};\n' });
    expect(() => readBuiltManifests(sources)).toThrow(AgainstError);
    expect(() => readBuiltManifests(sources)).toThrow(/holds no build output/);
    writeFiles(sources, { 'lab/manifest.json': '{ not json' });
    expect(() => readBuiltManifests(sources)).toThrow(/lab\/manifest.json is not a manifest/);
    writeFiles(sources, { 'lab/manifest.json': '{"plugin": "lab", "functions": []}' });
    expect(readBuiltManifests(sources)).toEqual([{ plugin: 'lab', functions: [] }]);
  });
});

describe('where a parameter is written', () => {
  const ts = [
    '/**',
    ' * Ripples.',
    ' * @param size Edge.',
    ' * @range size 0 1',
    ' * @minItems levels 1',
    ' */',
    'export function ripple(',
    '  size = 1.5,',
    "  mode: 'size' | 'fine' = 'fine',",
    '  levels: number[] = [],',
    '  seed?: Integer,',
    '): MeshResult {',
    '  const levels2 = levels;',
  ].join('\n');
  const py = ['def ripple(', '    size: Annotated[float, Range(0, 1)] = 1.5,', '    *,', '    seed: int | None = None,', ') -> MeshResult:'].join('\n');

  it('finds each parameter in its signature, not in a string or the doc comment', () => {
    expect(parameterLine(ts, 7, 'size')).toBe(8);
    expect(parameterLine(ts, 7, 'mode')).toBe(9);
    expect(parameterLine(ts, 7, 'levels')).toBe(10);
    expect(parameterLine(ts, 7, 'seed')).toBe(11);
    expect(parameterLine(py, 1, 'size')).toBe(2);
    expect(parameterLine(py, 1, 'seed')).toBe(4);
    expect(parameterLine('export function f(a = 1): MeshResult {}', 1, 'a')).toBe(1);
  });

  it("falls back to the function's line, and finds a bound's tag above it", () => {
    expect(parameterLine(ts, 7, 'gone')).toBe(7);
    expect(boundTagLine(ts, 7, 'size')).toBe(4);
    expect(boundTagLine(ts, 7, 'levels')).toBe(5);
    expect(boundTagLine(ts, 7, 'mode')).toBeNull();
    expect(boundTagLine(py, 1, 'size')).toBeNull();
  });
});
