/**
 * @module python-checks
 * The checks of the Python gate, each over files it is given: flake8 and mypy as Debian ships
 * them (`/usr/bin/python3 -m flake8`, `-m mypy`; PyPI is out of reach), and a length cap like
 * the TypeScript one. Each answers its problems as lines `path:line: what`, none when clean.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The interpreter whose flake8 and mypy the gate runs (Debian's, as CI installs them). */
export const GATE_PYTHON = '/usr/bin/python3';
/** A Python file past this holds more than one concept, as a host file past 300 lines does. */
export const MAX_PYTHON_LINES = 300;

const FLAKE8_CONFIG = fileURLToPath(new URL('./flake8.cfg', import.meta.url));
const MYPY_CONFIG = fileURLToPath(new URL('./mypy.ini', import.meta.url));

/** One mypy run: its targets, the folders imports resolve in, and the Python version it checks for. */
export interface TypeCheck {
  what: string;
  /** Files or folders, or `['-p', 'package']`. */
  targets: string[];
  /** MYPYPATH: where the checked code's imports (`vitrine`, a plugin's siblings) are found. */
  paths: string[];
  /** The oldest Python the code promises to run on (the module and the reader: 3.8). */
  pythonVersion?: string;
}

interface Ran {
  code: number;
  output: string;
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const options = { cwd, env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' }, maxBuffer: 16 * 1024 * 1024 };
    execFile(GATE_PYTHON, args, options, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(new Error(`${GATE_PYTHON} could not run: ${error.message}`));
      resolve({ code: error ? Number(error.code) : 0, output: `${stdout}${stderr}`.trim() });
    });
  });
}

/** Says which Debian package to install when `module` is missing, rather than passing quietly. */
async function need(module: 'flake8' | 'mypy', cwd: string): Promise<void> {
  const probe = await run(['-m', module, '--version'], cwd);
  if (probe.code !== 0) throw new Error(`the Python gate needs ${module}: apt-get install ${module === 'mypy' ? 'mypy' : 'python3-flake8'}`);
}

/** Every `.py` file under `roots` (files or folders, relative to `cwd`), sorted. */
export function pythonFilesUnder(cwd: string, roots: string[]): string[] {
  const found: string[] = [];
  const walk = (rel: string): void => {
    const full = path.join(cwd, rel);
    if (statSync(full).isFile()) {
      if (rel.endsWith('.py')) found.push(rel);
      return;
    }
    for (const name of readdirSync(full)) if (name !== '__pycache__' && name !== 'node_modules') walk(path.join(rel, name));
  };
  for (const root of roots) walk(root);
  return found.sort();
}

export async function flake8(cwd: string, files: string[]): Promise<string[]> {
  if (files.length === 0) return [];
  await need('flake8', cwd);
  const ran = await run(['-m', 'flake8', '--config', FLAKE8_CONFIG, ...files], cwd);
  return ran.code === 0 ? [] : ran.output.split('\n').filter((line) => line.trim() !== '');
}

export async function mypy(cwd: string, check: TypeCheck): Promise<string[]> {
  await need('mypy', cwd);
  const version = check.pythonVersion ? ['--python-version', check.pythonVersion] : [];
  const env = { MYPYPATH: check.paths.map((p) => path.join(cwd, p)).join(path.delimiter) };
  const ran = await run(
    ['-m', 'mypy', '--config-file', MYPY_CONFIG, '--cache-dir', path.join(cwd, 'node_modules/.cache/mypy'), ...version, ...check.targets],
    cwd,
    env,
  );
  if (ran.code === 0) return [];
  return ran.output.split('\n').filter((line) => /: (error|note):/.test(line) || !/^Found \d+ error/.test(line)).map((line) => `${line} [${check.what}]`);
}

export function lengthCap(cwd: string, files: string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const lines = readFileSync(path.join(cwd, file), 'utf8').split('\n').length - 1;
    if (lines > MAX_PYTHON_LINES) problems.push(`${file}:${lines}: ${lines} lines, over the cap of ${MAX_PYTHON_LINES}: split it by concept`);
  }
  return problems;
}
