import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALLOCATOR_ENV } from '../../core/cli/allocator-env.ts';
import { CLI } from '../helpers/cli-path.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';

const hosts: RunningHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop('SIGKILL')));
});

/** GET over TLS trusting only `ca` (no verification is switched off). */
function getTls(url: string, ca: string): Promise<{ status: number; body: string; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const request = https.get(url, { ca, agent: false }, (response) => {
      const fingerprint = (response.socket as import('node:tls').TLSSocket).getPeerX509Certificate()?.fingerprint256 ?? '';
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, fingerprint }));
    });
    request.on('error', reject);
  });
}

/** Starts a host with TLS and waits for its three lines: plain, TLS, fingerprint. */
async function startTls(args: string[]): Promise<{ host: RunningHost; httpsUrl: string; fingerprint: string }> {
  const host = await spawnFixtureHost(['--https-port', '0', '--log-level', 'warn', ...args]);
  hosts.push(host);
  const lines = await waitFor(() => {
    const out = host.stdout().split('\n').filter((line) => line !== '' && !line.startsWith('data: '));
    return out.length >= 3 ? out : undefined;
  }, 'the https and certificate lines');
  expect(lines[0]).toBe(`listening on ${host.url}`);
  const match = /^listening on (https:\/\/127\.0\.0\.1:(\d+))$/.exec(lines[1]!);
  expect(match, lines[1]).not.toBeNull();
  expect(Number(match![2])).not.toBe(0);
  const fingerprint = /sha256 ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})$/.exec(lines[2]!)?.[1];
  expect(fingerprint, lines[2]).toBeDefined();
  return { host, httpsUrl: match![1]!, fingerprint: fingerprint! };
}

describe('vitrine serve --https-port', () => {
  it('makes a self-signed certificate once, keeps it, and serves the same app on both listeners', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'vitrine-tls-')), 'tls');
    const first = await startTls(['--tls-dir', dir]);
    const cert = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    expect(new X509Certificate(cert).fingerprint256).toBe(first.fingerprint);
    expect(first.host.stdout()).toContain('self-signed certificate');
    expect(statSync(path.join(dir, 'key.pem')).mode & 0o077).toBe(0);

    const health = await getTls(`${first.httpsUrl}/healthz`, cert);
    expect(health).toMatchObject({ status: 200, fingerprint: first.fingerprint });
    expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
    const page = await getTls(`${first.httpsUrl}/`, cert);
    expect(page.body).toContain('/viewer/app.js');
    // One app behind both: a request over TLS fills the room the plain listener reads.
    const data = await getTls(`${first.httpsUrl}/api/specimens/dyn-square/data?room_id=tls&params=${encodeURIComponent('{"size":1.5}')}`, cert);
    expect(data.status).toBe(200);
    const stats = (await (await fetch(`${first.host.url}/api/processing/cache/stats`)).json()) as { entries: { room_id: string }[] };
    expect(stats.entries.map((e) => e.room_id)).toContain('tls');
    const missing = await getTls(`${first.httpsUrl}/no/such/route`, cert);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ status_code: 404 });
    expect(await first.host.stop('SIGTERM')).toBe(0);

    const again = await startTls(['--tls-dir', dir]);
    expect(again.fingerprint).toBe(first.fingerprint);
  });

  it('uses the certificate and key it is given', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'vitrine-tls-')), 'made');
    const made = await startTls(['--tls-dir', dir]);
    await made.host.stop('SIGTERM');
    const certFile = path.join(dir, 'cert.pem');
    const given = await startTls(['--tls-cert', certFile, '--tls-key', path.join(dir, 'key.pem')]);
    expect(given.fingerprint).toBe(made.fingerprint);
    expect(given.host.stdout()).toMatch(/tls certificate \S+cert\.pem sha256/);
    expect((await getTls(`${given.httpsUrl}/healthz`, readFileSync(certFile, 'utf8'))).status).toBe(200);
  });

  it('refuses certificate options that cannot work, with a readable message', async () => {
    // With the allocator setting given, as spawnHost gives it, each refusal is one process, not a launcher and its relaunch.
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const childEnv = { ...process.env, ...ALLOCATOR_ENV, ...env };
        const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', 'none', ...args], { env: childEnv });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
        child.on('close', (status) => resolve({ status, stderr }));
      });
    // Each refusal is a process of its own, so they run side by side.
    const [lone, stray, badPort, unreadable] = await Promise.all([
      run(['--https-port', '0', '--tls-cert', '/nonexistent/cert.pem']),
      run(['--tls-dir', '/tmp']),
      run([], { VITRINE_HTTPS_PORT: 'x' }),
      run(['--https-port', '0', '--tls-cert', '/nonexistent/cert.pem', '--tls-key', '/nonexistent/key.pem', '--plugins', 'none', '--specimens', 'none']),
    ]);
    expect(lone.status).toBe(2);
    expect(lone.stderr).toContain('--tls-cert and --tls-key go together');
    expect(stray.status).toBe(2);
    expect(stray.stderr).toContain('--tls-dir needs --https-port');
    expect(badPort.status).toBe(2);
    expect(badPort.stderr).toContain('--https-port must be a non-negative integer');
    expect(unreadable.status).toBe(1);
    expect(unreadable.stderr).toContain('cannot read the TLS certificate /nonexistent/cert.pem');
  });
});
