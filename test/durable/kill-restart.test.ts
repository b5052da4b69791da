/**
 * @module kill-restart.test
 * Acknowledged means on disk, on real processes: a host on a data folder is killed with
 * SIGKILL while ten clients write as fast as they can (annotations, layers, views, publishes) and
 * a follower reads the rooms' events; started again on the same folder it has every write that
 * was answered 2xx, none half applied, and each room's versions past every one the follower
 * saw. The kill comes after a random number of acknowledged writes; VITRINE_DURABLE_ROUNDS sets
 * how many times (the suite kills once; `npm run bench kill-restart` runs 20).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Annotation, AnnotationList, RoomScene } from '../../core/wire/scene-types.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { openStream, type StreamReader } from '../helpers/sse-reader.ts';
import { asciiPlyCloud } from '../helpers/upload-files.ts';
import { waitFor } from '../helpers/wait-for.ts';

const ROUNDS = Number(process.env.VITRINE_DURABLE_ROUNDS ?? 1);
const ROOM = 'kept';

/** What the clients were told was stored. */
interface Acknowledged {
  annotations: Map<string, Annotation>;
  annotationVersion: number;
  layers: Set<string>;
  /** Views in the order they were answered; the last sent may be stored without its answer. */
  views: number[];
  viewSent: number;
  published: Set<string>;
  count: number;
}

const sceneRoom = (round: number) => `${ROOM}-scene-${round}`;
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Runs `write` until it fails (the host is gone); each answered write counted. */
async function writer(acked: Acknowledged, write: (i: number) => Promise<boolean>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      if (await write(i)) acked.count++;
    } catch {
      return;
    }
  }
}

function startWriters(url: string, round: number, acked: Acknowledged): Promise<void>[] {
  const annotate = (client: number) => async (i: number) => {
    const batch = [0, 1].map((k) => ({ kind: 'point', points: [[client, i, k]], label: `r${round}c${client}i${i}` }));
    const response = await fetch(`${url}/api/rooms/${ROOM}/annotations`, json({ annotations: batch }));
    if (response.status !== 201) return false;
    const list = (await response.json()) as AnnotationList;
    for (const a of list.annotations) acked.annotations.set(a.id, a);
    acked.annotationVersion = Math.max(acked.annotationVersion, list.version);
    return true;
  };
  const layer = async (i: number) => {
    const id = `l${i % 30}`;
    // Thirty layers are added, then changed: a scene holds at most 32.
    const response =
      i < 30
        ? await fetch(`${url}/api/rooms/${sceneRoom(round)}/layers`, json({ id, source: { function: 'ramp', params: { n: 2 + (i % 3) } } }))
        : await fetch(`${url}/api/rooms/${sceneRoom(round)}/layers/${id}`, { ...json({ opacity: (i % 10) / 10 }), method: 'PATCH' });
    if (response.status !== 201 && response.status !== 200) return false;
    acked.layers.add(`${round}/${id}`);
    return true;
  };
  const view = async (i: number) => {
    const opacity = ((round * 1000 + i) % 997) / 1000;
    acked.viewSent = opacity;
    const response = await fetch(`${url}/api/rooms/${ROOM}/view`, { ...json({ opacity }), method: 'PUT' });
    if (response.status !== 200) return false;
    acked.views.push(opacity);
    return true;
  };
  const publish = async (i: number) => {
    const id = `kept-r${round}-p${i}`;
    const body = new Uint8Array(asciiPlyCloud(5 + i));
    const headers = { 'content-type': 'application/octet-stream' };
    const response = await fetch(`${url}/api/specimens/${id}?filename=cloud.ply`, { method: 'PUT', headers, body });
    if (response.status !== 201 && response.status !== 200) return false;
    acked.published.add(id);
    return true;
  };
  // Ten clients: seven annotating, one changing layers, one the view, one publishing.
  const annotators = [1, 2, 3, 4, 5, 6, 7].map(annotate);
  return [...annotators, layer, view, publish].map((write) => writer(acked, write));
}

async function start(dir: string): Promise<RunningHost> {
  return spawnFixtureHost(['--data-dir', dir, '--pool-size', '1', '--no-viewer', '--log-level', 'warn']);
}

/** The highest version of `event` the follower saw. */
function seen(stream: StreamReader, event: string): number {
  const versions = stream.events.filter((e) => e.event === event).map((e) => Number((e.data as { version?: number }).version ?? 0));
  return Math.max(0, ...versions);
}

async function checkKept(url: string, round: number, acked: Acknowledged, followed: { annotation: number; scene: number }): Promise<void> {
  const list = (await (await fetch(`${url}/api/rooms/${ROOM}/annotations`)).json()) as AnnotationList;
  const byId = new Map(list.annotations.map((a) => [a.id, a]));
  for (const [id, a] of acked.annotations) expect(byId.get(id), `annotation ${id}`).toEqual(a);
  // A batch is all or none: each label (one request) holds both of its points or neither.
  const perLabel = new Map<string, number>();
  for (const a of list.annotations) perLabel.set(a.label!, (perLabel.get(a.label!) ?? 0) + 1);
  for (const [label, n] of perLabel) expect(n, `batch ${label}`).toBe(2);
  expect(list.version).toBeGreaterThanOrEqual(Math.max(acked.annotationVersion, followed.annotation));
  const scene = (await (await fetch(`${url}/api/rooms/${sceneRoom(round)}/scene`)).json()) as RoomScene;
  expect(scene.version).toBeGreaterThanOrEqual(followed.scene);
  const ids = new Set(scene.layers.map((l) => `${round}/${l.id}`));
  for (const id of acked.layers) if (id.startsWith(`${round}/`)) expect(ids.has(id), `layer ${id}`).toBe(true);
  const view = (await (await fetch(`${url}/api/rooms/${ROOM}/view`)).json()) as { opacity?: number };
  if (acked.views.length > 0) expect([acked.views.at(-1), acked.viewSent]).toContain(view.opacity);
  for (const id of acked.published) expect((await fetch(`${url}/api/specimens/${id}`)).status, `published ${id}`).toBe(200);
}

describe('a host killed while clients write', () => {
  it(`has every acknowledged write after a restart, ${ROUNDS} times`, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-kill-'));
    const acked: Acknowledged = { annotations: new Map(), annotationVersion: 0, layers: new Set(), views: [], viewSent: -1, published: new Set(), count: 0 };
    const everyKind = () => [acked.annotations.size, acked.layers.size, acked.views.length, acked.published.size].every((n) => n > 0);
    let host = await start(dir);
    for (let round = 0; round < ROUNDS; round++) {
      const follower = await openStream(`${host.url}/api/rooms/${ROOM}/events`);
      const sceneFollower = await openStream(`${host.url}/api/rooms/${sceneRoom(round)}/events`);
      const from = acked.count;
      const killAt = from + 20 + Math.floor(Math.random() * 60);
      const writers = startWriters(host.url, round, acked);
      // The kill waits for every kind of write to have been acknowledged at least once (on a
      // loaded machine a publish can take longer than the first writes of the others).
      await waitFor(() => (acked.count >= killAt && everyKind() ? true : undefined), `${killAt - from} acknowledged writes, of every kind`);
      await host.stop('SIGKILL');
      await Promise.all(writers);
      const followed = { annotation: seen(follower, 'annotation'), scene: seen(sceneFollower, 'scene') };
      host = await start(dir);
      await checkKept(host.url, round, acked, followed);
    }
    // Every kind of write was acknowledged at least once, so each was checked.
    expect(everyKind()).toBe(true);
    await host.stop();
    console.log(`kill -9 under writers, ${ROUNDS} rounds: ${acked.count} writes acknowledged; 0 missing after restart`);
    rmSync(dir, { recursive: true, force: true });
    // A minute a round, as the other kill tests allow: the bench's 20 rounds do not fit the suite's five minutes.
  }, Math.max(300_000, ROUNDS * 60_000));
});
