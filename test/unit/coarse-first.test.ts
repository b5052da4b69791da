/**
 * The viewer's coarse-first rules: what the coarse request asks for (within the VR budget when
 * in a session), and when a coarse answer is provably the whole result; and the order of the
 * steps (the full view replaces the coarse one, the note comes and goes around it). The full
 * fetch starts with a large coarse answer's headers, not after its body: these steps hold the
 * coarse body back until the full result is asked for, so a loader that waited would never end.
 */
import { describe, expect, it } from 'vitest';
import type { SpecimenData } from '../../core/wire/decoded-types.ts';
import { coarseDelivery, loadCoarseFirst, mayRefine, READ_BEFORE_REFINING_BYTES, type CoarseFirstSteps } from '../../viewer/coarse-first.ts';

const volume = (shape: number[]) =>
  ({ type: 'volume', shape, dtype: 'uint8', data: new Uint8Array(0), spacing: null, origin: null, value_range: null }) as unknown as SpecimenData;
const mesh = (triangles: number) =>
  ({ type: 'mesh', vertices: new Float32Array(0), indices: new Uint32Array(triangles * 3), normals: null }) as unknown as SpecimenData;

describe('coarse first', () => {
  it('asks for 64 samples per axis or 20,000 triangles, or nothing when the page asks for no more', () => {
    expect(coarseDelivery('volume', undefined)).toEqual({ max_dim: 64 });
    expect(coarseDelivery('volume', { max_dim: 32 })).toBeNull();
    expect(coarseDelivery('mesh', { format: 'glb', compress: 'meshopt', max_triangles: 300000 })).toEqual({
      format: 'glb',
      compress: 'meshopt',
      max_triangles: 20000,
    });
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
    expect(steps).toEqual(['first {"max_dim":64}', 'full undefined', 'note on', 'show 64x64x40 framed', 'show 512x512x300 keeping the view', 'note off']);
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

  describe('the full fetch and the coarse answer', () => {
    /** A promise with its resolver. */
    function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
      let resolve!: (value: T) => void;
      const promise = new Promise<T>((r) => (resolve = r));
      return { promise, resolve };
    }

    /** Steps whose coarse answer announces `bytes`, then gives its body only once `release` resolves. */
    function held(log: string[], bytes: number | null, coarse: SpecimenData, release: Promise<void>, full: () => Promise<SpecimenData>): CoarseFirstSteps {
      return {
        first: async (_delivery, answered) => {
          log.push('coarse headers');
          answered?.(bytes);
          await release;
          log.push('coarse body');
          return coarse;
        },
        full: async (_delivery, signal) => {
          log.push('full asked');
          signal?.addEventListener('abort', () => log.push('full cancelled'));
          return full();
        },
        show: async (data, refined) => void log.push(`show ${data.type === 'volume' ? data.shape.join('x') : data.type}${refined ? ' refined' : ''}`),
        refining: (on) => void log.push(`note ${on ? 'on' : 'off'}`),
        isCurrent: () => true,
      };
    }

    it('asks for the full result as soon as a large coarse answer has its headers, before its body', async () => {
      const log: string[] = [];
      const asked = deferred();
      const steps = held(log, READ_BEFORE_REFINING_BYTES + 1, volume([64, 64, 64]), asked.promise, async () => volume([512, 512, 512]));
      const full = steps.full;
      await loadCoarseFirst('volume', undefined, { ...steps, full: (d, s) => (asked.resolve(), full(d, s)) });
      expect(log).toEqual(['coarse headers', 'full asked', 'coarse body', 'note on', 'show 64x64x64', 'show 512x512x512 refined', 'note off']);
    });

    it('also when the answer does not say its length', async () => {
      const log: string[] = [];
      const asked = deferred();
      const steps = held(log, null, mesh(20000), asked.promise, async () => mesh(2_000_000));
      const full = steps.full;
      await loadCoarseFirst('mesh', undefined, { ...steps, full: (d, s) => (asked.resolve(), full(d, s)) });
      expect(log.slice(0, 3)).toEqual(['coarse headers', 'full asked', 'coarse body']);
    });

    it('draws a full result that is in before the coarse body alone, framed, with no note', async () => {
      const log: string[] = [];
      const fullIn = deferred();
      const steps = held(log, READ_BEFORE_REFINING_BYTES * 4, volume([64, 64, 64]), fullIn.promise, async () => volume([512, 512, 512]));
      const full = steps.full;
      await loadCoarseFirst('volume', undefined, {
        ...steps,
        full: (d, s) => {
          const data = full(d, s);
          // The coarse body comes only once the full result has been received.
          void data.then(() => setTimeout(fullIn.resolve, 0));
          return data;
        },
      });
      expect(log).toEqual(['coarse headers', 'full asked', 'coarse body', 'show 512x512x512', 'note off']);
    });

    it('reads a small coarse answer before deciding: a whole result costs one request', async () => {
      const log: string[] = [];
      await loadCoarseFirst(
        'volume',
        undefined,
        held(log, READ_BEFORE_REFINING_BYTES, volume([20, 30, 24]), Promise.resolve(), async () => volume([20, 30, 24])),
      );
      expect(log).toEqual(['coarse headers', 'coarse body', 'note off', 'show 20x30x24']);
    });

    it('cancels a full fetch under way when the coarse answer proves to be the whole result', async () => {
      const log: string[] = [];
      const never = new Promise<SpecimenData>(() => {});
      await loadCoarseFirst('mesh', undefined, held(log, READ_BEFORE_REFINING_BYTES * 2, mesh(4000), Promise.resolve(), () => never));
      expect(log).toEqual(['coarse headers', 'full asked', 'coarse body', 'full cancelled', 'note off', 'show mesh']);
    });

    it('cancels the full fetch when the coarse request fails, and fails with its error', async () => {
      const log: string[] = [];
      const steps = held(log, null, mesh(20000), Promise.resolve(), () => new Promise<SpecimenData>(() => {}));
      const first = steps.first;
      const failing: CoarseFirstSteps = {
        ...steps,
        first: async (d, answered) => {
          await first(d, answered);
          throw new Error('coarse answer cut off');
        },
      };
      await expect(loadCoarseFirst('mesh', undefined, failing)).rejects.toThrow('coarse answer cut off');
      expect(log).toEqual(['coarse headers', 'full asked', 'coarse body', 'full cancelled']);
    });
  });
});
