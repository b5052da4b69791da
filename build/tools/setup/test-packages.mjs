/**
 * @module test-packages
 * The first step of `npm test`: the Debian (or Ubuntu) packages the suite starts or reads, each
 * found by what the suite uses of it (a command, a Python module, a file), before anything
 * else runs. When some are missing it installs them with apt-get if it runs as root, else it
 * prints one line naming every one and exits 1, so a fresh machine learns all it needs at once
 * instead of failing deep inside the run at the first that is absent.
 *
 * Usage: `node build/tools/setup/test-packages.mjs [--check]` (`--check`: never install).
 * Plain JavaScript, so it runs before anything is compiled or installed from npm.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PYTHON = '/usr/bin/python3';
const NIBABEL_DOWNLOADS = '/usr/share/doc/python-nibabel-doc/html/_downloads';

/** Whether `name` is an executable on PATH (or at one of `also`). */
export function hasCommand(name, env = process.env, also = []) {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return [...dirs.map((dir) => path.join(dir, name)), ...also].some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const python = (...args) => spawnSync(PYTHON, args, { stdio: 'ignore' }).status === 0;

/**
 * What the suite needs, each with the packages that give it and how to tell it is there:
 * Chromium drives the browser tests, redis-server is the real Redis of the scale-out tests,
 * Python with numpy, websockets and zarr runs plugins, the notebook client and the OME-Zarr
 * reads, nginx is the HTTP cache in front of hosts, Swift the real S3 server, nbconvert runs
 * the example notebook, memcached and curl the lab walkthrough, nibabel's documentation holds
 * the brain scan the examples test converts, flake8 and mypy are the Python gate.
 */
export const NEEDS = [
  { packages: ['chromium'], present: (env) => hasCommand('chromium', env) },
  { packages: ['redis-server'], present: (env) => hasCommand('redis-server', env) },
  { packages: ['python3', 'python3-numpy', 'python3-websockets'], present: () => python('-c', 'import numpy, websockets') },
  { packages: ['python3-zarr'], present: () => python('-c', 'import zarr') },
  { packages: ['nginx'], present: (env) => hasCommand('nginx', env, ['/usr/sbin/nginx']) },
  { packages: ['swift', 'swift-proxy', 'swift-object', 'swift-container', 'swift-account'], present: (env) => hasCommand('swift-proxy-server', env) },
  { packages: ['jupyter-nbconvert', 'python3-ipykernel'], present: (env) => hasCommand('jupyter-nbconvert', env) },
  { packages: ['memcached'], present: (env) => hasCommand('memcached', env) },
  { packages: ['curl'], present: (env) => hasCommand('curl', env) },
  {
    packages: ['python-nibabel-doc'],
    present: () =>
      existsSync(NIBABEL_DOWNLOADS) && readdirSync(NIBABEL_DOWNLOADS).some((dir) => existsSync(path.join(NIBABEL_DOWNLOADS, dir, 'someones_anatomy.nii.gz'))),
  },
  { packages: ['python3-flake8'], present: () => python('-m', 'flake8', '--version') },
  { packages: ['mypy'], present: () => python('-m', 'mypy', '--version') },
];

/** The packages of every need that is not met, in the order listed. */
export function missingPackages(needs = NEEDS, env = process.env) {
  return needs.filter((need) => !need.present(env)).flatMap((need) => need.packages);
}

/** The one line a user who may not install is shown. */
export function missingLine(packages) {
  return `npm test needs these Debian packages first: sudo apt-get install ${packages.join(' ')}`;
}

/**
 * Sees to the packages: nothing when all are there; installed with `install(packages)` when
 * `mayInstall`; else the one line through `say`. Answers the exit code.
 */
export function setUp({ needs = NEEDS, env = process.env, mayInstall, install, say }) {
  const missing = missingPackages(needs, env);
  if (missing.length === 0) return 0;
  if (!mayInstall) {
    say(missingLine(missing));
    return 1;
  }
  say(`npm test: installing ${missing.join(' ')} with apt-get`);
  const code = install(missing);
  if (code !== 0) {
    say(missingLine(missing));
    return code;
  }
  const still = missingPackages(needs, env);
  if (still.length === 0) return 0;
  say(missingLine(still));
  return 1;
}

/** apt-get update, then install `packages`, quietly; its exit code. */
function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  if (update.status !== 0) return update.status ?? 1;
  return spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env }).status ?? 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = setUp({
    mayInstall: !process.argv.includes('--check') && process.getuid?.() === 0,
    install: aptInstall,
    say: (line) => process.stderr.write(`${line}\n`),
  });
}
