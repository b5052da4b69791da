/**
 * @module room-scripts
 * The scripts that move a room's entry between cache slots and change a room's scene, part of
 * the one script table (redis-scripts.ts, whose prelude gives them `P`, the key prefix). Each
 * changes its keys and tells every host in one step.
 */

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
   * ARGV room, version, json, ttlMs, event → 1 when the room's scene was still at `version`
   * and is now `json` (at version + 1; its `scene` event sent to every host in the same step,
   * so events leave in the order of the versions), else 0 and nothing changed.
   */
  vSceneWrite: {
    keys: 0,
    lua: `
local key = P .. 'scene:' .. ARGV[1]
if tonumber(redis.call('HGET', key, 'v') or '0') ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', key, 'v', tonumber(ARGV[2]) + 1, 'json', ARGV[3])
redis.call('PEXPIRE', key, ARGV[4])
redis.call('PUBLISH', P .. 'events:room', ARGV[5])
return 1`,
  },
} as const;
