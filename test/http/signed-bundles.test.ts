/**
 * Signed bundles: `vitrine sign` writes manifest.sig with an Ed25519 key; a host given
 * `--trust-keys` shows each plugin's signature (valid, unsigned, untrusted, invalid) in its
 * catalog and `GET /api/plugins`, and with `--signatures require` loads only valid ones.
 */
import { generateKeyPairSync } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApp, type CreateAppOptions } from '../../core/app.ts';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { runVitrine } from '../build/helpers/run-cli.ts';
import { pluginsFolder, shapesVersion } from '../helpers/versioned-plugin.ts';

let work: string;
let trusted: string;
let v1: string;

/** Writes an Ed25519 key pair: the private key at `<name>.pem`, the public one into `dir`. */
async function keyPair(name: string, publicDir: string): Promise<string> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const file = path.join(work, `${name}.pem`);
  await writeFile(file, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await writeFile(path.join(publicDir, `${name}.pub.pem`), publicKey.export({ type: 'spki', format: 'pem' }));
  return file;
}

/** A plugins folder holding shapes 1.0.0 signed with `key` (unsigned when null). */
async function signedPlugins(key: string | null): Promise<string> {
  const plugins = await pluginsFolder();
  await cp(v1, path.join(plugins, 'shapes'), { recursive: true });
  if (key) {
    const run = await runVitrine(['sign', '--key', key, plugins]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^signed shapes \(.*manifest\.sig\) with key [0-9a-f]{16}$/m);
  }
  return plugins;
}

const hosts: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function host(plugins: string, options: CreateAppOptions): Promise<string> {
  const app = await createApp({ pluginsDir: plugins, specimensDir: null, logLevel: false, poolSize: 1, viewer: false, ...options });
  hosts.push(app);
  return app.listen({ host: '127.0.0.1', port: 0 });
}

const json = async <T>(url: string): Promise<T> => (await fetch(url)).json() as Promise<T>;
type Plugins = { plugins: { plugin: string; signature: string; problems: string[]; versions: { signature: string }[] }[] };
const ringOf = async (url: string) => (await json<{ id: string; signature?: string }[]>(`${url}/api/specimens`)).find((s) => s.id === 'ring');

let stranger: string;
let mine: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'vitrine-keys-'));
  trusted = path.join(work, 'trusted');
  await mkdir(trusted);
  await mkdir(path.join(work, 'others'));
  mine = await keyPair('mine', trusted);
  stranger = await keyPair('stranger', path.join(work, 'others'));
  v1 = await shapesVersion('1.0.0');
}, 240_000);

describe('signed bundles', { timeout: 120_000 }, () => {
  it('shows valid, unsigned and untrusted signatures with --trust-keys (warn by default)', async () => {
    const signed = await host(await signedPlugins(mine), { trustKeys: trusted });
    expect(await ringOf(signed)).toMatchObject({ plugin: 'shapes', version: '1.0.0', signature: 'valid' });
    expect((await json<Plugins>(`${signed}/api/plugins`)).plugins).toEqual([expect.objectContaining({ plugin: 'shapes', signature: 'valid', problems: [] })]);
    expect(await ringOf(await host(await signedPlugins(null), { trustKeys: trusted }))).toMatchObject({ signature: 'unsigned' });
    expect(await ringOf(await host(await signedPlugins(stranger), { trustKeys: trusted }))).toMatchObject({ signature: 'untrusted' });
  });

  it('one changed byte in a signed bundle shows invalid; with require the plugin stays out', async () => {
    const plugins = await signedPlugins(mine);
    const manifest = path.join(plugins, 'shapes', 'manifest.json');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"A ring"', '"A rinG"'));
    expect(await ringOf(await host(plugins, { trustKeys: trusted }))).toMatchObject({ signature: 'invalid' });
    const strict = await host(plugins, { trustKeys: trusted, signatures: 'require' });
    expect(await ringOf(strict)).toBeUndefined();
    const listed = (await json<Plugins>(`${strict}/api/plugins`)).plugins;
    expect(listed).toEqual([expect.objectContaining({ plugin: 'shapes', versions: [], problems: [expect.stringMatching(/^signature invalid/)] })]);

    const code = path.join(plugins, 'shapes', 'index.mjs');
    const cut = await signedPlugins(mine);
    const bytes = await readFile(code);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 2) ^ 1, bytes.length - 2);
    await writeFile(path.join(cut, 'shapes', 'index.mjs'), bytes);
    const warned = await host(cut, { trustKeys: trusted });
    expect(await ringOf(warned)).toBeUndefined();
    const problems = (await json<Plugins>(`${warned}/api/plugins`)).plugins[0]!.problems;
    expect(problems).toEqual([expect.stringMatching(/^signature invalid: file index\.mjs does not match its SHA-256/)]);
  });

  it('with require, unsigned and untrusted plugins stay out and only valid ones load', async () => {
    const unsigned = await host(await signedPlugins(null), { trustKeys: trusted, signatures: 'require' });
    expect(await ringOf(unsigned)).toBeUndefined();
    expect((await json<{ problems: string[] }>(`${unsigned}/api/specimens/reload`)).problems).toEqual([
      expect.stringMatching(/^plugin shapes: signature unsigned: only plugins signed by a trusted key are loaded/),
    ]);
    expect(await ringOf(await host(await signedPlugins(stranger), { trustKeys: trusted, signatures: 'require' }))).toBeUndefined();
    expect(await ringOf(await host(await signedPlugins(mine), { trustKeys: trusted, signatures: 'require' }))).toMatchObject({ signature: 'valid' });
  });

  it('reads --trust-keys, --signatures and --plugin-versions, refusing a bad mode and require without keys', () => {
    expect(parseServeOptions(['--trust-keys', trusted, '--signatures', 'require', '--plugin-versions', '5']).host_options).toMatchObject({
      trustKeys: trusted,
      signatures: 'require',
      pluginVersions: 5,
    });
    expect(() => parseServeOptions(['--signatures', 'maybe'])).toThrow(/--signatures must be off, warn or require/);
    expect(() => parseServeOptions(['--signatures', 'require'])).toThrow(/needs --trust-keys/);
  });

  it('refuses to start with --trust-keys naming no folder, saying which', async () => {
    const missing = path.join(work, 'no-such-keys');
    await expect(createApp({ pluginsDir: null, specimensDir: null, logLevel: false, trustKeys: missing })).rejects.toThrow(
      `--trust-keys: ${missing} is not a readable folder of public keys (ENOENT)`,
    );
  });
});
