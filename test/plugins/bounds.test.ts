/**
 * Every numeric parameter of every example function states slider bounds in its doc comment,
 * its default lies within them, and the function still returns a sane result with every
 * numeric parameter at its maximum.
 */
import { describe, expect, it } from 'vitest';
import type { SpecimenResult } from 'vitrine';
import { callWithInputs, declaredFunctions, importPlugin, isInput, isNumeric } from './plugin-sources.ts';
import { expectWellFormed } from './result-checks.ts';

const functions = declaredFunctions();
const INJECTED = new Set(['ProgressReporter', 'AbortSignal']);

/**
 * The deliberately slow specimen is run at its maximum grid size and step length but for a
 * single step: at full maximums it computes for tens of seconds, by design.
 */
const OVERRIDES: Record<string, Record<string, number>> = { gray_scott_pattern: { steps: 1 } };

describe('parameter bounds', () => {
  it.each(functions.map((f) => [`${f.plugin}/${f.name}`, f] as const))('%s bounds every numeric parameter', (_, fn) => {
    for (const p of fn.parameters) {
      if (INJECTED.has(p.type.replace(/\s*\|\s*undefined/, ''))) continue;
      expect(p.initializer, `${fn.name}(${p.name}) needs a default`).toBeDefined();
      if (isInput(p)) continue;
      if (!isNumeric(p)) continue;
      expect(p.minimum, `${fn.name}(${p.name}) @minimum`).toBeTypeOf('number');
      expect(p.maximum, `${fn.name}(${p.name}) @maximum`).toBeTypeOf('number');
      // Authors may write numeric separators (1_000_000).
      const value = Number(p.initializer?.replace(/_/g, ''));
      expect(value).toBeGreaterThanOrEqual(p.minimum!);
      expect(value).toBeLessThanOrEqual(p.maximum!);
    }
  });

  it.each(functions.map((f) => [`${f.plugin}/${f.name}`, f] as const))('%s is sane at its maximums', async (_, fn) => {
    if (fn.parameters.some(isInput)) {
      const maximums = Object.fromEntries(fn.parameters.filter(isNumeric).map((p) => [p.name, OVERRIDES[fn.name]?.[p.name] ?? p.maximum]));
      expectWellFormed(await callWithInputs(fn.plugin, fn.name, maximums));
      return;
    }
    const module = await importPlugin(fn.plugin);
    const args = fn.parameters.map((p) => OVERRIDES[fn.name]?.[p.name] ?? (isNumeric(p) ? p.maximum : undefined));
    const result = await (module[fn.name] as (...a: unknown[]) => SpecimenResult | Promise<SpecimenResult>)(...args);
    expectWellFormed(result);
  }, 180_000);
});
