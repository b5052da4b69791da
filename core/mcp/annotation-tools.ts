/**
 * @module annotation-tools
 * The agents' tools for a room's marks, rows of the one tool record (mcp-tools.ts): list them
 * with what the host measured (a page of them: a room holds up to 100,000), add one (checked as
 * the route checks it: a bad field is the same 400), remove one. Every change reaches the
 * room's peers as the routes' changes do.
 */
import { checkDraft, COLOR, MAX_LABEL_LENGTH } from '../annotations/check-annotation.ts';
import { ANNOTATION_KINDS } from '../wire/scene-types.ts';
import type { McpTool } from './mcp-tool.ts';
import { actingUser } from '../events/acting-user.ts';
import { roomArg } from './tool-calls.ts';
import { objectSchema } from './tool-schemas.ts';

/** Annotations one listing answers at most. */
const MAX_LISTED = 1000;

const POINT = { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3, description: '[x, y, z] in physical units' };

export const ANNOTATION_TOOLS = {
  list_annotations: {
    description:
      "Lists a room's annotations (points, lines, polylines, boxes, ellipsoids that peers placed), each with its id, label, points and what the host " +
      "measured: " +
      'length (lines, polylines) or volume (boxes, ellipsoids), in the physical units of its points. Answers the room\'s annotation version and at most ' +
      '`limit` of them.',
    input: ({ room }) =>
      objectSchema({
        room,
        kind: { enum: [...ANNOTATION_KINDS], description: 'Only annotations of this kind' },
        label: { type: 'string', description: 'Only annotations with this label' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_LISTED, description: `At most this many (default 200, at most ${MAX_LISTED})` },
      }),
    call: async (call, args) => {
      const room = roomArg(call, args);
      const { version, annotations } = await call.ctx.annotations.list(room);
      const matching = annotations.filter((a) => (args.kind === undefined || a.kind === args.kind) && (args.label === undefined || a.label === args.label));
      const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? Math.min(MAX_LISTED, Math.max(1, args.limit)) : 200;
      return { room, version, count: matching.length, annotations: matching.slice(0, limit) };
    },
  },
  add_annotation: {
    description:
      'Adds an annotation every peer of the room sees: a point (one point), line (its two ends: a ruler), polyline (two or more vertices), box (two ' +
      'opposite corners) ' +
      'or ellipsoid (its centre, then its three radii), in physical units. Answers it with its id and measurements.',
    input: ({ room }) =>
      objectSchema(
        {
          room,
          kind: {
            enum: [...ANNOTATION_KINDS],
            description: 'point (1 point), line (2), polyline (2 or more), box (2 opposite corners), ellipsoid (its centre, then its 3 radii)',
          },
          points: { type: 'array', items: POINT, minItems: 1, description: 'Its points [x, y, z] in physical units of the frame' },
          label: { type: 'string', maxLength: MAX_LABEL_LENGTH, description: 'A short name peers see (and plugins bind points by)' },
          color: { type: 'string', pattern: COLOR.source, description: '#rrggbb' },
          layer: { type: 'string', description: 'The layer whose frame the points are in (absent: the room\'s)' },
          properties: { type: 'object', description: 'At most 16 names, each a number or a string' },
          author: { type: 'string', maxLength: 64, description: 'Who placed it (absent: the agent)' },
        },
        ['kind', 'points'],
      ),
    call: async (call, args) => {
      const room = roomArg(call, args);
      const { room: _room, ...fields } = args;
      const draft = checkDraft(fields, '');
      // An agent known to the host writes under its own name, whatever its arguments say.
      const who = actingUser();
      const { annotations } = await call.ctx.annotations.add(room, [who ? { ...draft, author: who } : draft]);
      return { room, annotation: annotations[0] };
    },
  },
  remove_annotation: {
    description: 'Removes an annotation from a room, by its id (as list_annotations gives it).',
    input: ({ room }) => objectSchema({ room, id: { type: 'string', description: 'The annotation id (list_annotations lists them)' } }, ['id']),
    call: async (call, args) => {
      const room = roomArg(call, args);
      const { version } = await call.ctx.annotations.remove(room, String(args.id ?? ''));
      return { room, removed: String(args.id), version };
    },
  },
} satisfies Record<string, McpTool>;
