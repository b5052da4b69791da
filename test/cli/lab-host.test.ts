/**
 * A host bound beyond loopback (a lab host), as a real `vitrine serve` process: it makes an
 * admin token and prints it once (the admin routes, publishing and MCP ask for it; open rooms do not),
 * `--admin-token none` leaves the admin routes open with a
 * warning, and its `Host` allow-list defaults to the machine's own names and addresses.
 * Requests go to 127.0.0.1 on the port the host bound on every address.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnLabHost } from '../helpers/fixture-host.ts';
import { requestWithHost } from '../helpers/raw-http.ts';
import { killAllHosts, spawnHost } from '../helpers/spawn-host.ts';

afterAll(killAllHosts);

/**
 * Two lab hosts with the defaults, shared by the tests that only ask them (each started on its
 * own folders, so each makes its own token).
 */
let plain: [Awaited<ReturnType<typeof spawnLabHost>>, Awaited<ReturnType<typeof spawnLabHost>>];
beforeAll(async () => {
  plain = await Promise.all([spawnLabHost(), spawnLabHost()]);
});

const ADMIN = ['/api/processing/cache/stats', '/api/specimens/reload', '/metrics'];

describe('a lab host', () => {
  it('makes an admin token, prints it once, and guards the admin routes with it', async () => {
    // The second host, started beside the first, is only compared with it at the end.
    const [{ host, base }, other] = plain;
    const lines = host.stdout().split('\n').filter((line) => line.startsWith('admin token: '));
    expect(lines).toHaveLength(1);
    const token = lines[0]!.slice('admin token: '.length);
    expect(token.length).toBeGreaterThanOrEqual(24);
    for (const path of ADMIN) {
      expect((await fetch(`${base}${path}`)).status, path).toBe(401);
      expect((await fetch(`${base}${path}`, { headers: { authorization: 'Bearer wrong' } })).status, path).toBe(403);
      expect((await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).status, path).toBe(200);
    }
    const clear = await fetch(`${base}/api/processing/cache/clear`, { method: 'POST' });
    expect(clear.status).toBe(401);
    expect((await fetch(`${base}/api/specimens/`)).status).toBe(200);
    // A user's token the host does not know is a 401 there as anywhere (any other wrong token is a wrong admin token).
    const stranger = { authorization: `Bearer vt_${'x'.repeat(43)}` };
    for (const path of [...ADMIN, '/mcp']) {
      const refused = await fetch(`${base}${path}`, { method: path === '/mcp' ? 'POST' : 'GET', headers: stranger });
      expect(refused.status, path).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'SPC_ERR_TOKEN_UNKNOWN' });
    }
    // An open room is open to anyone: its writes ask for no token (MCP's tools do). Reads stay open.
    const put = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const writes: [string, unknown][] = [['/api/rooms/lab/view', { opacity: 0.5 }], ['/api/rooms/lab/entry', { function: 'square' }]];
    for (const [path, body] of writes) expect((await put(path, body)).status, path).toBe(200);
    expect(await (await fetch(`${base}/api/rooms/lab/view`)).json()).toMatchObject({ opacity: 0.5 });
    // So do a room's marks, until the room is closed (here by the admin token, an admin).
    const mark = (headers: Record<string, string> = {}) =>
      fetch(`${base}/api/rooms/lab/annotations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ kind: 'point', points: [[0, 0, 0]] }),
      });
    expect((await mark()).status).toBe(201);
    expect((await put('/api/rooms/lab/access', { public: 'read' }, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await mark()).status).toBe(401);
    expect((await mark({ authorization: `Bearer ${token}` })).status).toBe(201);
    expect((await fetch(`${base}/api/rooms/lab/annotations`)).status).toBe(200);
    // A second host makes a token of its own.
    expect(other.host.stdout()).toMatch(/admin token: \S+/);
    expect(other.host.stdout()).not.toContain(token);
  });

  it('answers only the machine\'s own names and addresses (DNS rebinding), or any with *', async () => {
    const [{ host, base }, open] = [plain[1], await spawnLabHost(['--allowed-hosts', '*'])];
    expect((await requestWithHost(`${base}/api/specimens/`, `${hostname()}:${host.port}`)).status).toBe(200);
    expect((await requestWithHost(`${base}/api/specimens/`, `localhost:${host.port}`)).status).toBe(200);
    const rebound = await requestWithHost(`${base}/api/specimens/`, `rebind.evil.example:${host.port}`);
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ code: 'SPC_ERR_HOST_NOT_ALLOWED' });
    expect((await requestWithHost(`${open.base}/api/specimens/`, 'rebind.evil.example')).status).toBe(200);
    await open.host.stop();
  });

  it('keeps the admin routes open with --admin-token none, saying so; uses a given token without printing it', async () => {
    const [open, named] = await Promise.all([
      spawnLabHost(['--admin-token', 'none']),
      spawnHost(['--host', '0.0.0.0', '--port', '0', '--plugins', 'none', '--specimens', 'none', '--no-viewer', '--pool-size', '1'], {
        env: { VITRINE_ADMIN_TOKEN: 'lab-secret' },
      }),
    ]);
    expect(open.host.stdout()).not.toContain('admin token:');
    await open.host.waitForLog('--admin-token none');
    expect((await fetch(`${open.base}/api/processing/cache/stats`)).status).toBe(200);
    expect(named.stdout()).not.toContain('admin token:');
    const base = `http://127.0.0.1:${named.port}`;
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer lab-secret' } })).status).toBe(200);
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    await Promise.all([open.host.stop(), named.stop()]);
  });

  it('on loopback makes no token and leaves the admin routes open', async () => {
    const host = await spawnHost(['--port', '0', '--plugins', 'none', '--specimens', 'none', '--no-viewer', '--pool-size', '1']);
    expect(host.stdout()).not.toContain('admin token:');
    expect((await fetch(`${host.url}/api/processing/cache/stats`)).status).toBe(200);
    await host.stop();
  });
});
