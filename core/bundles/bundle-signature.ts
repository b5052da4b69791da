/**
 * @module bundle-signature
 * Ed25519 signatures of plugin bundles (node:crypto only). `vitrine sign` writes
 * `manifest.sig` beside a manifest: the signature of the manifest's bytes, which list every
 * file's SHA-256, so one signature covers the whole bundle. A host given trusted public keys
 * says of each bundle: `valid`, `unsigned`, `untrusted` (signed by a key it does not trust)
 * or `invalid` (a trusted key's signature that does not match, or files that do not).
 */
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type SignatureStatus = 'valid' | 'unsigned' | 'untrusted' | 'invalid';
import type { SignatureMode } from './plugin-options.ts';

export interface SignaturePolicy {
  mode: SignatureMode;
  keys: KeyObject[];
}

interface SignatureFile {
  algorithm: 'ed25519';
  /** SHA-256 of the public key (SPKI DER), hex: which key signed. */
  key: string;
  /** base64 */
  signature: string;
}

export function keyFingerprint(key: KeyObject): string {
  return createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('hex');
}

/** The bytes of manifest.sig for `manifestBytes` signed with `privateKey`. */
export function signManifest(manifestBytes: Buffer, privateKey: KeyObject): string {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`the key is ${privateKey.asymmetricKeyType ?? 'not asymmetric'}, not Ed25519`);
  const file: SignatureFile = {
    algorithm: 'ed25519',
    key: keyFingerprint(createPublicKey(privateKey)),
    signature: sign(null, manifestBytes, privateKey).toString('base64'),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

function parseSignature(bytes: Buffer): SignatureFile | null {
  try {
    const file = JSON.parse(bytes.toString('utf8')) as Partial<SignatureFile>;
    return file.algorithm === 'ed25519' && typeof file.key === 'string' && typeof file.signature === 'string' ? (file as SignatureFile) : null;
  } catch {
    return null;
  }
}

/** What a bundle's signature says under `policy`'s trusted keys. */
export function signatureOf(bundle: { manifestBytes: Buffer; signature: Buffer | null; mismatch?: string | null }, policy?: SignaturePolicy): SignatureStatus {
  if (!bundle.signature) return 'unsigned';
  const file = parseSignature(bundle.signature);
  if (!file) return 'invalid';
  const key = policy?.keys.find((k) => keyFingerprint(k) === file.key);
  if (!key) return 'untrusted';
  if (bundle.mismatch) return 'invalid';
  return verify(null, bundle.manifestBytes, key, Buffer.from(file.signature, 'base64')) ? 'valid' : 'invalid';
}

/** The public keys (PEM, one per file; a private key's public half counts too) in `dir`. */
export function readTrustedKeys(dir: string): KeyObject[] {
  const keys: KeyObject[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    throw new Error(`--trust-keys: ${dir} is not a readable folder of public keys (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const text = readFileSync(path.join(dir, name), 'utf8');
    if (!text.includes('-----BEGIN')) continue;
    let key: KeyObject;
    try {
      key = createPublicKey(text);
    } catch (error) {
      throw new Error(`--trust-keys: ${path.join(dir, name)} is not a PEM public key (${(error as Error).message})`);
    }
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`--trust-keys: ${path.join(dir, name)} is ${key.asymmetricKeyType}, not Ed25519`);
    keys.push(key);
  }
  return keys;
}
