/**
 * A room shows the latest thing asked of it. Over real HTTP, in the order that once left a
 * following page behind: a peer asks a new value, and while it computes a follower reads the
 * room's current entry (the `result` it was told of). Said as a follower's read (the follower
 * header the client library sends when it adopts a peer's entry), the read is a hit that asks
 * nothing: the peer's value becomes the room's and its `result` goes out. The same read without
 * the header is a person asking for what the room shows, and the room keeps it.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOLLOWER_HEADER } from '../../core/wire/follower-header.ts';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** The room's entry after a read of the current entry lands between a peer's ask and its end. */
async function entryAfterRead(headers: Record<string, string>): Promise<{ shown: string; results: string[] }> {
  const app = await createTestApp();
  addDynamicSpecimen(app, 'ticks', 'ticker');
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-echo-'));
  const r = room('echo');
  const dataUrl = (tag: string) => `${url}/api/specimens/ticks/data?room_id=${r}&params=${encodeURIComponent(JSON.stringify({ dir, tag }))}`;
  const stream = await openStream(`${url}/api/rooms/${r}/events`);
  await stream.next((e) => e.event === 'state');

  // The room shows `seven` (it stops at its first tick).
  await writeFile(path.join(dir, 'seven.stop'), '');
  expect((await fetch(dataUrl('seven'))).status).toBe(200);
  await stream.next((e) => e.event === 'result');

  // A peer asks `eight`, which ticks until told to stop; once it runs, the read of `seven` lands.
  const eight = fetch(dataUrl('eight'));
  await waitFor(() => existsSync(path.join(dir, 'eight.ticks')) || undefined, "the peer's computation to start");
  const read = await fetch(dataUrl('seven'), { headers });
  expect(read.status).toBe(200);
  await read.arrayBuffer();
  await writeFile(path.join(dir, 'eight.stop'), '');
  expect((await eight).status).toBe(200);

  // A new follower's first event is the room's entry now.
  const again = await openStream(`${url}/api/rooms/${r}/events`);
  const state = (await again.next((e) => e.event === 'state')).data as { params: { tag: string } };
  again.close();
  const results = stream.events.filter((e) => e.event === 'result').map((e) => (e.data as { params: { tag: string } }).params.tag);
  stream.close();
  return { shown: state.params.tag, results };
}

describe("a follower's read of the room's entry", () => {
  it("is not an ask: the peer's newer value becomes the room's and its result goes out", async () => {
    const { shown, results } = await entryAfterRead({ [FOLLOWER_HEADER]: '1' });
    expect(shown).toBe('eight');
    expect(results).toEqual(['seven', 'eight']);
  });

  it('without the header is a person asking for what the room shows: the room keeps it', async () => {
    const { shown, results } = await entryAfterRead({});
    expect(shown).toBe('seven');
    expect(results).toEqual(['seven']);
  });
});
