/**
 * `GET /client.js`: the browser build of vitrine/client is one self-contained ES module (no
 * imports left, so no bundler and no Node built-ins), served with an ETag, and it decodes the
 * host's own envelopes.
 */
import { describe, expect, it } from 'vitest';
import { addDynamicSpecimen, createTestApp } from '../helpers/create-test-app.ts';

describe('GET /client.js', () => {
  it('serves a standalone ES module that decodes an envelope from /data', async () => {
    const app = await createTestApp();
    const res = await app.inject({ method: 'GET', url: '/client.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.body).not.toMatch(/\bfrom\s*["'][^"']+["']|\brequire\(|["']node:/);
    const again = await app.inject({ method: 'GET', url: '/client.js', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);

    const client = (await import(`data:text/javascript;base64,${Buffer.from(res.body).toString('base64')}`)) as typeof import('../../core/client/index.ts');
    addDynamicSpecimen(app, 'sq', 'square');
    const data = await app.inject({ method: 'GET', url: '/api/specimens/sq/data' });
    expect(data.statusCode).toBe(200);
    const env = client.decodeEnvelope(new Uint8Array(data.rawPayload).buffer);
    expect(env.type).toBe('mesh');
  });
});
