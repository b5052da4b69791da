/**
 * Every example plugin function at its defaults returns a well-formed result of its declared
 * kind, and every declared specimen names a real function and ships a real thumbnail.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SpecimenDeclaration, SpecimenResult } from 'vitrine';
import { callWithInputs, declaredFunctions, importPlugin, isInput, PLUGINS_DIR, pluginNames } from './plugin-sources.ts';
import { expectWellFormed, kindOf } from './result-checks.ts';

const functions = declaredFunctions();
const RETURN_KINDS: Record<string, string> = {
  MeshResult: 'mesh', VolumeResult: 'volume', PointCloudResult: 'point_cloud', ImageResult: 'image',
};

describe('example plugin functions at their defaults', () => {
  it('are found in every plugin, with names unique across plugins', () => {
    expect(pluginNames().length).toBeGreaterThanOrEqual(5);
    const names = functions.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it.each(functions.map((f) => [`${f.plugin}/${f.name}`, f] as const))('%s is well formed', async (_, declared) => {
    const module = await importPlugin(declared.plugin);
    const fn = module[declared.name] as () => SpecimenResult | Promise<SpecimenResult>;
    // A function taking an input gets its default input resolved, as from a host.
    const result = declared.parameters.some(isInput) ? await callWithInputs(declared.plugin, declared.name) : await fn();
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
