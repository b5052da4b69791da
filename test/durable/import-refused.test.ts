/**
 * @module import-refused.test
 * A large import into a lone host's data folder is written in several transactions; a disk
 * that refuses one of them (and the clean-up after it, being still full) leaves nothing of the
 * import behind: not in the room, not in its log, not hidden to show up later. Once there is
 * room again the next import is all there, in the room and in its log alike, and so after a
 * restart. The disk here refuses every write while it is full, with the same catalogued 507 a
 * commit past a full disk gives; kill-log.test.ts shows the same over a real file-size limit.
 */
import { describe, expect, it } from 'vitest';
import { DiskAnnotationStore } from '../../core/annotations/disk-annotation-store.ts';
import type { DataStore } from '../../core/durable/data-store.ts';
import { DISK } from '../../core/durable/disk-keys.ts';
import { orStorageFull } from '../../core/durable/storage-full.ts';
import { EventHub } from '../../core/events/event-hub.ts';
import { DiskRoomLog } from '../../core/history/disk-room-log.ts';
import { foldAll } from '../../core/history/room-fold.ts';
import type { Annotation, AnnotationInput } from '../../core/wire/scene-types.ts';
import { entriesOf } from '../helpers/home-logs.ts';
import { room } from '../helpers/room.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';

/** `store`, its writes refused as a full disk refuses them while `full()` says so. */
function fillingUp(store: DataStore, full: () => boolean): DataStore {
  const noRoom = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  const write = <T>(work: () => T) => (full() ? orStorageFull<T>(Promise.reject(noRoom())) : store.write(work));
  return new Proxy(store, { get: (target, key) => (key === 'write' ? write : Reflect.get(target, key)) });
}

const marks = (n: number, label: string): AnnotationInput[] => Array.from({ length: n }, (_, i) => ({ kind: 'point', points: [[i, 0, 0]], label }));

/** The room's marks as `marks` reads them, what its log folds into, and every mark key the store holds for it (hidden ones too). */
async function roomAndLog(marks: DiskAnnotationStore, store: DataStore, roomId: string) {
  const list = await marks.list(roomId);
  const entries = await entriesOf(new DiskRoomLog(store, 3600), roomId);
  const folded = [...(foldAll(entries).annotations?.values() ?? [])] as unknown as Annotation[];
  const keys = [...store.db(DISK.annotations.name).getKeys(DISK.annotations.marks(roomId))];
  return { list, folded: folded.sort((a, b) => Number(a.id) - Number(b.id)), keys, pending: [...store.db(DISK.annotationImports.name).getKeys({})] };
}

// An import of 10 marks, 2 per transaction: the disk fills after its second chunk, or before the transaction that shows it.
describe.each([
  ['between two of its chunks', 4],
  ['at the transaction that shows it', 10],
])('a large import the disk refuses %s', (_, fullAfter) => {
  it('leaves nothing of itself; the next, once there is room, is all in the room and its log', async () => {
    const real = await openTempDataStore();
    const r = room('full');
    let full = false;
    let refuse = true;
    const afterChunk = async (written: number) => void (refuse && written >= fullAfter && (full = true));
    const store = new DiskAnnotationStore(fillingUp(real, () => full), new EventHub(), 1000, new DiskRoomLog(real, 3600), Date.now, {
      from: 5,
      chunk: 2,
      afterChunk,
    });
    await store.add(r, marks(2, 'before'));
    await expect(store.add(r, marks(10, 'refused'))).rejects.toMatchObject({ code: 'SPC_ERR_STORAGE_FULL', statusCode: 507 });
    const refused = await roomAndLog(store, real, r);
    expect(refused.list.annotations.map((a) => a.label)).toEqual(['before', 'before']);
    expect(refused.folded).toEqual(refused.list.annotations);

    [full, refuse] = [false, false];
    const added = await store.add(r, marks(10, 'kept'));
    expect(added.annotations).toHaveLength(10);
    // As this host reads it, then as a host started again on the folder does.
    const reopened = async () => {
      const held = await reopenDataStore(real);
      return [new DiskAnnotationStore(held, new EventHub(), 1000, new DiskRoomLog(held, 3600)), held] as const;
    };
    for (const read of [async () => [store, real] as const, reopened]) {
      const { list, folded, keys, pending } = await roomAndLog(...(await read()), r);
      expect(list.version).toBe(12);
      expect(list.annotations.map((a) => a.label)).toEqual([...Array(2).fill('before'), ...Array(10).fill('kept')]);
      expect(folded, 'the log folds into the marks').toEqual(list.annotations);
      expect(keys, 'no mark of the refused import kept, hidden or not').toHaveLength(12);
      expect(pending).toEqual([]);
    }
  });
});
