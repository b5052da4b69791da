/**
 * @module layer-by-probe
 * A layer changed anonymously says so: a layer a user added, then PATCHed (its look, then its
 * source) by someone unidentified, carries `by: anonymous` in the answer, the scene (on every
 * host of a service) and the room's log, and a user's change after says the user again.
 */
import { expect } from 'vitest';
import { room } from '../helpers/room.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { call, type TrustHost, type Who } from './trust-host.ts';

const enc = encodeURIComponent;

export async function layerByProbe(host: TrustHost): Promise<void> {
  const r = room('by');
  const layers = `/api/rooms/${enc(r)}/layers`;
  expect((await call(host, 'own', 'POST', layers, { id: 'a', source: { function: 'ramp', params: {} } })).body).toMatchObject({ by: 'own' });
  const changes: [Who, Record<string, unknown>][] = [
    ['anonymous', { opacity: 0.5 }],
    ['own', { opacity: 0.6 }],
    ['anonymous', { source: { function: 'ramp', params: {} }, colormap: 'magma' }],
  ];
  for (const [who, change] of changes) {
    const by = who === 'anonymous' ? 'anonymous' : who;
    expect((await call(host, who, 'PATCH', `${layers}/a`, change)).body, JSON.stringify(change)).toMatchObject({ by });
    for (const base of new Set([host.url, host.otherUrl ?? host.url])) {
      const scene = (await call(host, 'own', 'GET', `/api/rooms/${enc(r)}/scene`, undefined, base)).body as { layers: { by?: string }[] };
      expect(scene.layers[0]!.by).toBe(by);
    }
  }
  // Its result, arriving later, is the host's work on it: `by` stays the last change's.
  await waitFor(async () => {
    const scene = (await call(host, 'own', 'GET', `/api/rooms/${enc(r)}/scene`)).body as { layers: { by?: string; result?: unknown }[] };
    return scene.layers[0]!.result ? scene.layers[0]! : undefined;
  }, 'the layer computed').then((layer) => expect(layer.by).toBe('anonymous'));
  const log = (await call(host, 'own', 'GET', `/api/rooms/${enc(r)}/log`)).body as { entries: { type: string; op?: string; by: string }[] };
  expect(log.entries.filter((e) => e.type === 'layer' && e.op !== 'result').map((e) => e.by)).toEqual(['own', 'anonymous', 'own', 'anonymous']);
}
