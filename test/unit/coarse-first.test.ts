/**
 * The viewer's coarse-first rules: what the coarse request asks for (within the VR budget when
 * in a session), and when a coarse answer is provably the whole result; and the order of the
 * steps (the full view replaces the coarse one, the note comes and goes around it).
 */
import { describe, expect, it } from 'vitest';
import type { SpecimenData } from '../../core/client/decoded-types.ts';
import { coarseDelivery, loadCoarseFirst, mayRefine } from '../../core/viewer/app/coarse-first.ts';

const volume = (shape: number[]) => ({ type: 'volume', shape, dtype: 'uint8', data: new Uint8Array(0), spacing: null, origin: null, value_range: null }) as unknown as SpecimenData;
const mesh = (triangles: number) => ({ type: 'mesh', vertices: new Float32Array(0), indices: new Uint32Array(triangles * 3), normals: null }) as unknown as SpecimenData;

describe('coarse first', () => {
  it('asks for 64 samples per axis or 20,000 triangles, or nothing when the page asks for no more', () => {
    expect(coarseDelivery('volume', undefined)).toEqual({ max_dim: 64 });
    expect(coarseDelivery('volume', { max_dim: 32 })).toBeNull();
    expect(coarseDelivery('mesh', { format: 'glb', compress: 'meshopt', max_triangles: 300000 })).toEqual({ format: 'glb', compress: 'meshopt', max_triangles: 20000 });
    expect(coarseDelivery('mesh', { max_triangles: 20000 })).toBeNull();
    expect(coarseDelivery('point_cloud', undefined)).toBeNull();
  });

  it('refines unless the coarse answer is provably the whole result', () => {
    // An axis over 64 becomes at least 33 samples; every axis at most 32 was never reduced.
    expect(mayRefine(volume([32, 20, 32]), { max_dim: 64 })).toBe(false);
    expect(mayRefine(volume([33, 10, 10]), { max_dim: 64 })).toBe(true);
    expect(mayRefine(mesh(4999), { max_triangles: 20000 })).toBe(false);
    expect(mayRefine(mesh(19000), { max_triangles: 20000 })).toBe(true);
  });

  it('draws the coarse view with the note, then the full one, then hides the note', async () => {
    const steps: string[] = [];
    await loadCoarseFirst('volume', undefined, {
      first: async (delivery) => (steps.push(`first ${JSON.stringify(delivery)}`), volume([64, 64, 40])),
      full: async (delivery) => (steps.push(`full ${JSON.stringify(delivery)}`), volume([512, 512, 300])),
      show: async (data, refined) => void steps.push(`show ${(data as { shape: number[] }).shape.join('x')} ${refined ? 'keeping the view' : 'framed'}`),
      refining: (on) => void steps.push(`note ${on ? 'on' : 'off'}`),
      isCurrent: () => true,
    });
    expect(steps).toEqual(['first {"max_dim":64}', 'note on', 'show 64x64x40 framed', 'full undefined', 'show 512x512x300 keeping the view', 'note off']);
  });

  it('stops when a newer request takes over, and fetches once when nothing refines', async () => {
    const steps: string[] = [];
    let current = true;
    const base = {
      full: async () => (steps.push('full'), volume([1, 1, 1])),
      show: async () => void steps.push('show'),
      refining: (on: boolean) => void steps.push(`note ${on}`),
      isCurrent: () => current,
    };
    await loadCoarseFirst('volume', undefined, { ...base, first: async () => ((current = false), volume([64, 64, 64])) });
    expect(steps).toEqual([]);
    current = true;
    await loadCoarseFirst('mesh', undefined, { ...base, first: async () => mesh(12) });
    expect(steps).toEqual(['note false', 'show']);
  });
});
