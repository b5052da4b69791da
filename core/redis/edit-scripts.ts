/**
 * @module edit-scripts
 * The script of a labels layer's edits, part of the one script table (redis-scripts.ts, whose
 * prelude gives it `P` and `logAppend`). One step keeps the edits at the layer's next versions
 * (refused when another host kept one first), appends each to the room's log and publishes its
 * `labels` event, so every host of a service applies a layer's edits in one order and its
 * followers get them in that order. Key (redis-keys.ts): `edits:{layer}:{room}`, a list whose
 * n-th element is version n's record, which is the edit's log entry.
 */

export const EDIT_SCRIPTS = {
  /**
   * ARGV room, roomJson, layer, expected version, then for each edit: now (ms), logTtlMs, body
   * (the entry's JSON without its opening brace, seq and ts) → a JSON array of the records, or
   * false when the layer is not at `expected` (nothing kept).
   */
  vEditAppend: {
    keys: 0,
    lua: `
local key = P .. 'edits:' .. ARGV[3] .. ':' .. ARGV[1]
if redis.call('LLEN', key) ~= tonumber(ARGV[4]) then return false end
local records = {}
for i = 5, #ARGV, 3 do
  local json = logAppend(ARGV[1], ARGV[i], ARGV[i + 1], ARGV[i + 2])
  redis.call('RPUSH', key, json)
  redis.call('PUBLISH', P .. 'events:room', '{"room":' .. ARGV[2] .. ',"event":"labels","data":' .. json .. '}')
  records[#records + 1] = json
end
return '[' .. table.concat(records, ',') .. ']'`,
  },
} as const;
