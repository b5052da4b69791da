/**
 * `/mcp` with the official SDK's own client over Streamable HTTP: the tools and their input
 * schemas (each function's from its manifest, every property described); `compute` in a room answers a summary (never
 * the bytes) and a follower of the room gets the result; the other tools drive the room and
 * publish an upload; a refused call is a tool error with the host's detail. A cross-site POST
 * is 403; GET is 405; a host bound beyond loopback asks for its admin token (401 without).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { room } from '../helpers/create-test-app.ts';
import { spawnLabHost } from '../helpers/fixture-host.ts';
import { connectMcp, fileMcp } from '../helpers/mcp-client.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { killAllHosts } from '../helpers/spawn-host.ts';
import { binaryStl } from '../helpers/upload-files.ts';

const TOOLS = [
  'add_annotation',
  'add_layer',
  'cancel_job',
  'capture_viewport',
  'compute',
  'describe_specimen',
  'get_room',
  'get_room_log',
  'get_scene',
  'job_status',
  'list_annotations',
  'list_specimens',
  'load_specimen',
  'merge_segments',
  'paint_labels',
  'publish_from_upload',
  'publish_remote',
  'remove_annotation',
  'remove_layer',
  'remove_specimen',
  'room_image',
  'set_active_specimen',
  'set_display_param',
  'set_room_scene',
  'set_view',
  'show_in_room',
  'snapshot_room',
  'split_segment',
  'start_job',
  'undo_edit',
  'update_layer',
  'who_is_here',
];

// One host and one client for the file.
const mcp = fileMcp();

type Schema = { description?: string; properties?: Record<string, Schema> };

/** The paths of the properties under `schema` that have no description. */
function undescribed(schema: Schema, at: string): string[] {
  const missing: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = `${at}.${name}`;
    if (!property.description) missing.push(path);
    // Parameter schemas are the plugins' own (their docstrings describe them).
    if (name !== 'params') missing.push(...undescribed(property, path));
  }
  return missing;
}

afterAll(killAllHosts);

describe('MCP', () => {
  it("lists the tools, with each function's parameter schema from its manifest", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const compute = tools.find((tool) => tool.name === 'compute')!;
    const params = (compute.inputSchema.properties as Record<string, { anyOf?: Record<string, unknown>[] }>).params!;
    const fromManifest = (await (await fetch(`${mcp.url}/api/processing/functions/square/schema`)).json()) as Record<string, unknown>;
    const { $schema: _ignored, ...expected } = fromManifest;
    expect(params.anyOf).toContainEqual({ ...expected, title: 'function square' });
    const setView = tools.find((tool) => tool.name === 'set_view')!;
    expect(Object.keys(setView.inputSchema.properties ?? {})).toEqual(['room', 'window', 'colormap', 'opacity', 'mode', 'camera']);
  });

  it('describes every input of every tool: an agent picks its arguments from the descriptions alone', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.flatMap((tool) => undescribed(tool.inputSchema as Schema, tool.name))).toEqual([]);
  });

  it('computes a function in room lab: a summary with the result id and data URL, never the bytes; the follower gets the result', async () => {
    const lab = `lab-${room()}`;
    const follower = await openStream(`${mcp.url}/api/rooms/${lab}/events`);
    await follower.next((e) => e.event === 'view');
    const from = follower.events.length;
    const answer = await mcp.call('compute', { function: 'square', params: { size: 3 }, room: lab });
    expect(answer.isError).toBeFalsy();
    const summary = answer.structuredContent!;
    expect(summary).toMatchObject({
      room: lab,
      function_name: 'square',
      specimen_id: null,
      type: 'mesh',
      vertices: expect.any(Number),
      triangles: expect.any(Number),
    });
    expect(summary.result_id).toMatch(/^[0-9a-f]{64}$/);
    // What made it, as every computed result says.
    const bundle = expect.stringMatching(/^[0-9a-f]{64}$/);
    expect(summary.provenance).toMatchObject({ plugin: 'host-fixtures', function: 'square', params: { size: 3 }, bundle });
    expect(answer.content[0]!.text!.length).toBeLessThan(4000);
    const result = await follower.next((e) => e.event === 'result', from);
    expect(result.data).toMatchObject({ function_name: 'square', params: { size: 3 }, result_id: summary.result_id });
    const data = await fetch(String(summary.data_url));
    expect(data.status).toBe(200);
    expect(data.headers.get('x-result-id')).toBe(summary.result_id);
    follower.close();
  });

  it('shows, sets the view, reads the room, lists, describes and publishes an upload', async () => {
    const r = room();
    expect((await mcp.call('show_in_room', { room: r, specimen: 'vol' })).structuredContent).toEqual({
      room: r,
      entry: { function_name: null, specimen_id: 'vol', params: {}, type: 'volume' },
    });
    expect((await mcp.call('set_view', { room: r, window: [1, 2], mode: 'slices' })).structuredContent).toEqual({
      room: r,
      view: { window: [1, 2], mode: 'slices' },
    });
    expect((await mcp.call('get_room', { room: r })).structuredContent).toMatchObject({
      entry: { specimen_id: 'vol' },
      view: { window: [1, 2], mode: 'slices' },
    });
    const volume = (await mcp.call('compute', { specimen: 'vol', room: r })).structuredContent!;
    expect(volume).toMatchObject({
      type: 'volume',
      shape: expect.any(Array),
      value_range: expect.any(Array),
      data_url: expect.stringContaining('/api/specimens/vol/data'),
    });

    const listed = JSON.parse((await mcp.call('list_specimens', { type: 'volume' })).content[0]!.text!) as { id: string; type: string }[];
    expect(listed.map((s) => s.type)).toEqual(listed.map(() => 'volume'));
    expect(listed.map((s) => s.id)).toContain('vol');
    expect((await mcp.call('describe_specimen', { id: 'dyn-square' })).structuredContent).toMatchObject({
      id: 'dyn-square',
      is_dynamic: true,
      schema: expect.any(Object),
    });

    const uploaded = (await (
      await fetch(`${mcp.url}/api/uploads?filename=c.stl`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array(binaryStl()),
      })
    ).json()) as { upload_id: string };
    const published = await mcp.call('publish_from_upload', { id: 'agent-cube', upload: uploaded.upload_id, display_name: 'Agent cube' });
    expect(published.structuredContent).toMatchObject({ replaced: false, specimen: { id: 'agent-cube', display_name: 'Agent cube', type: 'mesh' } });
    expect((await fetch(`${mcp.url}/api/specimens/agent-cube/data`)).status).toBe(200);
  });

  it("adds, lists and removes a room's annotations, each change reaching the room's followers", async () => {
    const r = room('mcp-marks');
    const stream = await openStream(`${mcp.url}/api/rooms/${r}/events`);
    try {
      const added = (await mcp.call('add_annotation', { room: r, kind: 'line', points: [[0, 0, 0], [0, 3, 4]], label: 'ruler' })).structuredContent!;
      expect(added).toMatchObject({ room: r, annotation: { id: '1', kind: 'line', label: 'ruler', length: 5, version: 1 } });
      expect((await stream.next((e) => e.event === 'annotation')).data).toMatchObject({ op: 'add', version: 1, annotation: { id: '1' } });
      await mcp.call('add_annotation', { room: r, kind: 'point', points: [[1, 1, 1]], label: 'seed' });
      expect((await mcp.call('list_annotations', { room: r, kind: 'point' })).structuredContent).toMatchObject({
        room: r,
        version: 2,
        count: 1,
        annotations: [{ id: '2', label: 'seed' }],
      });
      expect((await mcp.call('remove_annotation', { room: r, id: '1' })).structuredContent).toEqual({ room: r, removed: '1', version: 3 });
      expect((await mcp.call('list_annotations', { room: r })).structuredContent).toMatchObject({ count: 1 });
      const bad = await mcp.call('add_annotation', { room: r, kind: 'line', points: [[0, 0, 0]] });
      expect(bad.isError).toBe(true);
      expect(bad.content[0]!.text).toBe('400: points must hold two points (its ends) for a line, got 1');
      expect((await mcp.call('remove_annotation', { room: r, id: '1' })).content[0]!.text).toMatch(/^404: no annotation '1'/);
    } finally {
      stream.close();
    }
  });

  it("drives a room's scene: adds, reads, changes and removes layers, and snapshots the room", async () => {
    const r = room();
    const added = await mcp.call('add_layer', { room: r, function: 'ramp', params: { n: 4 }, id: 'scan', colormap: 'magma', window: [0, 10] });
    expect(added.structuredContent).toMatchObject({ room: r, layer: { id: 'scan', kind: 'image', colormap: 'magma', window: [0, 10] } });
    await mcp.call('add_layer', { room: r, specimen: 'tri', opacity: 0.5 });
    const changed = await mcp.call('update_layer', { room: r, layer: 'tri', visible: false, opacity: null });
    expect(changed.structuredContent).toMatchObject({ layer: { id: 'tri', visible: false, opacity: 1 } });
    const scene = (await mcp.call('get_scene', { room: r })).structuredContent as { layers: { id: string }[]; active: string };
    expect(scene.layers.map((l) => l.id)).toEqual(['scan', 'tri']);
    expect(scene.active).toBe('scan');
    const snapshot = (await mcp.call('snapshot_room', { room: r })).structuredContent as { id: string; url: string };
    expect(snapshot.url).toBe(`${mcp.url}/?snapshot=${snapshot.id}`);
    expect((await fetch(`${mcp.url}/api/snapshots/${snapshot.id}`)).status).toBe(200);
    expect((await mcp.call('remove_layer', { room: r, layer: 'tri' })).structuredContent).toEqual({ room: r, removed: 'tri' });
    const refused = await mcp.call('add_layer', { room: r, function: 'ramp', opacity: 7 });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/^400: layer\.opacity must be between 0 and 1/);
    expect((await mcp.call('update_layer', { room: r, layer: 'ghost', opacity: 1 })).content[0]!.text).toMatch(/^404: /);
  });

  it("edits a labels layer as whoever asked: merge, paint, split, undo, each reaching the room's followers", async () => {
    const r = room('mcp-edits');
    const source = { function: 'label_blobs', params: { size: 32, count: 6, dtype: 'uint16', stride: 100 } };
    await mcp.call('add_layer', { room: r, ...source, id: 'seg', kind: 'labels' });
    const stream = await openStream(`${mcp.url}/api/rooms/${r}/events`);
    const merged = (await mcp.call('merge_segments', { room: r, layer: 'seg', segments: [100, 200] })).structuredContent as Record<string, unknown>;
    expect(merged).toMatchObject({ room: r, layer: 'seg', version: 1, segments: { changed: [100, 200], new: [] } });
    expect((await stream.next((e) => e.event === 'labels')).data).toMatchObject({ layer: 'seg', seq: merged.seq, edit: { op: 'merge' } });
    const box = merged.box as { from: number[]; to: number[] };
    const middle = box.from.map((a, k) => Math.floor((a + box.to[k]! - 1) / 2));
    const painted = (await mcp.call('paint_labels', { room: r, layer: 'seg', label: 9, center: middle, radius: 0 })).structuredContent;
    expect(painted).toMatchObject({ version: 2, voxels: 1, segments: { new: [9] } });
    // The painted voxel is no longer of segment 100: a seed there is refused, naming it.
    const seeds = [[box.from.map((a, k) => (a + box.to[k]!) >> 1)], [middle]];
    const split = await mcp.call('split_segment', { room: r, layer: 'seg', segment: 100, seeds });
    expect(split.isError).toBe(true);
    expect(split.content[0]!.text).toContain('seeds[');
    const refused = await mcp.call('undo_edit', { room: r, layer: 'seg', seq: merged.seq });
    expect(refused.content[0]!.text).toMatch(/^409: edit \d+ cannot be undone/);
    expect((await mcp.call('undo_edit', { room: r, layer: 'seg', seq: (painted as { seq: number }).seq })).structuredContent).toMatchObject({ version: 3 });
    expect((await mcp.call('undo_edit', { room: r, layer: 'seg', seq: merged.seq })).structuredContent).toMatchObject({ version: 4 });
    stream.close();
  });

  it('answers a refused call as a tool error with the detail, and keeps serving', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['compute', { function: 'square', params: { size: 'big' } }, /^400: .*size/],
      ['compute', { function: 'nope' }, /^404: function 'nope' is not registered/],
      ['set_view', { opacity: 3 }, /^400: room view 'opacity' must be a number from 0 to 1/],
      ['describe_specimen', { id: 'nope' }, /^404: specimen 'nope' not found/],
      ['publish_from_upload', { id: 'tri', upload: 'x' }, /^409: /],
      ['no_such_tool', {}, /no tool 'no_such_tool'/],
      // A misspelt argument is refused, not ignored (the default room would be changed instead).
      ['set_view', { rooom: 'lab', opacity: 0.5 }, /^400: tool 'set_view' takes no argument 'rooom' \(its arguments: .*room/],
      // The room ids the HTTP routes refuse.
      ['get_room', { room: 'x'.repeat(10_000) }, /^400: room is longer than 256 characters/],
      ['set_view', { room: 'lab\r\nSet-Cookie: x', opacity: 0.5 }, /^400: room holds a control character/],
      ['compute', { function: 'square', room: 'a\u0000b' }, /^400: room holds a control character/],
    ];
    for (const [name, args, pattern] of cases) {
      const answer = await mcp.call(name, args);
      expect(answer.isError, name).toBe(true);
      expect(answer.content[0]!.text).toMatch(pattern);
    }
    expect((await mcp.call('get_room', {})).isError).toBeFalsy();
    // The HTTP routes refuse the same rooms (a 10,000-character one is past the URL limit already).
    expect((await fetch(`${mcp.url}/api/rooms/${encodeURIComponent('lab\r\nx')}/view`)).status).toBe(400);
    expect((await fetch(`${mcp.url}/api/rooms/${'x'.repeat(300)}/view`)).status).toBe(400);
    expect((await fetch(`${mcp.url}/api/rooms/${'x'.repeat(10_000)}/view`)).status).toBe(414);
  });

  it('refuses a cross-site POST (403) and answers GET with 405', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const crossSite = await fetch(`${mcp.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body,
    });
    expect(crossSite.status).toBe(403);
    const get = await fetch(`${mcp.url}/mcp`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('needs the admin token on a host bound beyond loopback: 401 without it, tools with it', async () => {
    const { host, base } = await spawnLabHost();
    const token = /admin token: (\S+)/.exec(host.stdout())![1]!;
    const refused = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    await expect(connectMcp(base)).rejects.toThrow();
    const allowed = await connectMcp(base, { authorization: `Bearer ${token}` });
    expect((await allowed.listTools()).tools).toHaveLength(TOOLS.length);
    await allowed.close();
    await host.stop();
  });
});
