/**
 * @module sign-command
 * `vitrine sign --key KEY.pem DIR`: signs each plugin bundle in DIR (a build's output folder,
 * or one bundle folder) with an Ed25519 private key, writing `manifest.sig` beside each
 * manifest. The manifest lists every file's SHA-256, so the one signature covers the bundle.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { keyFingerprint, signManifest } from '../bundles/bundle-signature.ts';
import { SIGNATURE_FILE } from '../bundles/checked-bundle.ts';
import { fail, say } from './command-exit.ts';

const USAGE = `usage: vitrine sign --key KEY.pem DIR

Signs each plugin bundle in DIR (a vitrine build output folder, or one bundle folder) with the
Ed25519 private key in KEY.pem, writing manifest.sig beside each manifest.json. Hosts started with
--trust-keys naming a folder that holds the public key show these plugins' signature as valid.
Make a key pair with:
  openssl genpkey -algorithm ed25519 -out key.pem && openssl pkey -in key.pem -pubout -out key.pub.pem
`;

/** The bundle folders of `dir`: itself when it holds a manifest, else its subfolders that do. */
function bundleFolders(dir: string): string[] {
  if (existsSync(path.join(dir, 'manifest.json'))) return [dir];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && existsSync(path.join(dir, e.name, 'manifest.json')))
    .map((e) => path.join(dir, e.name))
    .sort();
}

function readKey(file: string): KeyObject {
  const key = createPrivateKey(readFileSync(file, 'utf8'));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
  return key;
}

export async function runSignCommand(argv: string[]): Promise<number> {
  let values: { key?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: { key: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true }));
  } catch (error) {
    return fail(2, `vitrine sign: ${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) return say(USAGE);
  if (!values.key || positionals.length !== 1) return fail(2, `vitrine sign: ${values.key ? 'name one folder' : '--key KEY.pem is required'}\n${USAGE}`);
  const dir = positionals[0]!;
  let key: KeyObject;
  try {
    if (!existsSync(dir)) throw new Error(`${dir} does not exist`);
    key = readKey(values.key);
  } catch (error) {
    return fail(1, `vitrine sign: ${(error as Error).message}\n`);
  }
  const folders = bundleFolders(dir);
  if (folders.length === 0) return fail(1, `vitrine sign: no plugin bundle (a folder with manifest.json) in ${dir}; run vitrine build first\n`);
  const fingerprint = keyFingerprint(createPublicKey(key)).slice(0, 16);
  for (const folder of folders) {
    const manifest = readFileSync(path.join(folder, 'manifest.json'));
    writeFileSync(path.join(folder, SIGNATURE_FILE), signManifest(manifest, key));
    const plugin = (JSON.parse(manifest.toString('utf8')) as { plugin?: string }).plugin ?? path.basename(folder);
    process.stdout.write(`signed ${plugin} (${path.join(folder, SIGNATURE_FILE)}) with key ${fingerprint}\n`);
  }
  return 0;
}
