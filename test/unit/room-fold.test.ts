/**
 * @module room-fold.test
 * A room as its log leaves it: the last view and scene, the marks after every add, change,
 * remove and replace, a static entry; entries that set nothing (a snapshot taken) change
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import { foldAll, foldEntry } from '../../core/history/room-fold.ts';
import type { LogEntry, LogType } from '../../core/history/room-log-store.ts';

let seq = 0;
const entry = (type: LogType, fields: Record<string, unknown>): LogEntry => ({ seq: ++seq, ts: seq * 10, by: 'ada', type, ...fields });
const mark = (id: string, label: string) => ({ id, kind: 'point', points: [[0, 0, 0]], label });

describe('folding a room log', () => {
  it('keeps the last view, scene and entry, and the marks after each op', () => {
    const state = foldAll([
      entry('view', { view: { opacity: 0.2 } }),
      entry('annotation', { op: 'add', annotations: [mark('1', 'a'), mark('2', 'b')], version: 2 }),
      entry('scene', { scene: { version: 1, layers: [{ id: 'scan' }], active: 'scan' } }),
      entry('annotation', { op: 'change', annotation: mark('1', 'A'), version: 3 }),
      entry('annotation', { op: 'remove', annotation: mark('2', 'b'), version: 4 }),
      entry('view', { view: { opacity: 0.7 } }),
      entry('entry', { entry: { function_name: null, specimen_id: 'ct', params: {}, type: 'volume' } }),
    ]);
    expect(state.view).toEqual({ opacity: 0.7 });
    expect(state.scene).toEqual({ layers: [{ id: 'scan' }], active: 'scan' });
    expect([...state.annotations!.values()]).toEqual([mark('1', 'A')]);
    expect(state.entry).toMatchObject({ specimen_id: 'ct' });
    foldEntry(state, entry('annotation', { op: 'replace', annotations: [mark('9', 'z')], version: 5 }));
    expect([...state.annotations!.keys()]).toEqual(['9']);
  });

  it('changes nothing for a snapshot or a replay entry', () => {
    const state = foldAll([entry('view', { view: { opacity: 0.1 } })]);
    expect(foldEntry(state, entry('snapshot', { snapshot_id: 'x' }))).toBe(false);
    expect(foldEntry(state, entry('replay', { from: 'r' }))).toBe(false);
    expect(state).toEqual({ view: { opacity: 0.1 } });
  });
});
