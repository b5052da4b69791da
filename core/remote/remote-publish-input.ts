/**
 * @module remote-publish-input
 * What a `PUT /api/specimens/{id}` with `{"remote": "NAME/path"}` may say besides the
 * reference: the `level` it shows at its finest (0, the image's own finest, by default), the
 * `channel` and time step `t` it shows (all of them by default), `role: "labels"` for a
 * segmentation, and the catalog fields (`display_name`, `description`, `tags`). Checked first
 * on their own (a 400 naming the field), then against the image once its metadata is read.
 */
import { createHostError } from '../errors.ts';
import { isLabelDType } from '../results/label-fields.ts';
import { isRecord } from '../wire/json-object.ts';
import type { RemoteImage } from './remote-image.ts';
import type { RemoteSelection } from './read-remote-volume.ts';

export interface RemotePublishInput extends RemoteSelection {
  remote: string;
  level: number;
  labels: boolean;
  display_name: string | null;
  description: string | null;
  tags: string[];
  /** The room it is published for (its layers'): it then follows that room's access; absent, it is everyone's. */
  room?: string;
}

/** The members such a body may have. */
const FIELDS = new Set(['remote', 'level', 'channel', 't', 'role', 'display_name', 'description', 'tags', 'room']);

const bad = (why: string) => createHostError('SPC_ERR_PUBLISH_INVALID', why);

function index(name: string, value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw bad(`'${name}' must be a non-negative integer, got ${JSON.stringify(value)}`);
  return value as number;
}

function text(name: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > 10_000) throw bad(`'${name}' must be a string of at most 10000 characters`);
  return value;
}

/** Whether a JSON publish body asks for a remote. */
export function isRemoteBody(body: unknown): body is Record<string, unknown> {
  return isRecord(body) && 'remote' in body;
}

export function readRemotePublish(body: Record<string, unknown>): RemotePublishInput {
  const unknown = Object.keys(body).find((key) => !FIELDS.has(key));
  if (unknown !== undefined) throw bad(`'${unknown}' is not a field of a remote publish (${[...FIELDS].join(', ')})`);
  if (typeof body.remote !== 'string' || body.remote.trim() === '') throw bad("'remote' must be NAME/path, NAME a --remote of this host");
  const role = body.role ?? 'image';
  if (role !== 'image' && role !== 'labels') throw bad("'role' must be image or labels");
  const tags = body.tags ?? [];
  const tagsOk = Array.isArray(tags) && tags.length <= 64 && tags.every((t) => typeof t === 'string' && t.length <= 200);
  if (!tagsOk) throw bad("'tags' must be a list of at most 64 strings of at most 200 characters");
  return {
    remote: body.remote,
    level: index('level', body.level) ?? 0,
    channel: index('channel', body.channel),
    t: index('t', body.t),
    labels: role === 'labels',
    display_name: text('display_name', body.display_name),
    description: text('description', body.description),
    tags: tags as string[],
    ...(body.room !== undefined ? { room: roomOf(body.room) } : {}),
  };
}

function roomOf(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw bad("'room' must be a room's id");
  return value;
}

/** The input checked against the image it names: the level, channel and step exist, labels fit the dtype. */
export function checkAgainstImage(input: RemotePublishInput, image: RemoteImage): void {
  const count = image.levels.length;
  if (input.level >= count) throw bad(`'level' is ${input.level}, but the image has ${count} level(s) (0 to ${count - 1})`);
  const size = (axis: string) => {
    const at = image.axes.indexOf(axis);
    return at < 0 ? null : image.levels[0]!.shape[at]!;
  };
  for (const [name, axis, value] of [['channel', 'c', input.channel], ['t', 't', input.t]] as const) {
    if (value === null) continue;
    const n = size(axis);
    if (n === null) throw bad(`'${name}' is given, but the image's axes '${image.axes}' have no ${axis}`);
    if (value >= n) throw bad(`'${name}' is ${value}, but the image has ${n} along ${axis} (0 to ${n - 1})`);
  }
  if ((input.labels || image.labels) && !isLabelDType(image.dtype)) {
    throw bad(`a labels specimen must be uint8, uint16 or uint32, and the image is ${image.dtype}`);
  }
}
