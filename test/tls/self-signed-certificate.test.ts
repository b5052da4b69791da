import { createPublicKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { oid, time } from '../../core/tls/der.ts';
import { createSelfSignedCertificate, ipBytes } from '../../core/tls/self-signed-certificate.ts';

describe('self-signed certificate', () => {
  it('is a parseable X.509 certificate signed by its own key, naming the given hosts and addresses', () => {
    const pair = createSelfSignedCertificate({ dnsNames: ['localhost', 'lab-box.local'], ipAddresses: ['127.0.0.1', '::1', '192.168.1.20'], days: 397 });
    const cert = new X509Certificate(pair.cert);
    expect(cert.verify(createPublicKey(pair.key))).toBe(true);
    expect(cert.checkIssued(cert)).toBe(true);
    expect(cert.subjectAltName).toBe('DNS:localhost, DNS:lab-box.local, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:192.168.1.20');
    expect(cert.checkIP('192.168.1.20')).toBe('192.168.1.20');
    expect(cert.checkHost('lab-box.local')).toBe('lab-box.local');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    const days = (Date.parse(cert.validTo) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(396);
    expect(days).toBeLessThan(398);
    expect(Date.parse(cert.validFrom)).toBeLessThan(Date.now());
    expect(cert.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('makes a new key and serial every time', () => {
    const subject = { dnsNames: ['localhost'], ipAddresses: [], days: 1 };
    const a = new X509Certificate(createSelfSignedCertificate(subject).cert);
    const b = new X509Certificate(createSelfSignedCertificate(subject).cert);
    expect(a.serialNumber).not.toBe(b.serialNumber);
    expect(a.fingerprint256).not.toBe(b.fingerprint256);
  });

  it('encodes addresses, identifiers and times as DER', () => {
    expect(ipBytes('10.0.0.7')).toEqual(Buffer.from([10, 0, 0, 7]));
    expect(ipBytes('fe80::1:2')?.toString('hex')).toBe('fe800000000000000000000000010002');
    expect(ipBytes('300.1.1.1')).toBeNull();
    expect(ipBytes('fe80::1%eth0')).toBeNull();
    expect(oid('1.2.840.10045.4.3.2').toString('hex')).toBe('06082a8648ce3d040302');
    expect(time(new Date(Date.UTC(2030, 0, 2, 3, 4, 5))).toString('latin1')).toBe('\x17\x0d300102030405Z');
    expect(time(new Date(Date.UTC(2051, 0, 2, 3, 4, 5))).toString('latin1')).toBe('\x18\x0f20510102030405Z');
  });
});
