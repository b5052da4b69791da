/**
 * Unit tests of the build's small pure parts: argument parsing, thumbnail path rules, and the
 * parser order the schema chain depends on.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBuildArgs } from '../../core/cli/build-args.ts';
import { PARAM_PARSERS } from '../../build/schema/create-param-parser.ts';
import { resolveThumbnail } from '../../build/specimens/resolve-thumbnail.ts';
import { BUILD_CASES_DIR } from './helpers/build-cases.ts';

describe('parseBuildArgs', () => {
  const cwd = path.resolve('/work/project');

  it('defaults SRC to plugins and DIR to build/out, relative to the cwd', () => {
    expect(parseBuildArgs([], cwd)).toEqual({ srcDir: path.join(cwd, 'plugins'), outDir: path.join(cwd, 'build', 'out'), check: false });
  });

  it('accepts SRC, --out DIR, --out=DIR and --check in any order', () => {
    expect(parseBuildArgs(['--check', 'src', '--out', '/abs/out'], cwd)).toEqual({
      srcDir: path.join(cwd, 'src'),
      outDir: path.resolve('/abs/out'),
      check: true,
    });
    expect(parseBuildArgs(['--out=dist'], cwd)).toMatchObject({ outDir: path.join(cwd, 'dist') });
  });

  it('rejects unknown options, a second SRC and a missing --out value', () => {
    expect(parseBuildArgs(['--watch'], cwd)).toEqual({ error: "unknown option '--watch'" });
    expect(parseBuildArgs(['a', 'b'], cwd)).toEqual({ error: "unexpected argument 'b' (only one SRC folder)" });
    expect(parseBuildArgs(['--out'], cwd)).toEqual({ error: '--out needs a directory' });
    expect(parseBuildArgs(['-h'], cwd)).toEqual({ help: true });
  });
});

describe('resolveThumbnail', () => {
  const pluginDir = path.join(BUILD_CASES_DIR, 'invalid-specimens', 'plugins', 'gallery');

  it('passes data URIs through and maps relative files into the bundle folder', () => {
    expect(resolveThumbnail('data:image/png;base64,AAAA', pluginDir)).toEqual({ kind: 'data-uri', uri: 'data:image/png;base64,AAAA' });
    expect(resolveThumbnail('./thumbnails/torus.png', pluginDir)).toEqual({
      kind: 'file',
      source: path.join(pluginDir, 'thumbnails', 'torus.png'),
      bundlePath: 'thumbnails/torus.png',
    });
    expect(resolveThumbnail(undefined, pluginDir)).toEqual({ kind: 'none' });
  });

  it('rejects paths that leave the plugin folder, absolute paths, URLs and reserved names', () => {
    for (const bad of ['../x.png', 'thumbnails/../../x.png', '/etc/passwd', 'C:\\x.png', 'https://example.com/x.png', 'manifest.json', '.']) {
      expect(resolveThumbnail(bad, pluginDir).kind, bad).toBe('outside');
    }
    expect(resolveThumbnail('thumbnails/none.png', pluginDir).kind).toBe('missing');
  });
});

describe('the parser chain order', () => {
  const order = PARAM_PARSERS.map((parser) => parser.name);

  it('unwraps optional types first and puts boolean before string enums, Integer before number', () => {
    expect(order[0]).toBe('optional');
    expect(order.indexOf('boolean')).toBeLessThan(order.indexOf('string-enum'));
    expect(order.indexOf('integer')).toBeLessThan(order.indexOf('number'));
    expect(new Set(order).size).toBe(order.length);
  });
});
