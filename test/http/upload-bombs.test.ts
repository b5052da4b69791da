/**
 * Uploads that are small on the wire but huge once decoded: two 16384 × 16384 RGBA PNGs of
 * zeros (8 and 16 bits a sample, 1 and 2 MB compressed, built in memory) sent together to a
 * listening host are refused with 413 and a detail saying what they would decode to, while
 * `/healthz` keeps answering; a face that fans out to thousands of triangles past a small
 * limit likewise; and a sound image from the same generator is stored, so the refusal is the
 * size's and not the file's; publishing takes the same path. (How fast `/healthz` answers
 * meanwhile: `npm run bench upload-bombs`.)
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/create-test-app.ts';
import { pngOfZeros } from '../helpers/png-bomb.ts';

async function listening(options: Parameters<typeof createTestApp>[0] = {}): Promise<{ app: FastifyInstance; base: string }> {
  const app = await createTestApp(options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { app, base: `http://127.0.0.1:${address.port}` };
}

async function upload(base: string, filename: string, body: Buffer): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${base}/api/uploads?filename=${filename}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('upload bombs', () => {
  it('refuses two PNG bombs with 413 before decoding them while /healthz answers, and stores a sound image', async () => {
    const { base } = await listening();
    const bombs = [pngOfZeros(16384, 16384), pngOfZeros(16384, 16384, { bitDepth: 16 })];
    expect(Math.max(...bombs.map((b) => b.length))).toBeLessThan(268435456 / 100);
    const refusals = Promise.all(bombs.map((bomb, i) => upload(base, `bomb-${i}.png`, bomb)));
    const health: number[] = [];
    for (let i = 0; i < 5; i++) health.push((await fetch(`${base}/healthz`)).status);
    const [eight, sixteen] = await refusals;
    expect(health).toEqual([200, 200, 200, 200, 200]);
    expect(eight!.status).toBe(413);
    expect(eight!.json).toMatchObject({
      code: 'SPC_ERR_UPLOAD_DECODES_TOO_LARGE',
      detail:
        "'bomb-0.png' would decode to 1073741824 bytes (16384×16384 pixels × 4 channels × 1 byte), past the 268435456-byte limit (--max-upload-bytes); it " +
        "was refused before decoding",
    });
    expect(sixteen!.status).toBe(413);
    expect(sixteen!.json.detail).toContain('2147483648 bytes (16384×16384 pixels × 4 channels × 2 bytes)');
    const sound = await upload(base, 'zeros.png', pngOfZeros(512, 256, { bitDepth: 16 }));
    expect(sound.status, JSON.stringify(sound.json)).toBe(200);
    expect(sound.json).toMatchObject({ type: 'image' });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('counts decoded size against a small --max-upload-bytes: a face that fans out, an image', async () => {
    const { base } = await listening({ maxUploadBytes: 64 * 1024 });
    // 20 KB of text: one face of 10000 corners fans out to 9998 triangles (about 120 KB).
    const corners = Array.from({ length: 10_000 }, (_, i) => (i % 3) + 1).join(' ');
    const fan = await upload(base, 'fan.obj', Buffer.from(`v 0 0 0\nv 1 0 0\nv 0 1 0\nf ${corners}\n`));
    expect(fan.status).toBe(413);
    expect(fan.json.detail).toMatch(/^'fan\.obj' would decode to 120012 bytes \(3 vertices and 9998 triangles\), past the 65536-byte limit/);
    const wide = await upload(base, 'wide.png', pngOfZeros(200, 100));
    expect(wide.status).toBe(413);
    expect(wide.json.detail).toContain('200×100 pixels × 4 channels × 1 byte');
    const fits = await upload(base, 'fits.png', pngOfZeros(100, 100));
    expect(fits.status, JSON.stringify(fits.json)).toBe(200);
  });

  it('refuses the same bomb published with PUT /api/specimens/{id}: 413 before decoding, nothing published', async () => {
    const { base } = await listening();
    const bomb = pngOfZeros(16384, 16384);
    const sent = fetch(`${base}/api/specimens/bomb?filename=bomb.png`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bomb),
    });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const answer = await sent;
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({
      code: 'SPC_ERR_UPLOAD_DECODES_TOO_LARGE',
      detail:
        "'bomb.png' would decode to 1073741824 bytes (16384×16384 pixels × 4 channels × 1 byte), past the 268435456-byte limit (--max-upload-bytes); it " +
        "was refused before decoding",
    });
    expect((await fetch(`${base}/api/specimens/bomb`)).status).toBe(404);
    const sound = await fetch(`${base}/api/specimens/zeros?filename=zeros.png`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(pngOfZeros(64, 32)),
    });
    expect(sound.status).toBe(201);
  });
});
