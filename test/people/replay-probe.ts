/**
 * @module replay-probe
 * A replay reads the room it plays from as whoever asks it: a closed room's log played (or set
 * at a moment) into an open room by someone who may not read it answers 404, as a read of the
 * room does, and copies nothing; its owner copies it. Run on every home by the files that
 * import it.
 */
import { expect } from 'vitest';
import { room } from '../helpers/room.ts';
import { call, closeRoom, type TrustHost, type Who } from './trust-host.ts';

const enc = encodeURIComponent;

/** A closed room holding a mark, a layer and a view (written by its owner). */
async function closedRoomWithWork(host: TrustHost): Promise<string> {
  const lab = room('lab');
  await closeRoom(host, lab);
  const mark = await call(host, 'own', 'POST', `/api/rooms/${enc(lab)}/annotations`, { kind: 'point', points: [[1, 2, 3]], label: 'secret' });
  expect(mark.status).toBe(201);
  expect((await call(host, 'own', 'PUT', `/api/rooms/${enc(lab)}/view`, { opacity: 0.37 })).status).toBe(200);
  expect((await call(host, 'own', 'POST', `/api/rooms/${enc(lab)}/layers`, { id: 'hidden', source: { function: 'ramp', params: {} } })).status).toBe(201);
  return lab;
}

/** What room `r` shows anyone: its marks' labels, its layers' ids, its view's opacity. */
async function shown(host: TrustHost, r: string): Promise<{ labels: unknown[]; layers: unknown[]; opacity: unknown }> {
  const marks = (await call(host, 'anonymous', 'GET', `/api/rooms/${enc(r)}/annotations`)).body as { annotations: { label?: string }[] };
  const scene = (await call(host, 'anonymous', 'GET', `/api/rooms/${enc(r)}/scene`)).body as { layers: { id: string }[] };
  const view = (await call(host, 'anonymous', 'GET', `/api/rooms/${enc(r)}/view`)).body as { opacity?: number } | null;
  return { labels: marks.annotations.map((a) => a.label), layers: scene.layers.map((l) => l.id), opacity: view?.opacity ?? null };
}

export async function replayProbe(host: TrustHost): Promise<void> {
  const lab = await closedRoomWithWork(host);
  const asks = [{ from: lab, at: Date.now() + 1000 }, { from: lab, speed: 4 }];
  for (const who of ['anonymous', 'other'] satisfies Who[]) {
    for (const ask of asks) {
      const into = room('copy');
      const refused = await call(host, who, 'POST', `/api/rooms/${enc(into)}/replay`, ask);
      expect(refused.status, `${who} ${JSON.stringify(ask)}`).toBe(404);
      expect(refused.body).toMatchObject({ code: 'SPC_ERR_ROOM_NOT_VISIBLE' });
      expect(await shown(host, into)).toEqual({ labels: [], layers: [], opacity: null });
      expect((await call(host, who, 'GET', `/api/rooms/${enc(into)}/replay`)).status).toBe(404);
    }
  }
  // Its owner, and a viewer of it, may copy it into a room of their own.
  for (const who of ['own', 'vi'] satisfies Who[]) {
    const into = room('copy');
    const copied = await call(host, who, 'POST', `/api/rooms/${enc(into)}/replay`, asks[0]);
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    expect(await shown(host, into)).toEqual({ labels: ['secret'], layers: ['hidden'], opacity: 0.37 });
  }
}
