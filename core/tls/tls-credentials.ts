/**
 * @module tls-credentials
 * The certificate and key of the HTTPS listener: read from the files the operator names, or a
 * self-signed pair made once and kept in a folder (by default the user's configuration
 * folder), so a headset that was told to trust it keeps trusting it across restarts. A kept
 * certificate is made again only when it is about to expire.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir, hostname, networkInterfaces } from 'node:os';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { createSelfSignedCertificate } from './self-signed-certificate.ts';

/** Where the certificate comes from. */
export interface TlsSource {
  /** PEM files of a certificate (chain) and its private key. */
  certFile?: string | null;
  keyFile?: string | null;
  /** Folder of the kept self-signed pair (`cert.pem`, `key.pem`). @defaultValue {@link defaultTlsDir} */
  dir?: string | null;
}

export interface TlsCredentials {
  cert: string;
  key: string;
  /** SHA-256 fingerprint of the certificate, colon-separated hex (as browsers show it). */
  fingerprint256: string;
  /** The certificate's file. */
  certPath: string;
  /** True when the host made it. */
  selfSigned: boolean;
}

/** Days a made certificate is valid: under the 398 days browsers accept for a server certificate. */
const VALID_DAYS = 397;
/** A kept certificate this close to its end is replaced. */
const RENEW_BEFORE_MS = 7 * 24 * 3600 * 1000;

/** `$XDG_CONFIG_HOME/vitrine/tls`, `%APPDATA%\vitrine\tls` on Windows, else `~/.config/vitrine/tls`. */
export function defaultTlsDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' ? env.APPDATA : undefined) || path.join(homedir(), '.config');
  return path.join(base, 'vitrine', 'tls');
}

/** The names and addresses a headset on the LAN may use to reach this machine. */
function machineNames(): { dnsNames: string[]; ipAddresses: string[] } {
  const host = hostname();
  const dnsNames = [...new Set(['localhost', host, `${host}.local`])];
  const ipAddresses = ['127.0.0.1', '::1'];
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) if (!entry.internal && !entry.address.includes('%')) ipAddresses.push(entry.address);
  }
  return { dnsNames, ipAddresses: [...new Set(ipAddresses)] };
}

function credentials(cert: string, key: string, certPath: string, selfSigned: boolean): TlsCredentials {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
    // Throws when the key is not the certificate's.
    createSecureContext({ cert, key });
  } catch (error) {
    throw new Error(`the TLS certificate ${certPath} or its key cannot be used: ${(error as Error).message}`);
  }
  return { cert, key, fingerprint256: x509.fingerprint256, certPath, selfSigned };
}

async function readPem(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the TLS ${what} ${file}: ${(error as Error).message}`);
  }
}

async function keptOrMade(dir: string): Promise<TlsCredentials> {
  const certPath = path.join(dir, 'cert.pem');
  const keyPath = path.join(dir, 'key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) {
    const cert = await readPem(certPath, 'certificate');
    const kept = credentials(cert, await readPem(keyPath, 'key'), certPath, true);
    if (Date.parse(new X509Certificate(cert).validTo) - Date.now() > RENEW_BEFORE_MS) return kept;
  }
  const made = createSelfSignedCertificate({ ...machineNames(), days: VALID_DAYS });
  await mkdir(dir, { recursive: true });
  await writeFile(keyPath, made.key, { mode: 0o600 });
  await chmod(keyPath, 0o600);
  await writeFile(certPath, made.cert);
  return credentials(made.cert, made.key, certPath, true);
}

/** Reads the named certificate and key, or the kept self-signed pair (made on first use). */
export async function loadTlsCredentials(source: TlsSource): Promise<TlsCredentials> {
  if (source.certFile && source.keyFile) {
    return credentials(await readPem(source.certFile, 'certificate'), await readPem(source.keyFile, 'key'), source.certFile, false);
  }
  if (source.certFile || source.keyFile) throw new Error('--tls-cert and --tls-key go together: give both, or neither for a self-signed certificate');
  return keptOrMade(source.dir ?? defaultTlsDir());
}
