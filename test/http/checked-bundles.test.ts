/**
 * Checked bundles on a real host: a bundle whose files do not match its manifest (cut short,
 * half copied, its manifest gone while it is copied again) is left out with a problem naming
 * the file, and the version served before keeps serving; readers during reloads every 100 ms
 * never fail and never see one version's header with another's result.
 */
import { copyFile, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { dropIn, pluginsFolder, shapesVersion } from '../helpers/versioned-plugin.ts';
import { waitFor } from '../helpers/wait-for.ts';

let app: FastifyInstance;
let url: string;
let plugins: string;
let v1: string;
let v2: string;

const reload = async () => (await (await fetch(`${url}/api/specimens/reload`)).json()) as { problems: string[]; plugins: number };
const invoke = async () => {
  const headers = { 'content-type': 'application/json' };
  const res = await fetch(`${url}/api/processing/invoke`, { method: 'POST', headers, body: '{"function_name":"ring"}' });
  const body = res.status === 200 ? ((await res.json()) as { vertices: number[] }) : null;
  return { status: res.status, provenance: res.headers.get('vitrine-provenance'), x: body?.vertices[0] };
};

beforeAll(async () => {
  [v1, v2] = await Promise.all([shapesVersion('1.0.0', '1.5'), shapesVersion('1.1.0', '2.5')]);
  plugins = await pluginsFolder();
  await dropIn(v1, plugins);
  app = await createApp({ pluginsDir: plugins, specimensDir: null, logLevel: false, poolSize: 2, viewer: false });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
}, 240_000);
afterAll(() => app?.close());

describe('checked bundles', { timeout: 120_000 }, () => {
  it('leaves out a truncated bundle naming the file, while the version before keeps serving', async () => {
    expect(await invoke()).toMatchObject({ status: 200, x: 1.5, provenance: expect.stringMatching(/^shapes@1\.0\.0; bundle=[0-9a-f]{12}$/) });
    await dropIn(v2, plugins);
    const module = path.join(plugins, 'shapes', 'index.mjs');
    const bytes = await readFile(module);
    await writeFile(module, bytes.subarray(0, bytes.length >> 1));
    const refused = await reload();
    expect(refused.problems).toEqual([expect.stringMatching(/^plugin shapes: file index\.mjs does not match its SHA-256 in manifest\.json/)]);
    expect(await invoke()).toMatchObject({ status: 200, x: 1.5, provenance: expect.stringMatching(/^shapes@1\.0\.0;/) });

    await writeFile(module, bytes);
    expect((await reload()).problems).toEqual([]);
    expect(await invoke()).toMatchObject({ status: 200, x: 2.5, provenance: expect.stringMatching(/^shapes@1\.1\.0;/) });
  });

  it('refuses a half-copied bundle (new manifest, old code) and a folder emptied to be copied into', async () => {
    await dropIn(v1, plugins);
    await reload();
    await copyFile(path.join(v2, 'manifest.json'), path.join(plugins, 'shapes', 'manifest.json'));
    expect((await reload()).problems).toEqual([expect.stringContaining('plugin shapes: file index.mjs does not match')]);
    expect(await invoke()).toMatchObject({ status: 200, x: 1.5 });
    await rm(path.join(plugins, 'shapes', 'manifest.json'));
    expect((await reload()).problems).toEqual([expect.stringContaining('plugin shapes: manifest.json is missing')]);
    expect(await invoke()).toMatchObject({ status: 200, x: 1.5, provenance: expect.stringMatching(/^shapes@1\.0\.0;/) });
  });

  it('readers during a reload every 100 ms while bundles are copied in never fail nor see a mixture', async () => {
    await dropIn(v1, plugins);
    await reload();
    let stop = false;
    const seen: Awaited<ReturnType<typeof invoke>>[] = [];
    const readers = Array.from({ length: 20 }, async () => {
      while (!stop) seen.push(await invoke());
    });
    // A reload every 100 ms whatever the copies are doing: most meet a bundle being copied.
    const reloads: Promise<unknown>[] = [];
    const ticker = setInterval(() => reloads.push(reload()), 100);
    for (let round = 0; round < 6; round++) {
      await dropIn(round % 2 === 0 ? v2 : v1, plugins);
      const version = round % 2 === 0 ? '1.1.0' : '1.0.0';
      await waitFor(async () => ((await invoke()).provenance?.startsWith(`shapes@${version};`) ? true : undefined), `version ${version} to serve`);
    }
    clearInterval(ticker);
    await Promise.all(reloads);
    expect(reloads.length).toBeGreaterThan(5);
    stop = true;
    await Promise.all(readers);
    expect(seen.length).toBeGreaterThan(20);
    for (const answer of seen) {
      expect(answer.status).toBe(200);
      expect(answer.x).toBe(answer.provenance!.startsWith('shapes@1.0.0;') ? 1.5 : 2.5);
    }
    expect(new Set(seen.map((a) => a.x))).toEqual(new Set([1.5, 2.5]));
  });

  it('loads a plugin that is a symbolic link, and takes a new version when the link is swapped', async () => {
    const linked = await pluginsFolder();
    await symlink(v1, path.join(linked, 'shapes'));
    const other = await createApp({ pluginsDir: linked, specimensDir: null, logLevel: false, poolSize: 1, viewer: false });
    try {
      const at = await other.listen({ host: '127.0.0.1', port: 0 });
      const served = async () => (await fetch(`${at}/api/plugins`)).json() as Promise<{ plugins: { version: string }[] }>;
      expect((await served()).plugins.map((p) => p.version)).toEqual(['1.0.0']);
      await symlink(v2, path.join(linked, '.shapes.tmp'));
      await rename(path.join(linked, '.shapes.tmp'), path.join(linked, 'shapes'));
      expect(((await (await fetch(`${at}/api/specimens/reload`)).json()) as { problems: string[] }).problems).toEqual([]);
      expect((await served()).plugins.map((p) => p.version)).toEqual(['1.1.0']);
    } finally {
      await other.close();
    }
  });
});
