/**
 * The live socket's address as the client gives it: `ws:` for `http:` (and `wss:` for
 * `https:`), naming the listed follower or the new peer; with a token, a one-time ticket asked
 * for first (a browser's WebSocket cannot send Authorization), and none when the host gives none.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../core/client/client.ts';

describe('client.liveUrl', () => {
  it('names the follower the socket stands for, or the new peer', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:8000/' });
    expect(await client.liveUrl('lab 1', { peer: 'p-1' })).toBe('ws://127.0.0.1:8000/api/rooms/lab%201/live?peer=p-1');
    const secure = createClient({ baseUrl: 'https://example.org' });
    expect(await secure.liveUrl('lab', { name: 'ada', kind: 'headset' })).toBe('wss://example.org/api/rooms/lab/live?name=ada&kind=headset');
  });

  it('asks for a ticket when it holds a token, and goes without one the host refuses', async () => {
    const asked: string[] = [];
    const answer = (status: number) => async (url: string, init?: RequestInit) => {
      asked.push(`${init?.method} ${url} ${new Headers(init?.headers).get('authorization')}`);
      return new Response(JSON.stringify(status === 201 ? { ticket: 't-1', expires_in: 30 } : { detail: 'no user' }), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    };
    const signed = createClient({ baseUrl: 'http://h:1', token: 'secret', fetch: answer(201) });
    expect(await signed.liveUrl('lab', { peer: 'p-1' })).toBe('ws://h:1/api/rooms/lab/live?peer=p-1&ticket=t-1');
    expect(asked).toEqual(['POST http://h:1/api/tickets Bearer secret']);
    const refused = createClient({ baseUrl: 'http://h:1', token: 'secret', fetch: answer(401) });
    expect(await refused.liveUrl('lab', { peer: 'p-1' })).toBe('ws://h:1/api/rooms/lab/live?peer=p-1');
  });
});
