/**
 * @module history-scripts
 * The script that appends to a room's log on a Redis service, part of the one script table
 * (redis-scripts.ts, whose prelude gives it `P`). Numbering and storing in one step is what
 * gives every host of the service one order: no two appends share a seq, none is skipped.
 */

export const HISTORY_SCRIPTS = {
  /**
   * ARGV room, now (ms), ttlMs, body (the entry's JSON without its opening brace, seq and ts)
   * → the entry's JSON. Its ts never goes back within the room; entries past the time-to-live
   * go from the front (a bounded number per append), and the whole log goes after the
   * time-to-live without an append (its head a day later).
   */
  vLogAppend: {
    keys: 0,
    lua: `
local log = P .. 'log:' .. ARGV[1]
local head = P .. 'loghead:' .. ARGV[1]
local ttl = tonumber(ARGV[3])
local seq = redis.call('HINCRBY', head, 'seq', 1)
local ts = math.max(tonumber(ARGV[2]), tonumber(redis.call('HGET', head, 'ts') or '0'))
redis.call('HSET', head, 'ts', string.format('%.0f', ts))
local json = '{"seq":' .. seq .. ',"ts":' .. string.format('%.0f', ts) .. ',' .. ARGV[4]
redis.call('ZADD', log, seq, json)
local oldest = ts - ttl
for _ = 1, 100 do
  local first = redis.call('ZRANGE', log, 0, 0)[1]
  if not first then break end
  local at = tonumber(string.match(first, '"ts":(%d+)') or '0')
  if at >= oldest then break end
  redis.call('ZREMRANGEBYRANK', log, 0, 0)
end
redis.call('PEXPIRE', log, ttl)
-- The head outlives its entries by a day, so a quiet room's seqs carry on rather than restart.
redis.call('PEXPIRE', head, ttl + 86400000)
return json`,
  },
} as const;
