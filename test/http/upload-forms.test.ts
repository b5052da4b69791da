/**
 * Uploads from forms: `multipart/form-data` (a browser's FormData, `curl -F`) beside the raw
 * body, over real HTTP. The form's file is stored under the same content id as the same
 * bytes sent raw; `?filename=` overrides the part's name; a form without a file, a nameless
 * part, an unknown extension, a file past the limit and a broken form are refused clearly.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { uploadId } from '../../core/uploads/upload-store.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { binaryStl } from '../helpers/upload-files.ts';

const MAX = 64 * 1024;
let host: FastifyInstance;
let url: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-forms-'));
  host = await createApp({ specimensDir: dir, pluginsDir: join(dir, 'none'), logLevel: false, poolSize: 1, viewer: false, maxUploadBytes: MAX });
  url = await host.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => host?.close());

function form(bytes: Buffer, name?: string, field = 'file'): FormData {
  const data = new FormData();
  data.append('note', 'a field that is not the file');
  if (name === undefined) data.append(field, new Blob([Uint8Array.from(bytes)]));
  else data.append(field, new Blob([Uint8Array.from(bytes)]), name);
  return data;
}

async function post(body: FormData, query = ''): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${url}/api/uploads${query}`, { method: 'POST', body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('uploads from forms', () => {
  it('stores a FormData file under the same id as the raw body, named by its part or by ?filename=', async () => {
    const stl = binaryStl();
    const raw = await fetch(`${url}/api/uploads?filename=a.stl`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Uint8Array.from(stl),
    });
    const rawInfo = (await raw.json()) as { upload_id: string };
    const viaForm = await post(form(stl, 'scan.stl'));
    expect(viaForm.status).toBe(200);
    expect(viaForm.json).toMatchObject({ upload_id: rawInfo.upload_id, type: 'mesh', bytes: stl.length });
    expect(viaForm.json.upload_id).toBe(uploadId(stl, '.stl'));
    const npy = npyBytes([3, 3, 3]);
    const named = await post(form(npy, 'blob.bin', 'volume'), '?filename=ct.npy');
    expect(named.status).toBe(200);
    expect(named.json).toMatchObject({ upload_id: uploadId(npy, '.npy'), type: 'volume' });
  });

  it('takes `curl -F file=@scan.stl` as printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-forms-curl-'));
    writeFileSync(join(dir, 'scan.stl'), binaryStl());
    // Asynchronously: the host answering it runs in this process.
    const out = await promisify(execFile)('curl', ['-s', '-F', 'file=@scan.stl', `${url}/api/uploads`], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(out.stdout)).toMatchObject({ upload_id: uploadId(binaryStl(), '.stl'), type: 'mesh' });
  });

  it('refuses a form with no file, a nameless part, an unknown extension, a file past the limit and a broken form', async () => {
    const fieldsOnly = new FormData();
    fieldsOnly.append('note', 'no file here');
    const none = await post(fieldsOnly);
    expect(none.status).toBe(400);
    expect(none.json.detail).toMatch(/no file part/);

    const nameless = await fetch(`${url}/api/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      body: '--XyZ\r\ncontent-disposition: form-data; name="file"; filename=""\r\ncontent-type: application/octet-stream\r\n\r\nabc\r\n--XyZ--\r\n',
    });
    expect(nameless.status).toBe(400);
    expect(((await nameless.json()) as { detail: string }).detail).toMatch(/no file name/);

    const text = await post(form(Buffer.from('hello'), 'notes.txt'));
    expect(text.status).toBe(415);
    expect(text.json).toMatchObject({ code: 'SPC_ERR_UPLOAD_FORMAT' });
    expect(text.json.detail).toMatch(/notes\.txt/);

    const big = await post(form(npyBytes([40, 40, 40]), 'big.npy'));
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ code: 'SPC_ERR_UPLOAD_TOO_LARGE' });

    const broken = await fetch(`${url}/api/uploads`, { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'not a form' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { detail: string }).detail).toMatch(/multipart form cannot be read/);

    // The host still serves.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
