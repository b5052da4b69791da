/**
 * @module scene-tools
 * The agents' tools of rooms' scenes: read a room's layers, add, change and remove one, and
 * record the room as a snapshot. Each goes through the same service and checks as the scene
 * routes (a bad field is refused naming it), and every follower of the room sees the change.
 */
import { DISPLAY_PROPERTIES, KIND_PROPERTY, LAYER_ID_PROPERTY } from '../scenes/layer-schema.ts';
import type { McpTool, ToolArgs, ToolCallContext } from './mcp-tool.ts';
import { roomArg } from './tool-calls.ts';
import { objectSchema } from './tool-schemas.ts';

/** Where add_layer puts the layer. */
const INDEX_PROPERTY = { type: 'integer', minimum: 0, description: 'Where in the stack (0 the bottom; absent: on top)' };
/** A segment's surface as the layer: the label id (or all) of the labels volume its source gives. */
const SEGMENT_PROPERTY = {
  oneOf: [{ type: 'integer', minimum: 1, maximum: 4294967295 }, { const: 'all' }],
  description: "The surface of this label (or 'all' labels) of the labels volume the source gives: the layer is a mesh",
};
/** update_layer's switch to make a layer the room's entry. */
const ACTIVE_PROPERTY = { const: true, description: "true makes this layer the room's entry" };

/** The layer fields of a call (everything but its room, its layer id and its source's parts). */
function layerFields(args: ToolArgs, skip: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([key]) => !skip.includes(key)));
}

const SOURCE_NOTE =
  'Give `specimen` (an id from list_specimens) or `function` (a name), with `params` (absent ones take their defaults), ' +
  'and `segment` (a label id or all) to show a segment\'s surface of a labels volume.';

/** The source a call names (specimen or function, params, segment). */
function sourceOf(args: ToolArgs): Record<string, unknown> {
  const source: Record<string, unknown> =
    args.function !== undefined ? { function: args.function, params: args.params ?? {} } : { specimen: args.specimen, params: args.params ?? {} };
  if (args.segment !== undefined) source.segment = args.segment;
  return source;
}

export const SCENE_TOOLS = {
  get_scene: {
    description:
      "Reads a room's scene: its layers bottom first (each with id, source, kind, display fields such as visible, opacity, colormap and window, " +
      "and `result` once computed: result_id, type, data_url), which layer is active (the room's entry, what clients that show one thing show) and its " +
      "version.",
    input: ({ room }) => objectSchema({ room }),
    call: async (call, args) => ({ room: roomArg(call, args), ...(await call.ctx.scenes.scene(roomArg(call, args))) }),
  },
  add_layer: {
    description:
      `Adds a layer to a room's scene, on top (or at \`index\`, 0 the bottom); everyone following the room sees it. ${SOURCE_NOTE} ` +
      'Optional: `id` (made from the source when absent), `kind` (image, labels, mesh, points), and display fields. A scene holds at most 32 layers. ' +
      'Answers the layer; its result is computed in the background (get_scene shows `result` once it is in).',
    input: ({ room, target }) =>
      objectSchema({ room, ...target, segment: SEGMENT_PROPERTY, id: LAYER_ID_PROPERTY, kind: KIND_PROPERTY, index: INDEX_PROPERTY, ...DISPLAY_PROPERTIES }),
    call: async (call: ToolCallContext, args: ToolArgs) => {
      const room = roomArg(call, args);
      const layer = { ...layerFields(args, ['room', 'specimen', 'function', 'params', 'segment', 'index']), source: sourceOf(args) };
      const index = typeof args.index === 'number' ? args.index : undefined;
      return { room, layer: await call.ctx.scenes.add(room, layer, index) };
    },
  },
  update_layer: {
    description:
      "Changes a layer of a room's scene: any display field given (null takes it back to its default), `kind`, `active: true` to make it the room's entry, " +
      `or a new source (${SOURCE_NOTE} It is computed again). Answers the layer.`,
    input: ({ room, target }) =>
      objectSchema(
        { room, layer: LAYER_ID_PROPERTY, ...target, segment: SEGMENT_PROPERTY, kind: KIND_PROPERTY, active: ACTIVE_PROPERTY, ...DISPLAY_PROPERTIES },
        ['layer'],
      ),
    call: async (call: ToolCallContext, args: ToolArgs) => {
      const room = roomArg(call, args);
      const change = layerFields(args, ['room', 'layer', 'specimen', 'function', 'params', 'segment']);
      if (args.specimen !== undefined || args.function !== undefined) change.source = sourceOf(args);
      return { room, layer: await call.ctx.scenes.patch(room, String(args.layer ?? ''), change) };
    },
  },
  remove_layer: {
    description: "Removes a layer from a room's scene (get_scene lists the ids). When it was the active layer, the top layer left becomes active.",
    input: ({ room }) => objectSchema({ room, layer: LAYER_ID_PROPERTY }, ['layer']),
    call: async (call, args) => {
      const room = roomArg(call, args);
      await call.ctx.scenes.remove(room, String(args.layer ?? ''));
      return { room, removed: args.layer };
    },
  },
  snapshot_room: {
    description:
      'Records a room as it is now (its scene, view and annotations, every layer computed and its bytes kept for the host\'s --snapshot-ttl, 30 days by ' +
      'default) ' +
      'and answers its id and a URL that opens it in the viewer exactly as it was. Restore it with PUT /api/rooms/{room}/scene {"snapshot": id}.',
    input: ({ room }) => objectSchema({ room }),
    call: async (call, args) => {
      const room = roomArg(call, args);
      const created = await call.ctx.snapshots.create(room);
      return { room, id: created.id, url: `${call.baseUrl}${created.url}` };
    },
  },
} satisfies Record<string, McpTool>;
