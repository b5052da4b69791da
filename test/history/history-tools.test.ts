/**
 * @module history-tools.test
 * The agents' tools of a room's history over real MCP: `get_room_log` answers the room's
 * changes with who made them and reads on with `next_since`; `who_is_here` lists the room's
 * followers, names and kinds, in the order they came.
 */
import { describe, expect, it } from 'vitest';
import { fileMcp } from '../helpers/mcp-client.ts';
import { room } from '../helpers/room.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const mcp = fileMcp();

describe('history tools', () => {
  it('reads a room’s log a page at a time', async () => {
    const r = room('tools');
    await mcp.call('set_view', { room: r, opacity: 0.2 });
    await mcp.call('set_view', { room: r, opacity: 0.3 });
    const first = (await mcp.call('get_room_log', { room: r, limit: 1 })).structuredContent!;
    expect(first).toMatchObject({ room: r, next_since: 1, more: true, entries: [{ seq: 1, type: 'view', by: 'anonymous', view: { opacity: 0.2 } }] });
    const rest = (await mcp.call('get_room_log', { room: r, since: 1 })).structuredContent!;
    expect(rest).toMatchObject({ more: false, entries: [{ seq: 2, view: { opacity: 0.3 } }] });
  });

  it('lists who is here, in the order they came', async () => {
    const r = room('tools');
    const page = await openStream(`${mcp.url}/api/rooms/${r}/events?name=ada&kind=headset`);
    await waitFor(async () => (((await mcp.call('who_is_here', { room: r })).structuredContent!.count as number) === 1 ? true : undefined), 'ada here');
    const notebook = await openStream(`${mcp.url}/api/rooms/${r}/events?name=nb&kind=notebook`);
    await waitFor(async () => (((await mcp.call('who_is_here', { room: r })).structuredContent!.count as number) === 2 ? true : undefined), 'nb here');
    const here = (await mcp.call('who_is_here', { room: r })).structuredContent!;
    expect((here.peers as { name: string; kind: string }[]).map((p) => `${p.name}/${p.kind}`)).toEqual(['ada/headset', 'nb/notebook']);
    page.close();
    notebook.close();
  });
});
