/**
 * @module self-signed-certificate
 * Makes a self-signed TLS certificate (ECDSA P-256, SHA-256) with only `node:crypto`: the key
 * pair and the signature come from Node, the certificate bytes from der.ts. No `openssl`
 * binary is needed, so it works the same on Linux, macOS and Windows and with no network.
 *
 * The certificate names the machine's addresses and names (subjectAltName), so a headset on
 * the LAN reaching `https://192.168.1.20:8443` sees a certificate for that address. It is a
 * CA for itself (as the usual development certificates are), so it can be installed as a
 * trusted authority on a device, and valid for server authentication.
 */
import { generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { bitString, boolean, explicit, implicit, octetString, oid, sequence, set, smallInteger, time, unsignedInteger, utf8String } from './der.ts';

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const COMMON_NAME = '2.5.4.3';
const ORGANIZATION = '2.5.4.10';
const SUBJECT_ALT_NAME = '2.5.29.17';
const BASIC_CONSTRAINTS = '2.5.29.19';
const KEY_USAGE = '2.5.29.15';
const EXT_KEY_USAGE = '2.5.29.37';
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';

/** What the certificate is for. */
export interface CertificateSubject {
  /** Host names (DNS entries of subjectAltName). */
  dnsNames: string[];
  /** IPv4 or IPv6 addresses (IP entries of subjectAltName). */
  ipAddresses: string[];
  /** Days from now until it expires. */
  days: number;
}

/** A certificate and its private key, both PEM. */
export interface PemPair {
  cert: string;
  key: string;
}

/** The 4 or 16 bytes of an IP address; null for a text that is neither. */
export function ipBytes(address: string): Buffer | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    return parts.every((p) => p <= 255) ? Buffer.from(parts) : null;
  }
  if (!address.includes(':') || address.includes('%')) return null;
  const [head = '', tail] = address.split('::');
  const words = (part: string): number[] => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const left = words(head);
  const right = tail === undefined ? [] : words(tail);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0) || [...left, ...right].some((w) => !(w >= 0 && w <= 0xffff))) return null;
  const all = [...left, ...new Array<number>(fill).fill(0), ...right];
  const out = Buffer.alloc(16);
  all.forEach((w, i) => out.writeUInt16BE(w, i * 2));
  return out;
}

function name(): Buffer {
  const rdn = (type: string, value: string) => set(sequence(oid(type), utf8String(value)));
  return sequence(rdn(ORGANIZATION, 'vitrine'), rdn(COMMON_NAME, 'vitrine local host'));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));
}

function altNames(subject: CertificateSubject): Buffer {
  const dns = subject.dnsNames.map((n) => implicit(2, Buffer.from(n, 'ascii')));
  const ips = subject.ipAddresses.flatMap((a) => {
    const bytes = ipBytes(a);
    return bytes ? [implicit(7, bytes)] : [];
  });
  return sequence(...dns, ...ips);
}

/** Makes a new key pair and a self-signed certificate for `subject`. */
export function createSelfSignedCertificate(subject: CertificateSubject): PemPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const algorithm = sequence(oid(ECDSA_WITH_SHA256));
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const now = Date.now();
  const tbs = sequence(
    explicit(0, smallInteger(2)), // version 3
    unsignedInteger(serial),
    algorithm,
    name(),
    sequence(time(new Date(now - 24 * 3600 * 1000)), time(new Date(now + subject.days * 24 * 3600 * 1000))),
    name(),
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(
      3,
      sequence(
        extension(BASIC_CONSTRAINTS, true, sequence(boolean(true))),
        // A BIT STRING with digitalSignature (bit 0) and keyCertSign (bit 5) set: 0x84, its last 2 bits unused.
        extension(KEY_USAGE, true, Buffer.from([0x03, 0x02, 0x02, 0x84])),
        extension(EXT_KEY_USAGE, false, sequence(oid(SERVER_AUTH))),
        extension(SUBJECT_ALT_NAME, false, altNames(subject)),
      ),
    ),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const der = sequence(tbs, algorithm, bitString(signature));
  const cert = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
  // Parsing it back proves the bytes are a certificate before anything is written.
  new X509Certificate(cert);
  return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
