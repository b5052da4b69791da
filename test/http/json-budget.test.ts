/**
 * JSON encodings of kept results count in `--cache-max-bytes`: reading a result as JSON adds
 * its encoding's bytes to the budget for as long as the result is kept, and a budget that the
 * encodings fill evicts the least recently used result as any other bytes would.
 */
import { describe, expect, it } from 'vitest';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';

/** `ramp(40)`: 40³ float32 values. */
const RAMP_BYTES = 40 ** 3 * 4;

describe('JSON encodings in the result budget', () => {
  it('counts a kept result\'s encoding with it, and evicts by it', async () => {
    // Room for two ramps, not for two ramps and one encoding (base64 is 4/3 of the bytes).
    const app = await createTestApp({ cacheMaxBytes: RAMP_BYTES * 2 + RAMP_BYTES / 2 });
    const stats = async () => (await app.inject({ url: '/api/processing/cache/stats' })).json() as { total_bytes: number; entries: { room_id: string }[] };
    addDynamicSpecimen(app, 'dyn-ramp', 'ramp');
    const [a, b] = [room(), room()];
    const data = (roomId: string, n: number) =>
      app.inject({ method: 'POST', url: '/api/specimens/dyn-ramp/data', payload: { params: { n }, room_id: roomId } });
    expect((await data(a, 40)).statusCode).toBe(200);
    expect((await stats()).total_bytes).toBe(RAMP_BYTES);
    expect((await data(b, 40)).statusCode).toBe(200);
    const bothKept = await stats();
    expect(bothKept.total_bytes).toBe(RAMP_BYTES * 2);
    // Room a's result read as JSON (a cache hit): its encoding now counts, and the budget drops
    // room b's result, the least recently used.
    const json = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'ramp', kwargs: { n: 40 }, room_id: a } });
    expect(json.statusCode).toBe(200);
    const after = await stats();
    expect(after.entries.map((e) => e.room_id)).toEqual([a]);
    expect(after.total_bytes).toBe(RAMP_BYTES + json.rawPayload.byteLength);
  });
});
