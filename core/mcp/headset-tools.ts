/**
 * @module headset-tools
 * The tools a headset runs, as rows of the one tool table: an agent (the room's own, or any MCP
 * client) loads a specimen into every headset of a room, picks or removes one, changes the
 * room's backdrop or a display parameter, or looks through a headset's eyes. The host checks
 * each call's arguments as the headset client does (so a bad one is refused here, not dropped
 * there) and, for `load_specimen`, adds the specimen's `type` from the catalog, which the client
 * cannot tell for a specimen it has never listed. The call itself goes to the room's headsets
 * (`HeadsetCalls`, the agent sockets): the oldest one runs it and answers.
 */
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { createHostError, isHostError } from '../errors.ts';
import { readableSpecimen } from '../registry/readable-specimen.ts';
import { specimenType } from '../registry/specimen-functions.ts';
import { ToolImage, type HeadsetToolName, type McpTool, type ToolArgs, type ToolCallContext } from './mcp-tool.ts';
import { roomArg } from './tool-calls.ts';
import { objectSchema } from './tool-schemas.ts';

/** The backdrops a headset offers. */
export const ROOM_SCENES = ['lab', 'black', 'passthrough', 'world_scale'] as const;
/** The display parameters a headset sets on a loaded specimen. */
export const DISPLAY_PARAMS = ['gamma', 'opacity', 'color_scalar', 'max_steps', 'step_size', 'zoom'] as const;
/** What a headset can draw. */
const LOADABLE = new Set(['mesh', 'volume']);

const INDEX = { type: 'integer', minimum: 0, description: 'The loaded specimen\'s place in the headset\'s scene (0 the first loaded)' };

const bad = (why: string) => createHostError('SPC_ERR_BAD_REQUEST', why);

function integerArg(args: ToolArgs, name: string): number {
  const value = args[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw bad(`'${name}' must be an integer of at least 0`);
  return value;
}

function oneOf(args: ToolArgs, name: string, allowed: readonly string[]): string {
  const value = args[name];
  if (typeof value !== 'string' || !allowed.includes(value)) throw bad(`'${name}' must be one of ${allowed.join(', ')}, got '${String(value).slice(0, 64)}'`);
  return value;
}

/** Sends the call to the room's headsets; a host without agent sockets has none to send it to. */
async function toHeadsets(call: ToolCallContext, room: string, name: HeadsetToolName, args: Record<string, unknown>): Promise<unknown> {
  if (!call.headsets) throw createHostError('SPC_ERR_AGENT_NO_HEADSET', room);
  return call.headsets.call(room, name, args);
}

/** The record of specimen `id` as the caller may read it; one they may not is as unknown as one that is not there. */
async function loadable(call: ToolCallContext, id: string): Promise<SpecimenRecord> {
  try {
    return await readableSpecimen(call.ctx, id);
  } catch (error) {
    if (!isHostError(error) || error.code !== 'SPC_ERR_SPECIMEN_NOT_FOUND') throw error;
    throw bad(`unknown specimen id '${id.slice(0, 128)}': give an id list_specimens lists or compute answers as load_id (not a file path)`);
  }
}

/** The specimen's type as a headset loads it: mesh or volume, from the catalog. */
async function loadableType(call: ToolCallContext, id: string): Promise<string> {
  const record = await loadable(call, id);
  const type = specimenType(call.ctx.functions, record);
  if (!LOADABLE.has(type)) throw bad(`specimen '${id}' is a ${type.replace('_', ' ')}: headsets load meshes and volumes`);
  return type;
}

export const HEADSET_TOOLS = {
  load_specimen: {
    description:
      'Loads a specimen into every headset of a room, by id: one list_specimens lists, or the load_id compute answers (not a file path). ' +
      'The headsets draw it as a mesh or a volume, whichever it is.',
    input: ({ room }) => objectSchema({ room, specimen_id: { type: 'string', description: 'The specimen to load' } }, ['specimen_id']),
    call: async (call, args) => {
      const room = roomArg(call, args);
      if (typeof args.specimen_id !== 'string' || args.specimen_id === '') throw bad("'specimen_id' must be a specimen id");
      const type = await loadableType(call, args.specimen_id);
      return toHeadsets(call, room, 'load_specimen', { specimen_id: args.specimen_id, type });
    },
  },
  set_active_specimen: {
    description: 'Makes one of the specimens loaded in a room\'s headsets the active one (by its index).',
    input: ({ room }) => objectSchema({ room, index: INDEX }, ['index']),
    call: async (call, args) => toHeadsets(call, roomArg(call, args), 'set_active_specimen', { index: integerArg(args, 'index') }),
  },
  remove_specimen: {
    description: 'Removes one of the specimens loaded in a room\'s headsets (by its index).',
    input: ({ room }) => objectSchema({ room, index: INDEX }, ['index']),
    call: async (call, args) => toHeadsets(call, roomArg(call, args), 'remove_specimen', { index: integerArg(args, 'index') }),
  },
  set_room_scene: {
    description: 'Changes the backdrop the room\'s headsets show around the specimens.',
    input: ({ room }) => objectSchema({ room, name: { type: 'string', enum: [...ROOM_SCENES], description: 'The backdrop' } }, ['name']),
    call: async (call, args) => toHeadsets(call, roomArg(call, args), 'set_room_scene', { name: oneOf(args, 'name', ROOM_SCENES) }),
  },
  set_display_param: {
    description: 'Sets a display parameter (gamma, opacity, color_scalar, max_steps, step_size, zoom) of a specimen loaded in the room\'s headsets.',
    input: ({ room }) =>
      objectSchema(
        {
          room,
          index: INDEX,
          name: { type: 'string', enum: [...DISPLAY_PARAMS], description: 'The display parameter' },
          value: { type: 'number', description: 'Its new value' },
        },
        ['index', 'name', 'value'],
      ),
    call: async (call, args) => {
      const index = integerArg(args, 'index');
      const name = oneOf(args, 'name', DISPLAY_PARAMS);
      if (typeof args.value !== 'number' || !Number.isFinite(args.value)) throw bad("'value' must be a finite number");
      return toHeadsets(call, roomArg(call, args), 'set_display_param', { index, name, value: args.value });
    },
  },
  capture_viewport: {
    description: 'Looks through the eyes of the room\'s oldest headset: answers what it shows now, as a JPEG picture.',
    input: ({ room }) => objectSchema({ room }),
    call: async (call, args) => {
      const room = roomArg(call, args);
      const jpeg = (await toHeadsets(call, room, 'capture_viewport', {})) as Uint8Array;
      return new ToolImage(jpeg, { room, mime_type: 'image/jpeg', bytes: jpeg.byteLength }, 'image/jpeg');
    },
  },
} satisfies Record<HeadsetToolName, McpTool>;
