/**
 * The input stamps `npm start` skips its compile and plugin build by: a stamp moves when a file
 * is edited, added or removed, stays when nothing is touched, and a step's stamp is current
 * only once written; the start script (in a checkout of its own) runs only the steps whose
 * inputs changed, and again after one failed.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMPILE_STAMP,
  compileInputs,
  compileStampOf,
  isCurrent,
  pluginInputs,
  REPO_ROOT,
  stampOf,
  writeStamp,
} from '../../build/tools/compile/input-stamp.mjs';
import { prepareStart } from '../../build/tools/start/prepare-start.mjs';

/** A checkout's root with one plugin: its `plugins/alpha` holds index.ts and shapes.ts. */
function checkout(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-stamp-'));
  mkdirSync(path.join(dir, 'plugins', 'alpha', '__pycache__'), { recursive: true });
  writeFileSync(path.join(dir, 'plugins', 'alpha', 'index.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(dir, 'plugins', 'alpha', 'shapes.ts'), 'export const b = 1;\n');
  return dir;
}

describe('input stamps', () => {
  it('move with every edit, new file and removed file, and only then', () => {
    const dir = checkout();
    const stamp = () => stampOf(pluginInputs(dir));
    const first = stamp();
    expect(stamp()).toBe(first);
    // Bytecode written by running a plugin is no input.
    writeFileSync(path.join(dir, 'plugins', 'alpha', '__pycache__', 'shapes.cpython-311.pyc'), 'x');
    expect(stamp()).toBe(first);
    const shapes = path.join(dir, 'plugins', 'alpha', 'shapes.ts');
    writeFileSync(shapes, 'export const b = 2;\n');
    utimesSync(shapes, new Date(2001, 1, 1), new Date(2001, 1, 1));
    const edited = stamp();
    expect(edited).not.toBe(first);
    writeFileSync(path.join(dir, 'plugins', 'alpha', 'more.ts'), '');
    const added = stamp();
    expect(added).not.toBe(edited);
    rmSync(path.join(dir, 'plugins', 'alpha', 'more.ts'));
    expect(stamp()).toBe(edited);
  });

  it('is current only once written', () => {
    const dir = checkout();
    const file = path.join(dir, '.inputs-stamp');
    const stamp = stampOf(pluginInputs(dir));
    expect(isCurrent(file, stamp)).toBe(false);
    writeStamp(file, stamp);
    expect(isCurrent(file, stamp)).toBe(true);
    expect(isCurrent(file, stampOf([]))).toBe(false);
  });

  it('cover the compiled sources and the package files, never the outputs', () => {
    const inputs = compileInputs().map((file) => path.relative(REPO_ROOT, file));
    expect(inputs).toContain(path.join('core', 'cli', 'main.ts'));
    expect(inputs).toContain(path.join('viewer', 'main.ts'));
    expect(inputs).toContain('package-lock.json');
    expect(inputs.filter((file) => /^build[\\/](dist|out)[\\/]|node_modules/.test(file))).toEqual([]);
    expect(pluginInputs()).toContain(COMPILE_STAMP);
  });

  it('let the start script compile and build only what changed', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'vitrine-start-'));
    for (const file of ['core/cli/main.ts', 'build/build-plugins.ts', 'plugins/alpha/index.ts', 'package.json', 'package-lock.json', 'tsconfig.json']) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), '{}\n');
    }
    const ran: string[] = [];
    const said: string[] = [];
    // The steps as the real ones end: the compile writes its stamp, the build its output.
    const run = (args: string[]): number => {
      const step = args.includes('build') ? 'build' : 'compile';
      ran.push(step);
      mkdirSync(path.join(root, step === 'build' ? 'build/out' : 'build/dist'), { recursive: true });
      if (step === 'compile') writeStamp(compileStampOf(root), stampOf(compileInputs(root)));
      return 0;
    };
    const start = () => {
      ran.length = 0;
      said.length = 0;
      expect(prepareStart(root, run, (line) => said.push(line))).toBe(0);
      return [...ran];
    };
    expect(start()).toEqual(['compile', 'build']);
    expect(start()).toEqual([]);
    expect(said).toEqual(['build/dist is up to date: nothing to compile', 'build/out is up to date: no plugin changed since it was built']);
    const touch = (file: string, when: number) => utimesSync(path.join(root, file), new Date(when), new Date(when));
    touch('plugins/alpha/index.ts', 1e12);
    expect(start()).toEqual(['build']);
    touch('core/cli/main.ts', 1e12);
    expect(start()).toEqual(['compile', 'build']);
    // A failed build keeps its stamp: the next start builds again.
    touch('plugins/alpha/index.ts', 2e12);
    expect(prepareStart(root, (args) => (args.includes('build') ? 3 : run(args)), () => {})).toBe(3);
    expect(start()).toEqual(['build']);
  });
});
