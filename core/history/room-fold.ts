/**
 * @module room-fold
 * A room as its log makes it: each entry folded into the state it leaves (the view, the
 * scene, the marks, the static entry shown, the conversation with its agent), so a replay can set a room to the state another
 * room had at any moment by folding that room's log up to it.
 */
import { Transcript } from './conversation-record.ts';
import type { LogEntry } from './room-log-store.ts';

/** What of a room a replay sets: each part as the log last left it (absent: never changed in the log). */
export interface FoldedRoom {
  view?: Record<string, unknown>;
  scene?: { layers: Record<string, unknown>[]; active: string | null };
  /** Marks by id, in the order they were made. */
  annotations?: Map<string, Record<string, unknown>>;
  entry?: Record<string, unknown>;
  /** The conversation with the room's agent, since its last end. */
  conversation?: Transcript;
}

type Mark = Record<string, unknown> & { id: string };

function marksOf(value: unknown): Mark[] {
  return Array.isArray(value) ? (value.filter((a) => typeof (a as Mark)?.id === 'string') as Mark[]) : [];
}

function foldMarks(state: FoldedRoom, entry: LogEntry): void {
  const marks = (state.annotations ??= new Map());
  if (entry.op === 'replace' || entry.op === 'add') {
    if (entry.op === 'replace') marks.clear();
    for (const mark of marksOf(entry.annotations)) marks.set(mark.id, mark);
  } else {
    const [mark] = marksOf([entry.annotation]);
    if (!mark) return;
    if (entry.op === 'remove') marks.delete(mark.id);
    else marks.set(mark.id, mark);
  }
}

/** Folds one entry into `state` (in place); answers whether it changed what a replay sets. */
export function foldEntry(state: FoldedRoom, entry: LogEntry): boolean {
  switch (entry.type) {
    case 'view':
      state.view = (entry.view as Record<string, unknown>) ?? {};
      return true;
    case 'scene':
    case 'layer': {
      const scene = entry.scene as { layers?: Record<string, unknown>[]; active?: string | null } | undefined;
      state.scene = { layers: scene?.layers ?? [], active: scene?.active ?? null };
      return true;
    }
    case 'annotation':
      foldMarks(state, entry);
      return true;
    case 'entry':
      state.entry = entry.entry as Record<string, unknown>;
      return true;
    case 'conversation':
      (state.conversation ??= new Transcript()).fold(entry);
      return true;
    default:
      return false;
  }
}

/** The state `entries` (oldest first) leave. */
export function foldAll(entries: readonly LogEntry[]): FoldedRoom {
  const state: FoldedRoom = {};
  for (const entry of entries) foldEntry(state, entry);
  return state;
}
