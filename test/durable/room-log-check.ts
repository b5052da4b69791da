/**
 * @module room-log-check
 * Whether each room the log writers changed (log-writers.ts) agrees with its log, read from a
 * host over HTTP: every acknowledged change is in the room and in its log, and nothing is in one
 * without the other. Each room version of the marks and of the scene is logged exactly once, the
 * log folds into the marks the room holds and names the scene it shows; the view, the specimen
 * shown and the access are what the log last says (a specimen shown is logged again as the scene's
 * active layer shows it, so only its answered writes bound its entries from below); each answered snapshot is logged at the seq
 * its answer named, and each logged one is there. `inFlight` is how many changes of each writer
 * may have been kept without their answer (one per kill).
 */
import { expect } from 'vitest';
import { foldAll } from '../../core/history/room-fold.ts';
import type { LogEntry } from '../../core/history/room-log-store.ts';
import type { Annotation, AnnotationList, RoomScene } from '../../core/wire/scene-types.ts';
import { BULK_MARKS, ROOMS, type Acked } from './log-writers.ts';

type Headers = Record<string, string>;

async function read<T>(url: string, path: string, headers: Headers = {}): Promise<T> {
  const response = await fetch(`${url}${path}`, { headers });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** Every entry of the room's log, oldest first. */
export async function logOf(url: string, roomId: string, headers: Headers = {}): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  for (let since = 0; ; ) {
    const page = await read<{ entries: LogEntry[]; next_since: number; more: boolean }>(url, `/api/rooms/${roomId}/log?since=${since}&limit=10000`, headers);
    entries.push(...page.entries);
    if (!page.more) return entries;
    since = page.next_since;
  }
}

/** The room versions each marks entry made (an add of n marks made the n up to its version). */
function markVersions(entries: LogEntry[]): number[] {
  return entries.flatMap((e) => {
    const n = e.op === 'add' ? (e.annotations as unknown[]).length : 1;
    return Array.from({ length: n }, (_, i) => (e.version as number) - n + 1 + i);
  });
}

const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const byId = (a: Annotation, b: Annotation) => Number(a.id) - Number(b.id);
const last = (entries: LogEntry[], type: string) => entries.filter((e) => e.type === type).at(-1);
const within = (n: number, answered: number, inFlight: number, what: string) => {
  expect(n, `${what}: logged, of ${answered} answered`).toBeGreaterThanOrEqual(answered);
  expect(n, `${what}: logged, of ${answered} answered and ${inFlight} under way`).toBeLessThanOrEqual(answered + inFlight);
};

/** A room of marks and its log: each version logged once, the log folding into the room. */
async function checkMarks(url: string, roomId: string): Promise<LogEntry[]> {
  const list = await read<AnnotationList>(url, `/api/rooms/${roomId}/annotations`);
  const entries = (await logOf(url, roomId)).filter((e) => e.type === 'annotation');
  expect(markVersions(entries), `${roomId}: each version of the marks logged once`).toEqual(upTo(list.version));
  const folded = [...foldAll(entries).annotations!.values()] as unknown as Annotation[];
  expect(folded.sort(byId), `${roomId}: the log folds into the marks`).toEqual(list.annotations);
  return entries;
}

async function checkScene(url: string, acked: Acked, inFlight: number): Promise<void> {
  const scene = await read<RoomScene>(url, `/api/rooms/${ROOMS.scene}/scene`);
  const entries = await logOf(url, ROOMS.scene);
  // A layer's result may arrive after the scene was read: the log then goes on past it, never short of it.
  const scenes = entries.filter((e) => e.scene !== undefined).map((e) => e.scene as RoomScene);
  expect(scenes.map((s) => s.version), 'each version of the scene logged once').toEqual(upTo(scenes.length));
  expect(scenes.find((s) => s.version === scene.version), 'the scene as logged at its version').toEqual(scene);
  const writes = entries.filter((e) => e.type === 'layer' && e.op !== 'result').length;
  within(writes, acked.writes.layers, inFlight, 'layer writes');
  const view = await read<Record<string, unknown>>(url, `/api/rooms/${ROOMS.scene}/view`);
  expect(last(entries, 'view')?.view ?? {}, 'the scene room’s view as last logged').toEqual(view);
  const logged = new Map(entries.filter((e) => e.type === 'snapshot').map((e) => [e.snapshot_id as string, e.seq]));
  for (const [id, seq] of acked.snapshots) expect(entries.find((e) => e.seq === seq)?.snapshot_id, `snapshot ${id} at seq ${seq}`).toBe(id);
  for (const id of logged.keys()) expect((await fetch(`${url}/api/snapshots/${id}`)).status, `snapshot ${id} logged, so kept`).toBe(200);
}

async function checkBoard(url: string, owner: string, acked: Acked, inFlight: number): Promise<void> {
  const entries = await logOf(url, ROOMS.board);
  within(entries.filter((e) => e.type === 'view').length, acked.writes.views, inFlight, 'views');
  // A specimen shown becomes the scene's active layer, which shows it again: at least one entry each.
  const shownEntries = entries.filter((e) => e.type === 'entry').length;
  expect(shownEntries, 'specimens shown: logged, at least as many as answered').toBeGreaterThanOrEqual(acked.writes.entries);
  expect(last(entries, 'view')?.view ?? {}, 'the view as last logged').toEqual(await read(url, `/api/rooms/${ROOMS.board}/view`));
  const shown = await read<{ specimen_id?: string } | null>(url, `/api/rooms/${ROOMS.board}/entry`);
  expect((last(entries, 'entry')?.entry as { specimen_id?: string } | undefined)?.specimen_id, 'the specimen shown as last logged').toBe(shown?.specimen_id);
  const asOwner = { authorization: `Bearer ${owner}` };
  const closed = await logOf(url, ROOMS.closed, asOwner);
  within(closed.filter((e) => e.type === 'access').length, acked.writes.access, inFlight, 'access changes');
  expect(last(closed, 'access')?.access, 'the access as last logged').toEqual(await read(url, `/api/rooms/${ROOMS.closed}/access`, asOwner));
}

/** Checks every room against its log; `inFlight`: changes of each writer that may be kept unanswered. */
export async function checkRooms(url: string, owner: string, acked: Acked, inFlight: number): Promise<void> {
  const marks = await checkMarks(url, ROOMS.marks);
  within(marks.length, acked.writes.marks, 3 * inFlight, 'writes of marks');
  const logged = (op: string) => new Set(marks.filter((e) => e.op === op).flatMap((e) => ((e.annotations ?? [e.annotation]) as Annotation[]).map((a) => a.id)));
  const [added, removed] = [logged('add'), logged('remove')];
  for (const id of acked.added) expect(added.has(id), `mark ${id} added`).toBe(true);
  for (const id of acked.removed) expect(removed.has(id), `mark ${id} removed`).toBe(true);
  for (const [id, label] of acked.changed) {
    const change = marks.some((e) => e.op === 'change' && (e.annotation as Annotation).id === id && (e.annotation as Annotation).label === label);
    expect(change, `mark ${id} changed to ${label}`).toBe(true);
  }
  const bulk = await checkMarks(url, ROOMS.bulk);
  within(markVersions(bulk).length / BULK_MARKS, acked.writes.bulk, inFlight, 'imports');
  await checkScene(url, acked, inFlight);
  await checkBoard(url, owner, acked, inFlight);
}
