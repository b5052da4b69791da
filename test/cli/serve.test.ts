import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { join } from 'node:path';
import { REPO } from '../helpers/cli-path.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { eventually } from '../federation/helpers/host-process.ts';

/** The pid holding `inode` as a file descriptor, if one of the processes now running does. */
function socketHolder(inode: string): number | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return Number(pid);
    } catch {
      // a process that ended while we looked, or one we may not look into
    }
  }
  return undefined;
}

/**
 * The pid of the process listening behind `url` (it answers its own pid nowhere, so ask /proc).
 * One pass over /proc can miss the holder while other test files start and end processes, so it
 * looks again until the listener's owner is found.
 */
async function hostPid(url: string): Promise<number> {
  const port = Number(new URL(url).port);
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return eventually(async () => {
    const inode = readFileSync('/proc/net/tcp', 'utf8').split('\n').find((line) => line.includes(`:${hex} 00000000:0000 0A`))?.trim().split(/\s+/)[9];
    return inode ? socketHolder(inode) : undefined;
  }, `the process listening on port ${port}`);
}

const hosts: RunningHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop('SIGKILL')));
});

describe('vitrine serve', () => {
  it('prints the real port, serves over HTTP, and exits cleanly on SIGTERM ending running jobs', async () => {
    const host = await spawnFixtureHost();
    hosts.push(host);
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url.endsWith(':0')).toBe(false);
    const list = (await (await fetch(`${host.url}/api/specimens/`)).json()) as { id: string }[];
    expect(list.map((s) => s.id)).toContain('dyn-square');
    const data = await fetch(`${host.url}/api/specimens/dyn-square/data?params=${encodeURIComponent('{"size":1.5}')}`);
    expect(data.headers.get('content-length')).not.toBeNull();
    const env = decodeEnvelope(await data.arrayBuffer());
    expect(env.type).toBe('mesh');
    const start = await fetch(`${host.url}/api/specimens/dyn-square/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"params":{"size":2}}',
    });
    expect(start.status).toBe(200);
    expect(await host.stop('SIGTERM')).toBe(0);
  });

  it("through the checkout's own launcher (what npx vitrine runs in a clone) serves from the TypeScript sources", async () => {
    // Under npm test the other tests run the compiled command; this one keeps the sources' path covered.
    const host = await spawnFixtureHost([], {
      cli: join(REPO, 'core/cli/vitrine-bin.js'),
    });
    hosts.push(host);
    const data = await fetch(`${host.url}/api/specimens/dyn-square/data?params=${encodeURIComponent('{"size":1.25}')}`);
    expect(data.status).toBe(200);
    expect(decodeEnvelope(await data.arrayBuffer()).type).toBe('mesh');
    expect(await host.stop('SIGTERM')).toBe(0);
  });

  it('started without the allocator setting, relaunches itself with it: signals pass through, and it ends with its launcher', async () => {
    const args = ['--port', '0', '--plugins', await fixturePluginsDir(), '--specimens', await makeSpecimensDir(), '--no-viewer'];
    // Two launchers at once: the first is stopped politely, the second killed, and neither needs the other.
    const [polite, killed] = await Promise.all([0, 1].map(() => spawnHost(args, { env: { MALLOC_MMAP_THRESHOLD_: undefined } })));
    hosts.push(polite!, killed!);
    const pid = await hostPid(polite!.url);
    expect(pid).not.toBe(polite!.child.pid);
    expect(readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')).toContain('MALLOC_MMAP_THRESHOLD_=65536');
    expect(await polite!.stop('SIGTERM')).toBe(0);
    expect(existsSync(`/proc/${pid}`)).toBe(false);

    const orphan = await hostPid(killed!.url);
    await killed!.stop('SIGKILL');
    await eventually(async () => (existsSync(`/proc/${orphan}`) ? undefined : true), 'the relaunched host to end');
  });

  it('takes options from VITRINE_* environment variables, including the envelope media type', async () => {
    const host = await spawnHost([], {
      env: {
        VITRINE_PORT: '0',
        VITRINE_PLUGINS: await fixturePluginsDir(),
        VITRINE_SPECIMENS: await makeSpecimensDir(),
        VITRINE_ENVELOPE_MEDIA_TYPE: 'application/x-ascribe-envelope-v1',
        VITRINE_CACHE_TTL: '42',
      },
    });
    hosts.push(host);
    const res = await fetch(`${host.url}/api/specimens/dyn-square/data`);
    expect(res.headers.get('content-type')).toBe('application/x-ascribe-envelope-v1');
    const stats = (await (await fetch(`${host.url}/api/processing/cache/stats`)).json()) as { ttl_seconds: number };
    expect(stats.ttl_seconds).toBe(42);
  });

  it('refuses bad options with a readable message', async () => {
    // Each refusal is its own process, so they run side by side.
    await Promise.all([
      expect(spawnHost(['--port', 'abc'])).rejects.toThrow(/--port must be/),
      expect(spawnHost(['--bogus'])).rejects.toThrow(/bogus/),
      expect(spawnHost(['--cors-origin', 'https://ok.example,viewer.example/app'])).rejects.toThrow(/--cors-origin takes .*viewer\.example\/app/),
    ]);
  });
});
