/**
 * @module room-scripts
 * The scripts that move a room's entry between cache slots and change a room's scene, view and
 * shown specimen, part of the one script table (redis-scripts.ts, whose prelude gives them `P`,
 * the key prefix, and `logAppend`). Each changes its keys, appends its change to the room's log
 * and tells every host in one step.
 */

/** A room's access set from ARGV[3], logged and told to every host: the end of both access scripts. */
const ACCESS_STORED = `redis.call('SET', key, ARGV[3])
logAppend(ARGV[1], ARGV[4], ARGV[5], ARGV[6])
redis.call('PUBLISH', P .. 'events:access', ARGV[1])`;

export const ROOM_SCRIPTS = {
  /**
   * ARGV from, to, now, cacheTtlMs → 1 when room `from`'s entry became room `to`'s too (the same
   * blob, nothing computed; every host drops its pointer of `to` and `to`'s followers get the
   * `result` event), 0 when `from` holds none.
   */
  vCopyRoom: {
    keys: 0,
    lua: `
local h = redis.call('HMGET', P .. 'room:' .. ARGV[1], 'key', 'hash', 'meta', 'fn', 'state')
if not h[1] or not h[2] or not h[3] or not h[5] then return 0 end
local room = P .. 'room:' .. ARGV[2]
redis.call('DEL', room)
redis.call('HSET', room, 'key', h[1], 'hash', h[2], 'meta', h[3], 'fn', h[4] or '', 'state', h[5], 'created', ARGV[3], 'hits', 1)
redis.call('PEXPIRE', room, ARGV[4])
redis.call('ZADD', P .. 'rooms', tonumber(ARGV[3]) + tonumber(ARGV[4]), ARGV[2])
redis.call('PUBLISH', P .. 'events:pointer', ARGV[2])
redis.call('PUBLISH', P .. 'events:room', '{"room":' .. cjson.encode(ARGV[2]) .. ',"event":"result","data":' .. h[5] .. '}')
return 1`,
  },
  /**
   * ARGV room, version, json, ttlMs, event, now, logTtlMs, logBody → 1 when the room's scene
   * was still at `version` and is now `json` (at version + 1, its log entry appended and its
   * `scene` event sent to every host in the same step, so events leave in the order of the
   * versions), else 0 and nothing changed.
   */
  vSceneWrite: {
    keys: 0,
    lua: `
local key = P .. 'scene:' .. ARGV[1]
if tonumber(redis.call('HGET', key, 'v') or '0') ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', key, 'v', tonumber(ARGV[2]) + 1, 'json', ARGV[3])
redis.call('PEXPIRE', key, ARGV[4])
logAppend(ARGV[1], ARGV[6], ARGV[7], ARGV[8])
redis.call('PUBLISH', P .. 'events:room', ARGV[5])
return 1`,
  },
  /**
   * ARGV id, json, ttlMs, room | '', now, logTtlMs, logBody → the log entry's JSON when taken
   * of a room (appended in the same step), else nil: a snapshot's record kept for `ttlMs`.
   */
  vSnapshotPut: {
    keys: 0,
    lua: `
redis.call('SET', P .. 'snapshot:' .. ARGV[1], ARGV[2], 'PX', ARGV[3])
if ARGV[4] == '' then return false end
return logAppend(ARGV[4], ARGV[5], ARGV[6], ARGV[7])`,
  },
  /**
   * ARGV room, expected owner ('' for an open room), access (JSON), now, logTtlMs, logBody →
   * {1, access} when the room's owner was still the one expected and the access is now set
   * (logged in the same step), else {0, the access it has ('' when open)}.
   */
  vAccessSet: {
    keys: 0,
    lua: `
local key = P .. 'access:' .. ARGV[1]
local cur = redis.call('GET', key)
local owner = ''
if cur then owner = cjson.decode(cur).owner end
if owner ~= ARGV[2] then return {0, cur or ''} end
${ACCESS_STORED}
return {1, ARGV[3]}`,
  },
  /**
   * ARGV room, access as read (JSON), access to store, now, logTtlMs, logBody → 1 when the room's
   * access was still as read and is now the one given (logged in the same step), else 0.
   */
  vAccessReplace: {
    keys: 0,
    lua: `
local key = P .. 'access:' .. ARGV[1]
if redis.call('GET', key) ~= ARGV[2] then return 0 end
${ACCESS_STORED}
return 1`,
  },
  /**
   * ARGV room, key (view|shown), json ('' removes it), ttlMs, now, logTtlMs, logBody: a room's
   * view or the static specimen it shows set, with its log entry, in one step.
   */
  vBoardSet: {
    keys: 0,
    lua: `
local key = P .. ARGV[2] .. ':' .. ARGV[1]
if ARGV[3] == '' then redis.call('DEL', key) else redis.call('SET', key, ARGV[3], 'PX', ARGV[4]) end
logAppend(ARGV[1], ARGV[5], ARGV[6], ARGV[7])
return 1`,
  },
} as const;
