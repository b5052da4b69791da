/**
 * @module notifying-store
 * An annotation store that says which room changed after each write it made (for the point
 * binder, which recomputes the layers bound to a room's points on the host that made the change).
 */
import type { AnnotationStore } from './annotation-store.ts';

export function notifyingStore(store: AnnotationStore, changed: (roomId: string) => void): AnnotationStore {
  const after = async <T>(roomId: string, write: Promise<T>): Promise<T> => {
    const done = await write;
    changed(roomId);
    return done;
  };
  return {
    list: (roomId) => store.list(roomId),
    version: (roomId) => store.version(roomId),
    get: (roomId, id) => store.get(roomId, id),
    add: (roomId, drafts) => after(roomId, store.add(roomId, drafts)),
    change: (roomId, id, patch, expected) => after(roomId, store.change(roomId, id, patch, expected)),
    remove: (roomId, id, expected) => after(roomId, store.remove(roomId, id, expected)),
    replace: (roomId, annotations) => after(roomId, store.replace(roomId, annotations)),
    ...(store.stableMarks ? { stableMarks: true } : {}),
    ...(store.changesSince ? { changesSince: (roomId: string, since: number) => store.changesSince!(roomId, since) } : {}),
    close: () => store.close(),
  };
}
