/**
 * The Python gate of `npm run lint` (build/tools/lint/python-gate.ts) finds what it is there
 * to find: in a copy of the `vitrine` module, a planted unused import (flake8), a planted
 * type error (mypy, checking the module as Python 3.8 code) and a file over the length cap,
 * each named with its file, and nothing else: the untouched rest of the copy is clean. One run
 * of each tool over the planted copy shows both (a clean run first would cost a second mypy).
 */
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flake8, lengthCap, MAX_PYTHON_LINES, mypy, pythonFilesUnder, type TypeCheck } from '../../build/tools/lint/python-checks.ts';
import { REPO } from '../helpers/cli-path.ts';

const MODULE = 'core/python/vitrine';
const TYPED: TypeCheck = { what: 'the vitrine module', targets: ['-p', 'vitrine'], paths: ['core/python'], pythonVersion: '3.8' };
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'vitrine-python-gate-'));
  await cp(path.join(REPO, MODULE), path.join(dir, MODULE), { recursive: true });
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Python gate', () => {
  it('names a planted lint error, type error and over-long file, and nothing else of the module', async () => {
    const files = () => pythonFilesUnder(dir, [MODULE]);
    expect(lengthCap(dir, files())).toEqual([]);

    await appendFile(path.join(dir, MODULE, '_wire.py'), '\n\nimport fnmatch\n');
    await appendFile(path.join(dir, MODULE, '_coerce.py'), '\n\ndef _planted() -> int:\n    return "not an int"\n');
    await writeFile(path.join(dir, MODULE, '_long.py'), '"""Too long."""\n' + 'x = 1\n'.repeat(MAX_PYTHON_LINES));

    // What each tool says is all about the planted lines (the last of their files).
    const lastLine = async (file: string) => (await readFile(path.join(dir, MODULE, file), 'utf8')).trimEnd().split('\n').length;
    const lint = await flake8(dir, files());
    expect(lint.join('\n')).toMatch(/_wire\.py:\d+:1: F401 'fnmatch' imported but unused/);
    const wire = `/_wire.py:${await lastLine('_wire.py')}:`;
    expect(lint.filter((line) => !line.includes(wire))).toEqual([]);
    const types = await mypy(dir, TYPED);
    expect(types.join('\n')).toMatch(/_coerce\.py:\d+: error: Incompatible return value type \(got "str", expected "int"\)/);
    const coerce = `/_coerce.py:${await lastLine('_coerce.py')}:`;
    expect(types.filter((line) => !line.includes(coerce))).toEqual([]);
    expect(lengthCap(dir, files())).toEqual([
      `${MODULE}/_long.py:${MAX_PYTHON_LINES + 1}: ${MAX_PYTHON_LINES + 1} lines, over the cap of ${MAX_PYTHON_LINES}: split it by concept`,
    ]);
  });
});
