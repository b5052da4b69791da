/**
 * @module room-id
 * The one rule for the room ids requests and tools name (every HTTP route and every MCP tool
 * holds them to it): at most MAX_ROOM_ID_LENGTH characters, and no control characters (CR, LF,
 * NUL ...), since a room id is written into log lines, event streams and store keys.
 */
import { MAX_ROOM_ID_LENGTH } from './layer-slots.ts';

/** A room id holds no control character (JSON Schema pattern syntax). */
export const ROOM_ID_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$';

const CONTROL = /[\u0000-\u001f\u007f]/;

/** What is wrong with room id `id` (said after "room_id "), or null when it is sound. */
export function roomIdProblem(id: string): string | null {
  if (id.length > MAX_ROOM_ID_LENGTH) return `is longer than ${MAX_ROOM_ID_LENGTH} characters`;
  if (CONTROL.test(id)) return 'holds a control character (CR, LF, tab, NUL ...)';
  return null;
}
