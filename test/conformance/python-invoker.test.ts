/**
 * The invoker conformance cases (invoker-cases.ts) against the Python invoker: the Python
 * twins of the case functions (test/fixtures/conformance-python/, same names and results),
 * built by the real `vitrine build` and run in a warm plugin process of Debian's Python, as a
 * host or a worker runs them. Every case applies: a Python function has no AbortSignal
 * parameter, but the cases abort the invocation's signal, which the invoker turns into an
 * interrupt of the running function, so the cancel cases hold as they do for the others.
 */
import { afterAll, beforeAll } from 'vitest';
import { assembleCompute, type ComputeAssembly } from '../../core/assembly/compute-assembly.ts';
import { resolveHostOptions } from '../../core/options.ts';
import type { FunctionEntry } from '../../core/registry/function-entry.ts';
import { SpecimenCatalog } from '../../core/registry/specimen-catalog.ts';
import { builtFixture } from '../helpers/built-fixture.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';
import { invokerConformance } from './invoker-cases.ts';

let compute: ComputeAssembly;

beforeAll(async () => {
  const pluginsDir = await builtFixture('conformance-python');
  compute = await assembleCompute(
    resolveHostOptions({ pluginsDir, specimensDir: null, poolSize: 2, python: TEST_PYTHON, pythonProcesses: 1, cancelGraceMs: 200, logLevel: false }),
  );
  await compute.reload(new SpecimenCatalog(() => {}));
});

afterAll(async () => {
  await compute?.close();
});

function entry(name: string): FunctionEntry {
  const found = compute.functions.get(name);
  if (!found) throw new Error(`${name} is not registered`);
  return found;
}

invokerConformance('python', () => ({ invoker: () => compute.python.invoker, entry }));
