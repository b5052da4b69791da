/**
 * @module mcp-tools
 * The agents' tools, one record keyed by tool name: each row holds its description, its input
 * schema and its call, and the compiler checks every row against `McpTool`, so a tool cannot
 * be listed without a schema or called without being listed. The listing keeps the record's
 * order. A new tool is a new row (its call in a file of its topic when it is longer than a few
 * lines, as tool-calls.ts holds the room and publishing ones).
 */
import type { HostContext } from '../host-context.ts';
import { readableSpecimen } from '../registry/readable-specimen.ts';
import { toCatalogEntry, toSpecimenMetadata } from '../registry/specimen-views.ts';
import { checkViewChange, VIEW_PROPERTIES } from '../rooms/room-view.ts';
import { ANNOTATION_TOOLS } from './annotation-tools.ts';
import { EDIT_TOOLS } from './edit-tools.ts';
import { HEADSET_TOOLS } from './headset-tools.ts';
import { HISTORY_TOOLS } from './history-tools.ts';
import { JOB_TOOLS } from './job-tools.ts';
import type { McpTool, ToolArgs, ToolCallContext, ToolSchema, ToolSchemaParts } from './mcp-tool.ts';
import { createHostError } from '../errors.ts';
import { SCENE_TOOLS } from './scene-tools.ts';
import { compute, publishFromUpload, publishRemoteImage, roomArg, showInRoom } from './tool-calls.ts';
import { objectSchema, toolSchemaParts } from './tool-schemas.ts';

const SPECIMEN_TYPES = ['mesh', 'volume', 'point_cloud', 'image'];

export const MCP_TOOLS = {
  list_specimens: {
    description: 'Lists the specimens this host serves (id, name, type, tags, whether computed by a function).',
    input: () =>
      objectSchema({
        type: { enum: SPECIMEN_TYPES, description: 'Only specimens of this type' },
        tag: { type: 'string', description: 'Only specimens with this tag' },
      }),
    call: async ({ ctx }, args) => {
      await ctx.published.refresh();
      const wanted = (entry: { type: string; tags: string[] }) =>
        (args.type === undefined || entry.type === args.type) && (typeof args.tag !== 'string' || entry.tags.includes(args.tag));
      // What was published for everyone, as the catalog lists it without a room.
      return ctx.catalog
        .list()
        .filter((record) => record.room === undefined)
        .map((record) => toCatalogEntry(ctx, record))
        .filter(wanted);
    },
  },
  describe_specimen: {
    description: "Describes one specimen: its metadata and, for a computed one, its parameters' JSON Schema.",
    input: ({ target }) => objectSchema({ id: { ...target.specimen, description: 'A specimen id (list_specimens lists them)' } }, ['id']),
    call: async ({ ctx }, args) => toSpecimenMetadata(ctx, await readableSpecimen(ctx, String(args.id ?? ''))),
  },
  compute: {
    description:
      'Computes a specimen or function with parameters in a room (the room shows the result to everyone following it) and answers a summary: ' +
      'type, sizes, value range or bounds, result_id, load_id (the specimen id load_specimen puts it into headsets by) and the URL of its data. ' +
      'Never the data itself.',
    input: ({ target, room }) => objectSchema({ ...target, room }),
    call: compute,
  },
  show_in_room: {
    description: 'Puts a specimen (static or computed, with parameters) or a function result in front of everyone in a room.',
    input: ({ target, room }) => objectSchema({ room, ...target }),
    call: showInRoom,
  },
  set_view: {
    description: "Changes a room's shared view: window [lo, hi], colour map, opacity, mode, camera. Followers apply it.",
    input: ({ room }) => objectSchema({ room, ...VIEW_PROPERTIES }),
    call: async (call, args) => {
      const room = roomArg(call, args);
      const { room: _room, ...change } = args;
      return { room, view: await call.ctx.rooms.changeView(room, checkViewChange(change)) };
    },
  },
  get_room: {
    description: 'What a room shows (its entry) and how (its view).',
    input: ({ room }) => objectSchema({ room }),
    call: async (call, args) => {
      const room = roomArg(call, args);
      const [entry, view] = await Promise.all([call.ctx.rooms.entry(room), call.ctx.rooms.view(room)]);
      return { room, entry, view };
    },
  },
  publish_from_upload: {
    description: 'Publishes an uploaded file (POST /api/uploads) as a static specimen every client lists.',
    input: () =>
      objectSchema(
        {
          id: {
            type: 'string',
            pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
            maxLength: 128,
            description: 'The id to publish under (a new one, or one published before)',
          },
          upload: { type: 'string', description: 'An upload id from POST /api/uploads' },
          display_name: { type: 'string', description: 'The name clients show (absent: the id)' },
          description: { type: 'string', description: 'A sentence or two on what the specimen is' },
          tags: { type: 'array', items: { type: 'string' }, description: 'Words clients filter the catalog by' },
        },
        ['id', 'upload'],
      ),
    call: publishFromUpload,
  },
  publish_remote: {
    description:
      'Publishes an OME-Zarr image (v0.4 or v0.5) of one of the host\'s remotes (GET /api/remotes) as a volume specimen, read in place: ' +
      'its metadata now, the chunks a viewer needs later. Answers its shape, dtype, levels, spacing and origin.',
    input: () =>
      objectSchema(
        {
          id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', maxLength: 128, description: 'The id to publish under' },
          remote: { type: 'string', description: 'NAME/path/to/image.ome.zarr, NAME one of the host\'s remotes' },
          level: { type: 'integer', minimum: 0, description: 'The finest level it shows (0: the image\'s own finest)' },
          channel: { type: 'integer', minimum: 0, description: 'The one channel it shows (absent: all)' },
          t: { type: 'integer', minimum: 0, description: 'The one time step it shows (absent: all)' },
          role: { type: 'string', enum: ['image', 'labels'], description: 'labels: a segmentation (an NGFF label image is one anyway)' },
          display_name: { type: 'string', description: 'The name clients show' },
          description: { type: 'string', description: 'A sentence or two on what it is' },
          tags: { type: 'array', items: { type: 'string' }, description: 'Words clients filter the catalog by' },
        },
        ['id', 'remote'],
      ),
    call: publishRemoteImage,
  },
  ...JOB_TOOLS,
  ...ANNOTATION_TOOLS,
  ...SCENE_TOOLS,
  ...EDIT_TOOLS,
  ...HISTORY_TOOLS,
  ...HEADSET_TOOLS,
} satisfies Record<string, McpTool>;

export type ToolName = keyof typeof MCP_TOOLS;

/** The tool names, in the listing's order. */
export const TOOL_NAMES = Object.keys(MCP_TOOLS) as ToolName[];

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(MCP_TOOLS, name);
}

/** The tools as MCP lists them: name, description and an input schema built from today's registries. */
export function listTools(ctx: Pick<HostContext, 'catalog' | 'functions'>): { name: ToolName; description: string; inputSchema: ToolSchema }[] {
  const parts = toolSchemaParts(ctx);
  return TOOL_NAMES.map((name) => ({ name, description: MCP_TOOLS[name].description, inputSchema: MCP_TOOLS[name].input(parts) }));
}

/** Parts enough to read which arguments a tool's schema names (their contents do not matter). */
const NAMES_ONLY: ToolSchemaParts = { target: { specimen: {}, function: {}, params: {} }, room: {} };

/** The arguments tool `name` takes (its schema's properties), or undefined when it takes none. */
export function toolArguments(name: ToolName): Record<string, unknown> | undefined {
  return (MCP_TOOLS[name] as McpTool).input(NAMES_ONLY).properties as Record<string, unknown> | undefined;
}

/**
 * Refuses an argument the tool does not take: a misspelt `room` would otherwise be ignored and
 * the tool act on the default room.
 */
function checkArgNames(name: ToolName, args: ToolArgs): void {
  const properties = toolArguments(name);
  if (!properties) return;
  const unknown = Object.keys(args).find((arg) => !Object.hasOwn(properties, arg));
  if (unknown === undefined) return;
  throw createHostError('SPC_ERR_BAD_REQUEST', `tool '${name}' takes no argument '${unknown}' (its arguments: ${Object.keys(properties).join(', ')})`);
}

/** Runs tool `name` with `args`; throws what the routes throw (catalogued host errors). */
export function callTool(call: ToolCallContext, name: ToolName, args: ToolArgs): Promise<unknown> {
  const tool: McpTool = MCP_TOOLS[name];
  checkArgNames(name, args);
  return tool.call(call, args);
}
