/**
 * A labels layer edited on a Redis service of two host processes: four clients, two on each
 * host, paint a ball and split it again, over and over, each in its own part of the volume. A
 * split's new id is one past the largest id the layer has ever held, so the ids depend on the
 * order the two hosts' edits are kept in; each host applies its edits ahead of their records and
 * takes them back when the other host came first. Every edit is answered, the versions are
 * 1..N once each, every split's new id is the next one in version order, both hosts list the
 * same edits and answer the same bytes, and so does a host started afterwards.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { room, startService, type Service } from './service.ts';

const CLIENTS = 4;
const ROUNDS = 12;
/** The largest id of the base: 6 blobs, 100 apart. */
const BASE_MAX = 600;
const BLOBS = { function: 'label_blobs', params: { size: 32, count: 6, dtype: 'uint16', stride: 100 } };

let service: Service;
let hosts: RunningHost[];
beforeAll(async () => {
  service = await startService();
  hosts = await Promise.all([service.host({ compute: 1 }), service.host({ compute: 1 })]);
}, 180_000);

const post = (host: RunningHost, path: string, body: unknown) =>
  fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

interface Answer {
  seq: number;
  version: number;
  segments: { changed: number[]; new: number[] };
}

/** The layer's labels as a host answers them now: its version and the bytes' hash. */
async function labelsOf(host: RunningHost, r: string): Promise<{ version: number; hash: string }> {
  const response = await fetch(`${host.url}/api/rooms/${r}/layers/seg/labels`);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { version: Number(response.headers.get('x-labels-version')), hash: createHash('sha256').update(bytes).digest('hex') };
}

describe('a labels layer edited on two hosts of a Redis service', () => {
  it('keeps every edit once, in one order, with split ids in that order, and the same bytes on every host', async () => {
    const r = room('edits');
    expect((await post(hosts[0]!, `/api/rooms/${r}/layers`, { id: 'seg', source: BLOBS, kind: 'labels' })).status).toBe(201);
    await waitFor(async () => ((await fetch(`${hosts[1]!.url}/api/rooms/${r}/layers/seg/labels`)).status === 200 ? true : undefined), 'the layer');

    const answers: Answer[] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const host = hosts[c % 2]!;
        // Below the base's largest id: the splits' new ids are 601, 602, ... in version order.
        const label = 50 + c;
        const x = 8 * c + 4;
        for (let k = 0; k < ROUNDS; k++) {
          for (const edit of [
            { op: 'paint', label, center: [16, 16, x], radius: 3 },
            { op: 'split', segment: label, seeds: [[[16, 16, x - 3]], [[16, 16, x + 3]]] },
          ]) {
            const answer = await post(host, `/api/rooms/${r}/layers/seg/edits`, edit);
            const body = (await answer.json()) as Answer;
            expect(answer.status, JSON.stringify(body)).toBe(201);
            answers.push(body);
          }
        }
      }),
    );
    const n = CLIENTS * ROUNDS * 2;
    expect(answers.map((a) => a.version).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, k) => k + 1));

    // In version order, each split made the next id past the largest ever held.
    const inOrder = [...answers].sort((a, b) => a.version - b.version);
    const made = inOrder.flatMap((a) => a.segments.new.filter((id) => id > BASE_MAX));
    expect(made).toEqual(Array.from({ length: CLIENTS * ROUNDS }, (_, k) => BASE_MAX + 1 + k));

    // Both hosts list the same edits, at the same versions, with what each answered.
    const lists = await Promise.all(
      hosts.map(async (host) => ((await (await fetch(`${host.url}/api/rooms/${r}/layers/seg/edits?limit=1000`)).json()) as { edits: Answer[] }).edits),
    );
    expect(lists[1]).toEqual(lists[0]);
    expect(lists[0]!.map((e) => [e.seq, e.version, e.segments])).toEqual(inOrder.map((a) => [a.seq, a.version, a.segments]));

    // The same bytes on both hosts, and on a host started now (it applies the records from the base).
    const third = await service.host({ compute: 1 });
    const labels = await Promise.all([...hosts, third].map((host) => waitFor(async () => {
      const now = await labelsOf(host, r);
      return now.version === n ? now : undefined;
    }, `version ${n} on ${host.url}`)));
    expect(new Set(labels.map((l) => l.hash)).size).toBe(1);
  });
});
