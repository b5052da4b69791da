/**
 * @module python-gate
 * `npm run lint:python` (part of `npm run lint`, so of `npm test`): the project's Python held to
 * what its TypeScript is held to. flake8 and the length cap over every Python file of the
 * module, the plugin reader, the Python tests and the plugins; mypy over each of them that can
 * be typed, the module and the reader as the Python 3.8 code they promise to be. Exits 1 with
 * each problem on a line of its own.
 */
import { fileURLToPath } from 'node:url';
import { flake8, lengthCap, mypy, pythonFilesUnder, type TypeCheck } from './python-checks.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Linted and capped. Not here: test/fixtures/build/ (plugins broken on purpose, for the build's
 * error messages) and test/fixtures/schema/ (the schema goldens record their lines and columns).
 */
const LINTED = [
  'core/python/vitrine',
  'build/python',
  'test/python',
  'plugins',
  'test/fixtures/python-plugins',
  'test/fixtures/python-bench-plugins',
  'test/fixtures/conformance-python',
  'docs/examples',
];

/**
 * Type-checked, each on its own (every plugin has a `plugin.py`). Not here:
 * test/fixtures/python-plugins/py-lab, whose functions return numpy arrays where their
 * annotations name the result class, as the reference service's plugins do and the host takes.
 */
const TYPED: TypeCheck[] = [
  { what: 'the vitrine module', targets: ['-p', 'vitrine'], paths: ['core/python'], pythonVersion: '3.8' },
  { what: 'the plugin reader', targets: ['build/python/read_plugin.py', 'build/python/read_expressions.py'], paths: ['build/python'], pythonVersion: '3.8' },
  { what: 'the Python tests', targets: ['test/python/py', 'test/python/client-py'], paths: ['core/python'] },
  { what: 'the example plugin', targets: ['plugins/python-examples'], paths: ['core/python', 'plugins/python-examples'] },
  { what: 'the conformance twins', targets: ['test/fixtures/conformance-python/invoker-cases'], paths: ['core/python'] },
  { what: 'the docs\' examples', targets: ['docs/examples/nifti_to_npy.py'], paths: [] },
  { what: 'the benchmark plugin', targets: ['test/fixtures/python-bench-plugins/py-bench'], paths: ['core/python'] },
];

const files = pythonFilesUnder(REPO, LINTED);
const problems = [...(await flake8(REPO, files)), ...lengthCap(REPO, files)];
for (const check of TYPED) problems.push(...(await mypy(REPO, check)));
for (const line of problems) process.stdout.write(`${line}\n`);
process.stdout.write(`python gate: ${files.length} files linted, ${TYPED.length} type checks, ${problems.length} problems\n`);
if (problems.length > 0) process.exitCode = 1;
