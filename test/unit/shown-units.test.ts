/**
 * The units the scale bar and the pointer's coordinates read in: asked of the marks' lookup once
 * per frame while the stage shows the same things, even when the answer is none, and asked
 * again when what it shows changes or a unit became known.
 */
import { describe, expect, it } from 'vitest';
import { ShownUnits } from '../../viewer/layers/marks/shown-units.ts';

describe('shown units', () => {
  it('asks once per frame and showing, none included, and again after a change', () => {
    const asked: (string | undefined)[] = [];
    const answers = new Map<string | undefined, string | null>([[undefined, null], ['scan', 'um']]);
    let showing = 'lab entry:a';
    const units = new ShownUnits((layer) => (asked.push(layer), answers.get(layer) ?? null), () => showing);
    for (let i = 0; i < 5; i++) {
      expect(units.unitOf(undefined)).toBeNull();
      expect(units.unitOf('scan')).toBe('um');
    }
    expect(asked).toEqual([undefined, 'scan']);

    // New content on the stage: asked again, and the room's frame now has a unit.
    answers.set(undefined, 'mm');
    showing = 'lab entry:b';
    expect(units.unitOf(undefined)).toBe('mm');
    expect(units.unitOf('scan')).toBe('um');
    expect(asked).toEqual([undefined, 'scan', undefined, 'scan']);

    // A unit became known while the showing stayed: asked again.
    answers.set('scan', 'nm');
    expect(units.unitOf('scan')).toBe('um');
    units.forget();
    expect(units.unitOf('scan')).toBe('nm');
    expect(asked).toEqual([undefined, 'scan', undefined, 'scan', 'scan']);
  });
});
