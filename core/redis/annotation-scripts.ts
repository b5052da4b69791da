/**
 * @module annotation-scripts
 * The Lua scripts of a room's annotations (part of the one script table, redis-scripts.ts).
 * Each change is one script: the annotation is written, the room's version moved and the event
 * published on the room channel in one step, so every host's followers get the events in
 * version order, and none is sent for a change that was not made. A change touches its own
 * hash field only: a room of 100,000 annotations costs a change nothing more than an empty one.
 * Keys (redis-keys.ts): `ann:{room}` (id → JSON) and `annmeta:{room}` (`version`, `last` id).
 * An event is `{"room", "event": "annotation", "data": {"op", "annotation", "version"}}`, the
 * annotation's JSON spliced in as the host wrote it.
 */

const EVENT = `
local function annEvent(roomJson, op, json, v)
  return '{"room":' .. roomJson .. ',"event":"annotation","data":{"op":"' .. op .. '","annotation":' .. json .. ',"version":' .. string.format('%d', v) .. '}}'
end
`;

/**
 * The start of a script on one annotation (ARGV room, roomJson, id, ...): `key` its room's
 * hash and `cur` its JSON, {-1, 0} when there is none; `moved(op, json)` moves the room's
 * version by one, publishes the event of `op` at it and gives it.
 */
const ONE = `
local key = P .. 'ann:' .. ARGV[1]
local cur = redis.call('HGET', key, ARGV[3])
if not cur then return {-1, 0} end
local function moved(op, json)
  local v = redis.call('HINCRBY', P .. 'annmeta:' .. ARGV[1], 'version', 1)
  redis.call('PUBLISH', P .. 'events:room', annEvent(ARGV[2], op, json, v))
  return v
end
`;

export const ANNOTATION_SCRIPTS = {
  /**
   * ARGV room, roomJson, max, batch (past this many annotations only the last sends its
   * event), then id, json pairs → {version, 0}, or {-1, held} when the room would pass `max` (nothing added).
   */
  vAnnAdd: {
    keys: 0,
    lua: `${EVENT}
local key, meta = P .. 'ann:' .. ARGV[1], P .. 'annmeta:' .. ARGV[1]
local n = (#ARGV - 4) / 2
local held = redis.call('HLEN', key)
if held + n > tonumber(ARGV[3]) then return {-1, held} end
local v = tonumber(redis.call('HGET', meta, 'version') or '0')
for i = 1, n do
  local json = ARGV[4 + 2 * i]
  redis.call('HSET', key, ARGV[3 + 2 * i], json)
  v = v + 1
  if n <= tonumber(ARGV[4]) or i == n then redis.call('PUBLISH', P .. 'events:room', annEvent(ARGV[2], 'add', json, v)) end
end
redis.call('HSET', meta, 'version', v)
return {v, 0}`,
  },
  /**
   * ARGV room, roomJson, id, expected, json → {version, 0}; {-1, 0} when there is no such
   * annotation; {-2, current} when it is not at version \`expected\` (nothing changed).
   */
  vAnnChange: {
    keys: 0,
    lua: `${EVENT}${ONE}
local cv = cjson.decode(cur).version
if cv ~= tonumber(ARGV[4]) then return {-2, cv} end
redis.call('HSET', key, ARGV[3], ARGV[5])
return {moved('change', ARGV[5]), 0}`,
  },
  /** ARGV room, roomJson, id, expected | '' → {version, 0, json} of the removed one; {-1, 0} or {-2, current} as vAnnChange. */
  vAnnRemove: {
    keys: 0,
    lua: `${EVENT}${ONE}
if ARGV[4] ~= '' then
  local cv = cjson.decode(cur).version
  if cv ~= tonumber(ARGV[4]) then return {-2, cv} end
end
redis.call('HDEL', key, ARGV[3])
return {moved('remove', cur), 0, cur}`,
  },
  /**
   * ARGV room, roomJson, batch (as vAnnAdd, of removals and additions together), lastId, then id, json pairs → the version after: the room's
   * annotations become these (each old one removed, each new one added, one version each), and
   * later ids stay past \`lastId\`.
   */
  vAnnReplace: {
    keys: 0,
    lua: `${EVENT}
local key, meta = P .. 'ann:' .. ARGV[1], P .. 'annmeta:' .. ARGV[1]
local old = redis.call('HVALS', key)
local n = (#ARGV - 4) / 2
local total = #old + n
local v = tonumber(redis.call('HGET', meta, 'version') or '0')
local k = 0
local function send(op, json)
  v = v + 1
  k = k + 1
  if total <= tonumber(ARGV[3]) or k == total then redis.call('PUBLISH', P .. 'events:room', annEvent(ARGV[2], op, json, v)) end
end
redis.call('DEL', key)
for _, json in ipairs(old) do send('remove', json) end
for i = 1, n do
  redis.call('HSET', key, ARGV[3 + 2 * i], ARGV[4 + 2 * i])
  send('add', ARGV[4 + 2 * i])
end
redis.call('HSET', meta, 'version', v)
if tonumber(redis.call('HGET', meta, 'last') or '0') < tonumber(ARGV[4]) then redis.call('HSET', meta, 'last', ARGV[4]) end
return v`,
  },
} as const;
