/**
 * @module shared-bundles.test
 * The SharedBundles contract, written once and run against every home of shared plugin
 * versions: one process's memory, and Redis (two stores on connections of their own, as two
 * hosts of a service). A bundle comes back whole under its id and under no other; each plugin
 * lists its versions newest first by when they were first offered; only the newest `keep` stay,
 * and a version pushed out takes its bytes with it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySharedBundles } from '../../core/versions/memory-shared-bundles.ts';
import { RedisSharedBundles } from '../../core/versions/redis-shared-bundles.ts';
import { packBundle, unpackBundle, type SharedBundle, type SharedBundles } from '../../core/versions/shared-bundles.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';

/** A bundle of plugin `plugin` at `version`: its manifest, two files and, when asked, a signature. */
function bundleOf(plugin: string, version: string, signed = false): { id: string; bundle: SharedBundle } {
  const code = Buffer.from(`export const version = ${JSON.stringify(version)};\n`);
  const map = Buffer.from('{"version":3}');
  const manifestBytes = Buffer.from(JSON.stringify({ plugin, version, files: { 'index.js': 'x', 'lib/index.js.map': 'y' } }));
  const files = new Map([
    ['index.js', code],
    ['lib/index.js.map', map],
  ]);
  const id = createHash('sha256').update(manifestBytes).digest('hex');
  return { id, bundle: { manifestBytes, files, signature: signed ? Buffer.alloc(64, 7) : null } };
}

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

function sharedBundleCases(label: string, make: () => [SharedBundles, SharedBundles]): void {
  describe(`${label} shared bundles`, () => {
    it('gives a bundle back whole under its id, to any host', async () => {
      const [one, other] = make();
      const plugin = unique('shapes');
      const { id, bundle } = bundleOf(plugin, '1.0.0', true);
      await one.offer(plugin, id, bundle, 3);
      const back = await other.fetch(id);
      expect(back?.manifestBytes.equals(bundle.manifestBytes)).toBe(true);
      expect([...back!.files].map(([name, bytes]) => [name, bytes.toString()])).toEqual([...bundle.files].map(([name, bytes]) => [name, bytes.toString()]));
      expect(back?.signature?.equals(bundle.signature!)).toBe(true);
      expect(await other.fetch('0'.repeat(64))).toBeNull();
    });

    it('lists versions newest first by first offer, keeping the newest `keep`', async () => {
      const [one, other] = make();
      const plugin = unique('rings');
      const versions = ['1.0.0', '1.1.0', '1.2.0', '2.0.0'].map((v) => bundleOf(plugin, v));
      for (const [i, { id, bundle }] of versions.entries()) {
        await (i % 2 ? other : one).offer(plugin, id, bundle, 3);
      }
      // Offered again, a version keeps its first time.
      await one.offer(plugin, versions[1]!.id, versions[1]!.bundle, 3);
      const ids = versions.map((v) => v.id);
      expect((await other.index())[plugin]).toEqual([ids[3], ids[2], ids[1]]);
      // The version pushed out left with its bytes.
      expect(await one.fetch(ids[0]!)).toBeNull();
      expect(await one.fetch(ids[3]!)).not.toBeNull();
    });
  });
}

describe('packed bundles', () => {
  it('unpack only under the id their manifest hashes to, and only whole', () => {
    const { id, bundle } = bundleOf('shapes', '1.0.0');
    const packed = packBundle(bundle);
    expect(unpackBundle(packed, id)?.files.get('index.js')?.toString()).toContain('1.0.0');
    expect(unpackBundle(packed, bundleOf('shapes', '1.1.0').id)).toBeNull();
    expect(unpackBundle(packed.subarray(0, packed.length - 1), id)).toBeNull();
    expect(unpackBundle(Buffer.concat([packed, Buffer.from('x')]), id)).toBeNull();
    expect(unpackBundle(Buffer.from('not a bundle'), id)).toBeNull();
  });
});

sharedBundleCases('memory', () => {
  const store = new MemorySharedBundles();
  return [store, store];
});

let redis: RedisServer;
const connections: Redis[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const connection of connections) connection.disconnect();
  await redis?.stop();
});

function redisStore(): SharedBundles {
  const [command, bytes] = [new Redis(redis.url), new Redis(redis.url)];
  connections.push(command, bytes);
  return new RedisSharedBundles(command, bytes);
}

sharedBundleCases('redis', () => [redisStore(), redisStore()]);
