/**
 * @module annotation-scripts
 * The Lua scripts of a room's annotations (part of the one script table, redis-scripts.ts).
 * Each change is one script: the annotation is written, the room's version moved, the change
 * appended to the room's log and the event published on the room channel in one step, so every
 * host's followers get the events in version order, none is sent for a change that was not
 * made, and the log has every change the room has. A change touches its own
 * hash field only: a room of 100,000 annotations costs a change nothing more than an empty one.
 * Keys (redis-keys.ts): `ann:{room}` (id → JSON) and `annmeta:{room}` (`version`, `last` id).
 * An event is `{"room", "event": "annotation", "data": {"op", "annotation", "version"}}`, the
 * annotation's JSON spliced in as the host wrote it; a log entry is
 * `{"seq", "ts", "by", "type": "annotation", "op", "annotation" | "annotations", "version"}`, as
 * history/room-changes.ts makes it on the other homes (a batch in entries of at most a given
 * number of marks). Every script takes ARGV room, roomJson, now (ms), the log's ttlMs and who
 * makes the change (JSON) first; what it takes besides follows from ARGV[6].
 */

const EVENT = `
local function annEvent(roomJson, op, json, v)
  return '{"room":' .. roomJson .. ',"event":"annotation","data":{"op":"' .. op .. '","annotation":' .. json .. ',"version":' .. string.format('%d', v) .. '}}'
end
local function annLog(fields)
  logAppend(ARGV[1], ARGV[3], ARGV[4], '"by":' .. ARGV[5] .. ',"type":"annotation",' .. fields .. '}')
end
local function marksLog(op, jsons, v)
  annLog('"op":"' .. op .. '","annotations":[' .. table.concat(jsons, ',') .. '],"version":' .. string.format('%d', v))
end
`;

/**
 * The start of a script on one annotation (ARGV ..., id, ...): `key` its room's hash and `cur`
 * its JSON, {-1, 0} when there is none; `moved(op, json)` moves the room's version by one,
 * logs and publishes the change of `op` at it and gives it.
 */
const ONE = `
local key = P .. 'ann:' .. ARGV[1]
local cur = redis.call('HGET', key, ARGV[6])
if not cur then return {-1, 0} end
local function moved(op, json)
  local v = redis.call('HINCRBY', P .. 'annmeta:' .. ARGV[1], 'version', 1)
  annLog('"op":"' .. op .. '","annotation":' .. json .. ',"version":' .. string.format('%d', v))
  redis.call('PUBLISH', P .. 'events:room', annEvent(ARGV[2], op, json, v))
  return v
end
`;

export const ANNOTATION_SCRIPTS = {
  /**
   * ARGV ..., max, batch (past this many annotations only the last sends its event), logged
   * (marks per log entry), then id, json pairs → {version, 0}, or {-1, held} when the room
   * would pass `max` (nothing added).
   */
  vAnnAdd: {
    keys: 0,
    lua: `${EVENT}
local key, meta = P .. 'ann:' .. ARGV[1], P .. 'annmeta:' .. ARGV[1]
local n = (#ARGV - 8) / 2
local held = redis.call('HLEN', key)
if held + n > tonumber(ARGV[6]) then return {-1, held} end
local v = tonumber(redis.call('HGET', meta, 'version') or '0')
local part = {}
for i = 1, n do
  local json = ARGV[8 + 2 * i]
  redis.call('HSET', key, ARGV[7 + 2 * i], json)
  v = v + 1
  if n <= tonumber(ARGV[7]) or i == n then redis.call('PUBLISH', P .. 'events:room', annEvent(ARGV[2], 'add', json, v)) end
  table.insert(part, json)
  if #part == tonumber(ARGV[8]) or i == n then
    marksLog('add', part, v)
    part = {}
  end
end
redis.call('HSET', meta, 'version', v)
return {v, 0}`,
  },
  /**
   * ARGV ..., id, expected, json → {version, 0}; {-1, 0} when there is no such annotation;
   * {-2, current} when it is not at version \`expected\` (nothing changed).
   */
  vAnnChange: {
    keys: 0,
    lua: `${EVENT}${ONE}
local cv = cjson.decode(cur).version
if cv ~= tonumber(ARGV[7]) then return {-2, cv} end
redis.call('HSET', key, ARGV[6], ARGV[8])
return {moved('change', ARGV[8]), 0}`,
  },
  /** ARGV ..., id, expected | '' → {version, 0, json} of the removed one; {-1, 0} or {-2, current} as vAnnChange. */
  vAnnRemove: {
    keys: 0,
    lua: `${EVENT}${ONE}
if ARGV[7] ~= '' then
  local cv = cjson.decode(cur).version
  if cv ~= tonumber(ARGV[7]) then return {-2, cv} end
end
redis.call('HDEL', key, ARGV[6])
return {moved('remove', cur), 0, cur}`,
  },
  /**
   * ARGV ..., batch (as vAnnAdd, of removals and additions together), lastId, then id, json
   * pairs → the version after: the room's annotations become these (each old one removed, each
   * new one added, one version each; one `replace` entry in the log), and later ids stay past
   * \`lastId\`.
   */
  vAnnReplace: {
    keys: 0,
    lua: `${EVENT}
local key, meta = P .. 'ann:' .. ARGV[1], P .. 'annmeta:' .. ARGV[1]
local old = redis.call('HVALS', key)
local n = (#ARGV - 7) / 2
local total = #old + n
local v = tonumber(redis.call('HGET', meta, 'version') or '0')
local k = 0
local function send(op, json)
  v = v + 1
  k = k + 1
  if total <= tonumber(ARGV[6]) or k == total then redis.call('PUBLISH', P .. 'events:room', annEvent(ARGV[2], op, json, v)) end
end
redis.call('DEL', key)
for _, json in ipairs(old) do send('remove', json) end
local incoming = {}
for i = 1, n do
  redis.call('HSET', key, ARGV[6 + 2 * i], ARGV[7 + 2 * i])
  send('add', ARGV[7 + 2 * i])
  table.insert(incoming, ARGV[7 + 2 * i])
end
redis.call('HSET', meta, 'version', v)
if tonumber(redis.call('HGET', meta, 'last') or '0') < tonumber(ARGV[7]) then redis.call('HSET', meta, 'last', ARGV[7]) end
marksLog('replace', incoming, v)
return v`,
  },
} as const;
