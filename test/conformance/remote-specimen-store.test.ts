/**
 * @module remote-specimen-store.test
 * The RemoteSpecimenStore contract, written once and run against every home: memory, a data
 * folder (reopened as a restarted host does) and a real redis-server (two clients, as two
 * hosts of a service). A record comes back as it was put; put again it replaces (and says so);
 * removed it is gone (and a second remove says there was none); every change moves the version
 * and a read does not.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { DataStore } from '../../core/durable/data-store.ts';
import { DiskRemoteSpecimens } from '../../core/remote/disk-remote-specimens.ts';
import { MemoryRemoteSpecimens } from '../../core/remote/memory-remote-specimens.ts';
import { RedisRemoteSpecimens } from '../../core/remote/redis-remote-specimens.ts';
import type { RemoteSpecimenRecord, RemoteSpecimenStore } from '../../core/remote/remote-specimen-store.ts';
import { fileRedis } from '../helpers/file-redis.ts';
import { openTempDataStore, reopenDataStore } from '../helpers/temp-data-store.ts';

interface Homes {
  /** The store a host writes to. */
  store: RemoteSpecimenStore;
  /** The same home as another host (or the same host after a restart) reads it; the memory home has no other. */
  other(): Promise<RemoteSpecimenStore>;
}

let serial = 0;
function record(fields: Partial<RemoteSpecimenRecord['input']> = {}): RemoteSpecimenRecord {
  const input = { remote: 'lab/plate/cells.ome.zarr', level: 0, channel: null, t: null, labels: false, display_name: 'Cells', description: '', tags: ['a'] };
  return { id: `cells-${process.pid}-${serial++}`, input: { ...input, ...fields }, published_at: 1_700_000_000_000 + serial };
}

function remoteSpecimenStoreCases(label: string, make: () => Promise<Homes>): void {
  describe(`${label} remote specimen store`, () => {
    it('keeps a record as put, replaces it, removes it, and moves its version with each change', async () => {
      const homes = await make();
      // Read anew each time: the disk home's store is the reopened folder's after `other`.
      const store = {
        put: (r: RemoteSpecimenRecord) => homes.store.put(r),
        remove: (id: string) => homes.store.remove(id),
        version: () => homes.store.version(),
      };
      const other = () => homes.other();
      const first = record({ channel: 1, t: 2, labels: true });
      const v0 = await store.version();
      expect(await store.put(first)).toBe(false);
      const v1 = await store.version();
      expect(v1).not.toBe(v0);
      expect(await store.version()).toBe(v1);
      expect((await (await other()).list()).find((r) => r.id === first.id)).toEqual(first);

      const again = { ...first, input: { ...first.input, level: 1 }, published_at: first.published_at + 1 };
      expect(await store.put(again)).toBe(true);
      const v2 = await store.version();
      expect(v2).not.toBe(v1);
      const listed = (await (await other()).list()).filter((r) => r.id === first.id);
      expect(listed).toEqual([again]);

      expect(await store.remove(first.id)).toBe(true);
      expect(await store.version()).not.toBe(v2);
      expect(await store.remove(first.id)).toBe(false);
      expect((await (await other()).list()).some((r) => r.id === first.id)).toBe(false);
    });

    it('lists every record kept', async () => {
      const { store, other } = await make();
      const records = [record(), record({ remote: 'bucket/x.ome.zarr' }), record()];
      for (const r of records) await store.put(r);
      const ids = new Set((await (await other()).list()).map((r) => r.id));
      for (const r of records) expect(ids.has(r.id)).toBe(true);
    });
  });
}

remoteSpecimenStoreCases('memory', async () => {
  const store = new MemoryRemoteSpecimens();
  return { store, other: async () => store };
});

remoteSpecimenStoreCases('disk', async () => {
  let data: DataStore = await openTempDataStore();
  const host = { store: new DiskRemoteSpecimens(data) as RemoteSpecimenStore };
  return {
    get store() {
      return host.store;
    },
    // The data folder opened again, as a restarted host opens it; the host writes to the reopened one.
    other: async () => {
      data = await reopenDataStore(data);
      host.store = new DiskRemoteSpecimens(data);
      return host.store;
    },
  };
});

const redis = fileRedis();
const seconds: Redis[] = [];
afterAll(() => seconds.forEach((client) => client.disconnect()));
remoteSpecimenStoreCases('Redis', async () => {
  // A second client is a second host of the service.
  const second = new Redis(redis.server.url);
  seconds.push(second);
  return { store: new RedisRemoteSpecimens(redis.client), other: async () => new RedisRemoteSpecimens(second) };
});
