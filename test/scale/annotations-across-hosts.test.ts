/**
 * A room's annotations on a Redis service of two host processes: ten clients, five on each
 * host, make 1,000 changes at once in one room (adds, changes of each other's marks without
 * `If-Match`, removals). None is lost (every add answered is listed unless removed, every
 * change is in its annotation's version count), no id is made twice, both hosts answer the
 * same list, and four followers (two on each host), each keeping a copy from the room's
 * `annotation` events and reading the list again on a gap, end with exactly the host's list.
 * Then the list outlives a host: a host started afterwards answers it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../core/client/client.ts';
import type { AnnotationMirror } from '../../core/client/annotation-mirror.ts';
import type { Annotation, AnnotationList } from '../../core/wire/scene-types.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { room, startService, type Service } from './service.ts';

const CLIENTS = 10;
const CHANGES_PER_CLIENT = 100;
const IN_FLIGHT = 4;

let service: Service;
let hosts: RunningHost[];
beforeAll(async () => {
  service = await startService();
  hosts = await Promise.all([service.host(), service.host()]);
}, 180_000);

const followers: AbortController[] = [];
afterAll(() => followers.forEach((f) => f.abort()));

/** Runs `work` for each of `count` steps with at most IN_FLIGHT at once. */
async function steps(count: number, work: (step: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < count) await work(next++);
  }));
}

describe('annotations on a Redis service of two hosts', () => {
  it('ten clients make 1,000 changes at once: none lost, no id twice, every follower ends with the host’s list', async () => {
    const r = room('marks');
    const mirrors: AnnotationMirror[] = [];
    for (let f = 0; f < 4; f++) {
      const marks = createClient({ baseUrl: hosts[f % 2]!.url }).annotations(r);
      const mirror = marks.mirror();
      const controller = new AbortController();
      followers.push(controller);
      mirrors.push(mirror);
      void marks.follow(mirror, { signal: controller.signal }).catch(() => {});
    }
    await waitFor(() => (mirrors.every((m) => m.version === 0) ? true : undefined), 'every follower to read the empty list');

    const added: string[] = [];
    const removed = new Set<string>();
    let changes = 0;
    const clients = Array.from({ length: CLIENTS }, (_, c) => createClient({ baseUrl: hosts[c % 2]!.url }).annotations(r));
    await Promise.all(clients.map((marks, c) =>
      steps(CHANGES_PER_CLIENT, async (step) => {
        const own = added.filter((id) => !removed.has(id));
        if (step % 10 === 9 && own.length > 0) {
          const id = own[(c * 31 + step) % own.length]!;
          removed.add(id);
          await marks.remove(id).catch((error: { status?: number }) => {
            // Another client took it first: a 404 is that removal seen twice, nothing lost.
            if (error.status !== 404) throw error;
          });
        } else if (step % 3 === 2 && own.length > 0) {
          const id = own[(c * 17 + step) % own.length]!;
          await marks.change(id, { label: `c${c}-${step}`, properties: { step } }).then(
            () => void changes++,
            (error: { status?: number }) => {
              if (error.status !== 404) throw error;
            },
          );
        } else {
          const mark = (await marks.add({
            kind: step % 2 ? 'point' : 'line',
            points:
              step % 2
                ? [[c, step, 0]]
                : [
                    [c, step, 0],
                    [c, step, 1],
                  ],
            author: `client-${c}`,
          })) as Annotation;
          added.push(mark.id);
        }
      }),
    ));

    const [onA, onB] = (await Promise.all(hosts.map(async (h) => (await fetch(`${h.url}/api/rooms/${r}/annotations`)).json()))) as AnnotationList[];
    expect(onB).toEqual(onA);
    const ids = onA!.annotations.map((a) => a.id);
    expect(new Set(added).size).toBe(added.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(added.filter((id) => !removed.has(id)).sort());
    // Every change moved the room's version by one: adds, changes that found their mark, removals.
    const extraVersions = onA!.annotations.reduce((n, a) => n + a.version - 1, 0);
    expect(extraVersions).toBeGreaterThan(0);
    expect(onA!.version).toBe(added.length + removed.size + changes);

    for (const mirror of mirrors) {
      await waitFor(() => (mirror.version === onA!.version ? true : undefined), `a follower to reach version ${onA!.version} (at ${mirror.version})`, 30_000);
      expect(mirror.annotations()).toEqual(onA!.annotations);
    }

    const late = await service.host();
    expect(await (await fetch(`${late.url}/api/rooms/${r}/annotations`)).json()).toEqual(onA);
  }, 180_000);
});

