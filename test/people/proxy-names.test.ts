/**
 * @module proxy-names.test
 * A login proxy's user names are held to the rules `vitrine users add` holds names to: a name
 * the host keeps for itself (`admin`, which would own every room the admin token closed,
 * `anonymous`, `host`) or one no user could have is refused with 403, never believed and never
 * taken for nobody; a name a user could have is that user. Over real HTTP on a host that
 * trusts the tests' own address as its proxy.
 */
import { describe, expect, it } from 'vitest';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { userNameProblem } from '../../core/people/users.ts';

const host = fileTestApp({ dataDir: null, trustProxy: ['127.0.0.1'], adminToken: 'sesame' });

async function get(path: string, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${host.url}${path}`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("a login proxy's user names", () => {
  it('are refused when the host keeps them or no user could have them, even on a room the admin token closed', async () => {
    const r = room('closed-by-admin');
    const closed = await fetch(`${host.url}/api/rooms/${r}/access`, {
      method: 'PUT',
      headers: { authorization: 'Bearer sesame', 'content-type': 'application/json' },
      body: JSON.stringify({ public: 'none' }),
    });
    expect(await closed.json()).toMatchObject({ owner: 'admin', public: 'none' });
    for (const name of ['admin', 'anonymous', 'host', 'ada/../x:y', 'two words', '.hidden', 'x'.repeat(129)]) {
      for (const path of [`/api/rooms/${r}/scene`, `/api/rooms/${r}/access`, '/api/me', '/api/specimens/']) {
        const refused = await get(path, { 'x-forwarded-user': name });
        expect(refused.status, `${name} ${path}`).toBe(403);
        expect(refused.body).toMatchObject({ code: 'SPC_ERR_PROXY_USER_REFUSED' });
        expect(String(refused.body.detail)).toContain('X-Forwarded-User');
      }
    }
  });

  it('name their user when a user could have the name, as `vitrine users add` takes it', async () => {
    for (const name of ['ada', 'ada@example.org', 'Admin', 'grace.hopper+lab']) {
      expect(userNameProblem(name), name).toBeNull();
      expect(await get('/api/me', { 'x-forwarded-user': `  ${name} ` })).toEqual({ status: 200, body: { name, admin: false } });
    }
    // An empty header names nobody.
    expect(await get('/api/me', { 'x-forwarded-user': '' })).toEqual({ status: 200, body: { name: 'anonymous', admin: false } });
    for (const name of ['admin', 'anonymous', 'host', 'ada/../x:y']) expect(userNameProblem(name), name).not.toBeNull();
  });
});
