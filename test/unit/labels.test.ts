/**
 * Labels as results: what marks a volume as labels (and what is refused, naming the field),
 * the pyramid's pick that never invents an id, the label index, the headset renumbering, and
 * the geometry of a segment's surface (closed, outward, enclosing its voxels in physical units).
 */
import { describe, expect, it } from 'vitest';
import { buildLabelIndex } from '../../core/labels/label-index.ts';
import { renumber, renumberedFields, renumberingOf } from '../../core/labels/label-remap.ts';
import { segmentMesh } from '../../core/labels/segment-mesh.ts';
import { buildPyramid } from '../../core/pyramid/volume-pyramid.ts';
import { normalizeResult } from '../../core/results/normalize-result.ts';
import { decodeResultFrame, encodeResultFrame } from '../../core/results/result-frame.ts';
import { toJsonResult } from '../../core/results/to-json-result.ts';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { encodeVolumeEnvelope } from '../../core/envelope/encode-envelope.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { openOrInconsistentEdges, signedVolume } from '../plugins/mesh-measures.ts';

type Volume = Extract<StoredResult, { type: 'volume' }>;

function labelsVolume(shape: number[], fill: (z: number, y: number, x: number) => number, extra: object = {}): Volume {
  const [nz, ny, nx] = shape as [number, number, number];
  const data = new Uint16Array(nz * ny * nx);
  for (let z = 0; z < nz; z++) for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) data[(z * ny + y) * nx + x] = fill(z, y, x);
  return normalizeResult({ shape, dtype: 'uint16', data, labels: true, ...extra }, 'volume') as Volume;
}

describe('labels results', () => {
  it('keep their names and colours, and refuse what is not labels, naming the field', () => {
    const ok = labelsVolume([2, 2, 2], () => 3, { label_names: { 3: 'nucleus' }, label_colors: { 3: '#FF8800' } });
    const fields = { labels: true, label_names: { '3': 'nucleus' }, label_colors: { '3': '#ff8800' } };
    expect(ok).toMatchObject(fields);
    // They travel with the result: its frame (blob stores, relays), its envelope and its JSON.
    const { header, blocks } = encodeResultFrame(ok);
    const payload = new Uint8Array(header.byteLength);
    let at = 0;
    for (const block of blocks) payload.set(block, (at += block.byteLength) - block.byteLength);
    expect(decodeResultFrame(JSON.parse(JSON.stringify(header)), payload.buffer)).toMatchObject(fields);
    expect(decodeEnvelope(Buffer.concat(encodeVolumeEnvelope(ok).parts))).toMatchObject(fields);
    expect(JSON.parse(toJsonResult(ok))).toMatchObject(fields);
    const base = { shape: [2], data: new Uint8Array(2) };
    const refused: [object, RegExp][] = [
      [{ ...base, data: new Float32Array(2), labels: true }, /labels needs a volume of dtype uint8, uint16 or uint32, not float32/],
      [{ ...base, labels: 'yes' }, /labels must be true or false/],
      [{ ...base, label_names: { 1: 'a' } }, /label_names is given but labels is not true/],
      [{ ...base, labels: true, label_names: { 256: 'a' } }, /label_names key '256' is not a label id \(a whole number from 0 to 255\)/],
      [{ ...base, labels: true, label_names: { '01': 'a' } }, /label_names key '01'/],
      [{ ...base, labels: true, label_names: { 1: 'x'.repeat(257) } }, /label_names value of '1' is not a string of at most 256/],
      [{ ...base, labels: true, label_colors: { 1: 'red' } }, /label_colors value of '1' is not a colour #rrggbb/],
    ];
    for (const [value, message] of refused) expect(() => normalizeResult(value, 'volume')).toThrow(message);
    const many = {
      ...base,
      shape: [2],
      dtype: 'uint32',
      data: new Uint32Array(2),
      labels: true,
      label_names: Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [i, 'n'])),
    };
    expect(() => normalizeResult(many, 'volume')).toThrow(/label_names has 10001 entries, more than 10000/);
  });

  it('make pyramid levels of ids present in level 0 only, each the most frequent non-zero id of its block', () => {
    // Stripes of ids 2 and 6 (whose mean, 4, is no label) in a 130-long volume, and one lone voxel of 9.
    const volume = labelsVolume([3, 4, 130], (z, y, x) => (z === 0 && y === 0 && x === 7 ? 9 : x % 4 < 1 ? 2 : x % 4 < 3 ? 6 : 0));
    const levels = buildPyramid(volume);
    expect(levels.map((l) => l.shape)).toEqual([[2, 2, 65], [1, 1, 33]]);
    const present = new Set(volume.data);
    for (const level of levels) {
      expect(level.labels).toBe(true);
      for (const v of level.data) expect(present.has(v)).toBe(true);
    }
    // Block x 6..7 of row 0 holds 6, 0 (z 0, 1; y 0, 1) and the lone 9: 6 is the most frequent non-zero.
    expect(levels[0]!.data[3]).toBe(6);
    // A block of 2, 2, 6, 6 ... picks by count, ties to the smaller id; all-background stays 0.
    const tie = buildPyramid(labelsVolume([2, 2, 66], (_z, _y, x) => (x < 2 ? (x === 0 ? 6 : 2) : 0)))[0]!;
    expect(Array.from(tie.data.slice(0, 2))).toEqual([2, 0]);
  });

  it('are indexed in one pass, and renumbered in id order to fit a narrower type', () => {
    const volume = labelsVolume([4, 4, 4], (z, y, x) => (z < 2 ? 300 : x === 3 ? 7 : y === 0 ? 1000 : 0), {
      label_names: { 7: 'seven', 300: 'three hundred' },
    });
    const index = buildLabelIndex(volume.data, volume.shape);
    expect(Array.from(index.ids)).toEqual([7, 300, 1000]);
    expect(Array.from(index.counts)).toEqual([8, 32, 6]);
    expect(Array.from(index.boxes.subarray(0, 6))).toEqual([2, 0, 3, 3, 3, 3]);
    const renumbering = renumberingOf(volume.data, 255)!;
    expect([7, 300, 1000].map((id) => renumbering.of(id))).toEqual([1, 2, 3]);
    const out = new Uint8Array(volume.data.length);
    renumber(volume.data, renumbering, out);
    expect(new Set(out)).toEqual(new Set([0, 1, 2, 3]));
    expect(renumberedFields({ labels: true, label_names: volume.label_names! }, renumbering).label_names).toEqual({ '1': 'seven', '2': 'three hundred' });
    expect(renumberingOf(new Uint16Array([0, 5, 255]), 255)).toBeNull();
  });

  it('have closed, outward surfaces enclosing their voxels; anisotropic spacing scales them', () => {
    const cube = (z: number, y: number, x: number) => (z >= 2 && z < 18 && y >= 2 && y < 18 && x >= 2 && x < 18 ? 3 : z === 0 ? 5 : 0);
    for (const spacing of [[1, 1, 1], [2, 0.5, 3]]) {
      const volume = labelsVolume([20, 20, 20], cube, { spacing, origin: [100, -50, 7] });
      const mesh = segmentMesh(volume, buildLabelIndex(volume.data, volume.shape), [3], false);
      expect(openOrInconsistentEdges(mesh)).toEqual([]);
      const voxelVolume = 16 ** 3 * spacing[0]! * spacing[1]! * spacing[2]!;
      // Faces lie half a voxel past the last centre inside; only edges and corners are bevelled.
      expect(signedVolume(mesh) / voxelVolume).toBeGreaterThan(0.97);
      expect(signedVolume(mesh) / voxelVolume).toBeLessThanOrEqual(1);
      const xs = Array.from(mesh.vertices.filter((_, i) => i % 3 === 0));
      expect([Math.min(...xs), Math.max(...xs)]).toEqual([7 + 1.5 * spacing[2]!, 7 + 17.5 * spacing[2]!]);
      // Normals point out: on the face x = max, along +x.
      const at = xs.indexOf(Math.max(...xs));
      expect(mesh.normals![at * 3]!).toBeGreaterThan(0.5);
    }
  });
});
