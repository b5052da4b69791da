/**
 * The example plugins' functions, in one file because they share its builds (each plugin whose
 * functions take inputs is built once, through vitrine/testing, for both): every function at
 * its defaults returns a well-formed result of its declared kind, and every declared specimen
 * names a real function and ships a real thumbnail; every numeric parameter states slider
 * bounds in its doc comment, its default lies within them, and the function still returns a
 * sane result with every numeric parameter at its maximum.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SpecimenDeclaration, SpecimenResult } from 'vitrine';
import { callWithInputs, declaredFunctions, importPlugin, isInput, isNumeric, PLUGINS_DIR, pluginNames } from './plugin-sources.ts';
import { expectWellFormed, kindOf } from './result-checks.ts';

const functions = declaredFunctions();
const RETURN_KINDS: Record<string, string> = {
  MeshResult: 'mesh', VolumeResult: 'volume', PointCloudResult: 'point_cloud', ImageResult: 'image',
};

/**
 * The deliberately slow specimen at its defaults but for two of its 32 steps: every step runs
 * the same 250 updates of the same default grid (preset, size, seed), and what the result is
 * (a size × size RGB image) does not depend on how many steps ran; all 32 cost 8 CPU-s.
 */
const AT_DEFAULTS: Record<string, unknown[]> = { gray_scott_pattern: [undefined, undefined, 2] };

describe('example plugin functions at their defaults', () => {
  it('are found in every plugin, with names unique across plugins', () => {
    expect(pluginNames().length).toBeGreaterThanOrEqual(5);
    const names = functions.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it.each(functions.map((f) => [`${f.plugin}/${f.name}`, f] as const))('%s is well formed', async (_, declared) => {
    const module = await importPlugin(declared.plugin);
    const fn = module[declared.name] as (...args: unknown[]) => SpecimenResult | Promise<SpecimenResult>;
    // A function taking an input gets its default input resolved, as from a host.
    const result = declared.parameters.some(isInput)
      ? await callWithInputs(declared.plugin, declared.name)
      : await fn(...(AT_DEFAULTS[declared.name] ?? []));
    const declaredKind = RETURN_KINDS[declared.returnType.replace(/^Promise<(.*)>$/, '$1')];
    expect(declaredKind, `return type ${declared.returnType}`).toBeDefined();
    expect(kindOf(result)).toBe(declaredKind);
    expect(result.type).toBe(declaredKind);
    expectWellFormed(result);
  }, 180_000);
});

describe('example specimens', () => {
  const all = async (): Promise<{ plugin: string; module: Record<string, unknown>; specimen: SpecimenDeclaration }[]> => {
    const out = [];
    for (const plugin of pluginNames()) {
      const module = await importPlugin(plugin);
      for (const specimen of (module['specimens'] ?? []) as SpecimenDeclaration[]) out.push({ plugin, module, specimen });
    }
    return out;
  };

  it('have unique ids and name exported functions of their plugin', async () => {
    const specimens = await all();
    expect(specimens.length).toBeGreaterThanOrEqual(10);
    const ids = specimens.map((s) => s.specimen.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { module, specimen } of specimens) {
      expect(specimen.id).toMatch(/^[A-Za-z0-9_.-]+$/);
      expect(typeof module[specimen.function], `${specimen.id} → ${specimen.function}`).toBe('function');
      expect(specimen.display_name.length).toBeGreaterThan(0);
      expect(specimen.story!.length).toBeGreaterThan(100);
      expect(specimen.tags!.length).toBeGreaterThan(0);
    }
  });

  it('ship a 256 × 256 PNG thumbnail', async () => {
    for (const { plugin, specimen } of await all()) {
      const png = readFileSync(join(PLUGINS_DIR, plugin, specimen.thumbnail!));
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(png.toString('latin1', 12, 16)).toBe('IHDR');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([256, 256]);
    }
  });

  it('index.ts exports only specimen functions and the specimens list', async () => {
    for (const plugin of pluginNames()) {
      const module = await importPlugin(plugin);
      const declared = new Set(functions.filter((f) => f.plugin === plugin).map((f) => f.name));
      for (const [name, value] of Object.entries(module)) {
        if (name === 'specimens') continue;
        expect(typeof value, `${plugin} exports ${name}`).toBe('function');
        expect(declared.has(name), `${plugin} exports ${name}`).toBe(true);
      }
    }
  });
});

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
