/**
 * @module edit-tools
 * The agents' tools of a labels layer's edits: merge segments, split one by seed groups, paint
 * voxels, undo an edit. Each goes through the same service and checks as the edit routes (a bad
 * field is refused naming it), is made by whoever asked (the call runs as its caller, whose
 * write access to the room was checked before it), and every follower of the room sees it.
 */
import { LAYER_ID_PROPERTY } from '../scenes/layer-schema.ts';
import type { McpTool, ToolArgs, ToolCallContext } from './mcp-tool.ts';
import { roomArg } from './tool-calls.ts';
import { objectSchema } from './tool-schemas.ts';

const VOXEL = { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 3, maxItems: 3, description: '[z, y, x], voxel indices of level 0' };
const ID = { type: 'integer', minimum: 0, maximum: 4294967295 };
const LAYER = { ...LAYER_ID_PROPERTY, description: 'The labels layer (get_scene lists the layers)' };

/** Runs an edit of the call's layer. */
async function editWith(call: ToolCallContext, args: ToolArgs, edit: Record<string, unknown>) {
  const room = roomArg(call, args);
  const layer = String(args.layer ?? '');
  return { room, layer, ...(await call.ctx.editing.edit(room, layer, edit)) };
}

export const EDIT_TOOLS = {
  merge_segments: {
    description:
      "Merges segments of a room's labels layer: every voxel of each listed id becomes the first id (2 to 1,000 ids, each present). Everyone in the " +
      'room sees it; undo_edit takes it back. Answers seq, version and the segments changed.',
    input: ({ room }) =>
      objectSchema(
        {
          room,
          layer: LAYER,
          segments: { type: 'array', items: ID, minItems: 2, maxItems: 1000, description: 'The segment ids; the first is what the others become' },
        },
        ['layer', 'segments'],
      ),
    call: (call, args) => editWith(call, args, { op: 'merge', segments: args.segments }),
  },
  split_segment: {
    description:
      'Splits a segment of a labels layer by seed groups (2 to 16 groups of 1 to 64 voxels of the segment): each voxel of it goes to the group whose ' +
      'seed it reaches first through the segment; group 0 keeps the id, the others get new ids. Answers seq, version and the new ids.',
    input: ({ room }) =>
      objectSchema(
        {
          room,
          layer: LAYER,
          segment: { ...ID, description: 'The segment split' },
          seeds: {
            type: 'array',
            items: { type: 'array', items: VOXEL, minItems: 1, maxItems: 64 },
            minItems: 2,
            maxItems: 16,
            description: 'Seed groups, each a list of voxels [z, y, x] of the segment',
          },
        },
        ['layer', 'segment', 'seeds'],
      ),
    call: (call, args) => editWith(call, args, { op: 'split', segment: args.segment, seeds: args.seeds }),
  },
  paint_labels: {
    description:
      'Paints a labels layer: every voxel within `radius` (0 to 64 voxels) of `center`, or each of `voxels` (at most 100,000), becomes `label` ' +
      '(0 erases); with `only`, only voxels that hold that id now.',
    input: ({ room }) =>
      objectSchema(
        {
          room,
          layer: LAYER,
          label: { ...ID, description: 'The id painted (0 erases)' },
          center: { ...VOXEL, description: 'The centre of the ball painted, [z, y, x]' },
          radius: { type: 'number', minimum: 0, maximum: 64, description: 'The ball\'s radius in voxels (Euclidean distance)' },
          voxels: { type: 'array', items: VOXEL, maxItems: 100_000, description: 'Voxels [z, y, x] painted instead of a ball' },
          only: { ...ID, description: 'Paint only voxels that hold this id now' },
        },
        ['layer', 'label'],
      ),
    call: (call, args) => {
      const { room: _room, layer: _layer, ...fields } = args;
      return editWith(call, args, { op: 'paint', ...fields });
    },
  },
  undo_edit: {
    description:
      "Undoes an edit of a labels layer (its seq, from the edit's answer or the room's log) as a new edit. Refused while a later edit still in " +
      'effect changed what it changed: undo that one first.',
    input: ({ room }) =>
      objectSchema({ room, layer: LAYER, seq: { type: 'integer', minimum: 1, description: 'The seq of the edit undone' } }, ['layer', 'seq']),
    call: async (call, args) => {
      const room = roomArg(call, args);
      const layer = String(args.layer ?? '');
      return { room, layer, ...(await call.ctx.editing.reverse(room, layer, 'undo', Number(args.seq))) };
    },
  },
} satisfies Record<string, McpTool>;
