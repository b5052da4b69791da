/**
 * @module history-scripts
 * The scripts of a room's history and presence on a Redis service, part of the one script
 * table (redis-scripts.ts, whose prelude gives them `P` and `logAppend`). Numbering and storing
 * a log entry in one step is what gives every host of the service one order: no two appends
 * share a seq, none is skipped. Every script that changes a room appends the change's entry with
 * `logAppend` in the same script, so the room and its log change together or not at all. A
 * roster's heartbeat refreshes only peers still listed, so a peer another host took out as gone
 * is never listed again without its join being announced.
 */

/**
 * `logAppend(room, now (ms), ttlMs, body)` (part of every script's prelude): appends an entry
 * whose body is its JSON without the opening brace, seq and ts; answers the entry's JSON. Its
 * ts never goes back within the room; entries past the time-to-live go from the front (a
 * bounded number per append), and the whole log goes after the time-to-live without an append
 * (its head a day later).
 */
export const LOG_APPEND = `
local function logAppend(room, now, ttlMs, body)
  local log = P .. 'log:' .. room
  local head = P .. 'loghead:' .. room
  local ttl = tonumber(ttlMs)
  local seq = redis.call('HINCRBY', head, 'seq', 1)
  local ts = math.max(tonumber(now), tonumber(redis.call('HGET', head, 'ts') or '0'))
  redis.call('HSET', head, 'ts', string.format('%.0f', ts))
  local json = '{"seq":' .. seq .. ',"ts":' .. string.format('%.0f', ts) .. ',' .. body
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
  return json
end
`;

export const HISTORY_SCRIPTS = {
  /** ARGV room, now (ms), ttlMs, body → the entry's JSON: an entry that changes no store (a replay started). */
  vLogAppend: { keys: 0, lua: `return logAppend(ARGV[1], ARGV[2], ARGV[3], ARGV[4])` },
  /**
   * ARGV room, ttlMs, then id, json pairs → the ids no longer listed (their host re-joins them).
   * The roster's hash lives a day past its last heartbeat.
   */
  vPresenceBeat: {
    keys: 0,
    lua: `
local roster = P .. 'presence:' .. ARGV[1]
local missing = {}
for i = 3, #ARGV, 2 do
  if redis.call('HEXISTS', roster, ARGV[i]) == 1 then redis.call('HSET', roster, ARGV[i], ARGV[i + 1])
  else table.insert(missing, ARGV[i]) end
end
redis.call('PEXPIRE', roster, 86400000)
return missing`,
  },
} as const;
