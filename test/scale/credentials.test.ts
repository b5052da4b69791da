/**
 * @module credentials.test
 * A Redis with a password, stalled and then stopped under a host and a `vitrine worker`:
 * `/readyz` names Redis by its address without the password, an answer that needs Redis says
 * so in the service's words, and no line the host or the worker wrote (standard output and
 * error, logs at info) carries the password or the admin token, or quotes Redis's client library.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startRedis } from '../helpers/redis-server.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { spawnWorker } from '../helpers/spawn-worker.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { QUOTED, readyz } from './service.ts';

describe('credentials', () => {
  it('never shows the Redis password or the admin token while Redis stalls and goes away', async () => {
    const redis = await startRedis();
    const password = `pw-${randomUUID()}`;
    const token = `admin-${randomUUID()}`;
    // Set once the server runs: the start-up helper checks it answers PING without one.
    const setup = new Redis(redis.url);
    await setup.config('SET', 'requirepass', password);
    setup.disconnect();
    const url = `redis://:${password}@127.0.0.1:${redis.port}`;
    const shown = `redis://:***@127.0.0.1:${redis.port}`;

    const host = await spawnHost(['--port', '0', '--no-viewer', '--log-level', 'info', '--plugins', 'none', '--specimens', 'none',
      '--redis', url, '--blob-store', `${url}/1`, '--compute', '1', '--pool-size', '1', '--admin-token', token]);
    const worker = await spawnWorker(['--redis', url, '--plugins', 'none', '--pool-size', '1', '--log-level', 'info']);
    await waitFor(async () => ((await readyz(host)).status === 200 ? true : undefined), 'the host to be ready');

    redis.freeze();
    const stalled = await waitFor(async () => {
      const r = await readyz(host);
      return r.status === 503 ? r.detail : undefined;
    }, '/readyz to say Redis stalls');
    redis.thaw();
    await waitFor(async () => ((await readyz(host)).status === 200 ? true : undefined), 'the host to be ready again');
    await redis.stop();
    const gone = await waitFor(async () => {
      const r = await readyz(host);
      return r.status === 503 && r.detail.includes('not connected') ? r.detail : undefined;
    }, '/readyz to say Redis is not connected');
    const stats = await fetch(`${host.url}/api/processing/cache/stats`, { headers: { authorization: `Bearer ${token}` } });
    const statsBody = await stats.text();
    // Give the host and the worker time to log the lost connection.
    await host.waitForLog(/connection to Redis is down|not connected|does not answer/);

    expect(stalled).toContain(shown);
    expect(gone).toContain(shown);
    expect(stats.status, statsBody).toBe(503);
    const said = [stalled, gone, statsBody, host.stdout(), host.stderr(), worker.stdout(), worker.stderr()];
    for (const text of said) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(token);
    }
    expect(host.stderr()).toContain(shown);
    expect(worker.stderr()).toContain(shown);
    // What was logged about the lost Redis is said in the service's words, not its client library's.
    for (const log of [host.stderr(), worker.stderr()]) expect(log).not.toMatch(/ioredis|Unhandled error event/i);
    for (const log of [host.stderr(), worker.stderr()]) expect(log).not.toMatch(QUOTED);
  });
});
