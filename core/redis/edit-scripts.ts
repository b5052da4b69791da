/**
 * @module edit-scripts
 * The script of a labels layer's edits, part of the one script table (redis-scripts.ts, whose
 * prelude gives it `P` and `logAppend`). One step keeps the edit at the layer's next version
 * (refused when another host kept one first), appends it to the room's log and publishes the
 * `labels` event, so every host of a service applies a layer's edits in one order and its
 * followers get them in that order. Key (redis-keys.ts): `edits:{layer}:{room}`, a list whose
 * n-th element is version n's record, which is the edit's log entry.
 */

export const EDIT_SCRIPTS = {
  /**
   * ARGV room, roomJson, layer, expected version, now (ms), logTtlMs, body (the entry's JSON
   * without its opening brace, seq and ts) → the record's JSON, or false when the layer is not at
   * `expected` (nothing kept).
   */
  vEditAppend: {
    keys: 0,
    lua: `
local key = P .. 'edits:' .. ARGV[3] .. ':' .. ARGV[1]
if redis.call('LLEN', key) ~= tonumber(ARGV[4]) then return false end
local json = logAppend(ARGV[1], ARGV[5], ARGV[6], ARGV[7])
redis.call('RPUSH', key, json)
redis.call('PUBLISH', P .. 'events:room', '{"room":' .. ARGV[2] .. ',"event":"labels","data":' .. json .. '}')
return json`,
  },
} as const;
