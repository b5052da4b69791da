/** Points carried into a bound layer's frame: the affine inverse and the way up and down. */
import { describe, expect, it } from 'vitest';
import { boundFrame, intoLayerFrame, invertAffine } from '../../core/annotations/layer-frame.ts';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

describe('layer frames', () => {
  it('inverts an affine (a rotation, a scale and a move) and refuses a singular one', () => {
    // A quarter turn about z, anisotropic scale, then a move.
    const m = [0, -0.65, 0, 3, 0.65, 0, 0, -2, 0, 0, 2, 5, 0, 0, 0, 1];
    const inverse = invertAffine(m)!;
    const product = [0, 1, 2, 3].flatMap((r) => [0, 1, 2, 3].map((c) => [0, 1, 2, 3].reduce((sum, k) => sum + m[r * 4 + k]! * inverse[k * 4 + c]!, 0)));
    product.forEach((value, i) => expect(value).toBeCloseTo(IDENTITY[i]!, 12));
    expect(invertAffine([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toBeNull();
  });

  it("takes a room point down into the layer, a layer's own point as it is, another layer's up then down", () => {
    const frame = boundFrame(
      [
        { id: 'scan', affine: [2, 0, 0, 10, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1] },
        { id: 'mesh', affine: [1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] },
        { id: 'plain' },
      ],
      'scan',
    );
    const into = intoLayerFrame(frame);
    expect(into([12, 4, 6], undefined)).toEqual([1, 2, 3]);
    expect(into([5, 5, 5], 'scan')).toEqual([5, 5, 5]);
    expect(into([0, 0, 0], 'mesh')).toEqual([-4.5, 0, 0]);
    expect(into([10, 0, 0], 'plain')).toEqual([0, 0, 0]);
    // A layer with no affine (or one that cannot be inverted) takes room coordinates.
    expect(intoLayerFrame(boundFrame([{ id: 'scan' }], 'scan'))([1, 2, 3], 'gone')).toEqual([1, 2, 3]);
    const flat = boundFrame([{ id: 'scan', affine: [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }], 'scan');
    expect(intoLayerFrame(flat)([1, 2, 3], undefined)).toEqual([1, 2, 3]);
    // A layer being added with an affine of its own, or none, whatever the scene held.
    const doubled = [{ id: 'scan', affine: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1] }];
    expect(intoLayerFrame(boundFrame(doubled, 'scan', null))([2, 2, 2], undefined)).toEqual([2, 2, 2]);
    expect(intoLayerFrame(boundFrame(doubled, 'scan'))([2, 2, 2], undefined)).toEqual([1, 1, 1]);
  });
});
