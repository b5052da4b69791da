/**
 * @module redis-scripts
 * The Lua scripts that change a Redis service's shared state. Each runs atomically in Redis,
 * so every host sees a computation, a job or a room entry change in one step (a reader never
 * sees a job done without its last progress message, a room pointer without its result).
 * A room's annotations have their scripts in annotation-scripts.ts, part of this table.
 * Keys are built inside the scripts from ids (see redis-keys.ts for what each holds), which
 * suits one Redis server or a replicated pair; a Redis Cluster would need hash tags.
 */
import type { Redis } from 'ioredis';
import { AGENT_SCRIPTS } from './agent-scripts.ts';
import { ANNOTATION_SCRIPTS } from './annotation-scripts.ts';
import { EDIT_SCRIPTS } from './edit-scripts.ts';
import { HISTORY_SCRIPTS, LOG_APPEND } from './history-scripts.ts';
import { ROOM_SCRIPTS } from './room-scripts.ts';

const PRELUDE = `
local P = 'vitrine:'
local function expireComp(cid, ttl)
  local comp = P .. 'comp:' .. cid
  redis.call('PEXPIRE', comp, ttl)
  redis.call('PEXPIRE', comp .. ':log', ttl)
  redis.call('PEXPIRE', comp .. ':jobs', ttl)
  redis.call('PEXPIRE', comp .. ':waiters', ttl)
  for _, j in ipairs(redis.call('SMEMBERS', comp .. ':jobs')) do
    redis.call('PEXPIRE', P .. 'job:' .. j, ttl)
  end
end
local function orNull(value)
  if value and value ~= '' then return value end
  return cjson.null
end
-- Ends a running computation with an error, and tells its room's followers (the 'failed' event)
-- that no result will come.
local function failComp(cid, err, code, ttl)
  local comp = P .. 'comp:' .. cid
  local c = redis.call('HMGET', comp, 'status', 'flight', 'room', 'fn', 'specimen', 'job')
  if c[1] ~= 'running' then return 0 end
  redis.call('HSET', comp, 'status', 'error', 'error', err, 'code', code)
  if c[2] and redis.call('GET', c[2]) == cid then redis.call('DEL', c[2]) end
  expireComp(cid, ttl)
  redis.call('PUBLISH', P .. 'events:nudge', cid)
  if c[3] then
    local data = {function_name = orNull(c[4]), specimen_id = orNull(c[5]), job_id = orNull(c[6]), code = code, detail = err}
    redis.call('PUBLISH', P .. 'events:room', cjson.encode({room = c[3], event = 'failed', data = data}))
  end
  return 1
end
-- Who still waits on a computation: its jobs, and the requests of hosts whose heartbeat is
-- alive (a killed host's waiters stop counting when its heartbeat expires).
local function liveWaiters(cid)
  local comp = P .. 'comp:' .. cid
  local n = tonumber(redis.call('HGET', comp, 'refs') or '0')
  local w = redis.call('HGETALL', comp .. ':waiters')
  if #w == 0 then return n end
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for i = 1, #w, 2 do
    local count = tonumber(w[i + 1])
    local alive = redis.call('ZSCORE', P .. 'hosts', w[i])
    if count > 0 and alive and tonumber(alive) > now then n = n + count end
  end
  return n
end
-- A waiter leaves: a job (host '') or a request of host 'host'.
local function release(cid, ttl, host)
  local comp = P .. 'comp:' .. cid
  if host and host ~= '' then
    if redis.call('HINCRBY', comp .. ':waiters', host, -1) <= 0 then redis.call('HDEL', comp .. ':waiters', host) end
  else
    redis.call('HINCRBY', comp, 'refs', -1)
  end
  if liveWaiters(cid) > 0 or redis.call('HGET', comp, 'status') ~= 'running' then return 0 end
  redis.call('HSET', comp, 'cancel', 1)
  failComp(cid, 'cancelled', 'SPC_ERR_JOB_CANCELLED', ttl)
  redis.call('PUBLISH', P .. 'events:cancel', cid)
  return 1
end
${LOG_APPEND}`;

const SCRIPTS = {
  ...ROOM_SCRIPTS,
  /**
   * KEYS room → {key, hash, meta, pttl} of the room's entry, or nil. Whether the blob's bytes
   * are still there is the blob store's to say (it may be another Redis).
   */
  vPointer: {
    keys: 1,
    lua: `
local h = redis.call('HMGET', KEYS[1], 'key', 'hash', 'meta')
if not h[1] or not h[2] or not h[3] then return false end
return {h[1], h[2], h[3], redis.call('PTTL', KEYS[1])}`,
  },
  /** ARGV room, key, n, ...: adds n hits to each room still holding that key. */
  vCountHits: {
    keys: 0,
    lua: `
for i = 1, #ARGV, 3 do
  local room = P .. 'room:' .. ARGV[i]
  if redis.call('HGET', room, 'key') == ARGV[i + 1] then redis.call('HINCRBY', room, 'hits', tonumber(ARGV[i + 2])) end
end
return 0`,
  },
  /** ARGV room: drops the room's entry and tells every host. */
  vForget: {
    keys: 0,
    lua: `
redis.call('DEL', P .. 'room:' .. ARGV[1])
redis.call('PUBLISH', P .. 'events:pointer', ARGV[1])
return 0`,
  },
  /**
   * ARGV flight, newCid, runTtlMs, fn, room, now, jobId|'', specimen, key, host →
   * {cid, created}. Joins the running computation of these values in this room, or claims a
   * new one; counts the caller as one of its waiters (a job for itself, a request under its
   * host), and records the job (if any) as following it.
   */
  vClaim: {
    keys: 0,
    lua: `
local cid = ARGV[2]
local created = 0
local existing = redis.call('GET', ARGV[1])
if existing and redis.call('HGET', P .. 'comp:' .. existing, 'status') == 'running' then
  cid = existing
else
  local comp = P .. 'comp:' .. cid
  redis.call('SET', ARGV[1], cid, 'PX', ARGV[3])
  redis.call('HSET', comp, 'status', 'running', 'seq', 0, 'refs', 0, 'fn', ARGV[4], 'room', ARGV[5], 'created', ARGV[6],
    'flight', ARGV[1], 'key', ARGV[9], 'specimen', ARGV[8], 'job', ARGV[7])
  redis.call('PEXPIRE', comp, ARGV[3])
  created = 1
end
local comp = P .. 'comp:' .. cid
if ARGV[7] == '' then
  redis.call('HINCRBY', comp .. ':waiters', ARGV[10], 1)
  redis.call('PEXPIRE', comp .. ':waiters', redis.call('PTTL', comp))
else
  redis.call('HINCRBY', comp, 'refs', 1)
end
if ARGV[7] ~= '' then
  local job = P .. 'job:' .. ARGV[7]
  local ttl = redis.call('PTTL', comp)
  redis.call('HSET', job, 'comp', cid, 'fn', ARGV[4], 'room', ARGV[5], 'specimen', ARGV[8], 'created', ARGV[6])
  redis.call('PEXPIRE', job, ttl)
  redis.call('SADD', comp .. ':jobs', ARGV[7])
  redis.call('PEXPIRE', comp .. ':jobs', ttl)
end
return {cid, created}`,
  },
  /** ARGV cid, text, ts, fraction|'', maxlen → the message's seq, or -1 once the computation ended. */
  vProgress: {
    keys: 0,
    lua: `
local comp = P .. 'comp:' .. ARGV[1]
if redis.call('HGET', comp, 'status') ~= 'running' then return -1 end
local seq = redis.call('HINCRBY', comp, 'seq', 1) - 1
local log = comp .. ':log'
if ARGV[4] == '' then
  redis.call('XADD', log, 'MAXLEN', ARGV[5], seq .. '-1', 't', ARGV[2], 'ts', ARGV[3])
else
  redis.call('XADD', log, 'MAXLEN', ARGV[5], seq .. '-1', 't', ARGV[2], 'ts', ARGV[3], 'f', ARGV[4])
end
local ttl = redis.call('PTTL', comp)
if ttl > 0 then redis.call('PEXPIRE', log, ttl) end
redis.call('PUBLISH', P .. 'events:nudge', ARGV[1])
return seq`,
  },
  /**
   * ARGV cid, hash, meta, state, now, cacheTtlMs, jobTtlMs, roomEvent, stored ('1'|'0') → 1,
   * or 0 when the computation had already ended (cancelled). Marks it done and tells every
   * host; a stored result becomes the room's entry, one the blob store refused does not (only
   * the computing process holds it: its waiters read it there, others compute again).
   */
  vFinish: {
    keys: 0,
    lua: `
local comp = P .. 'comp:' .. ARGV[1]
local c = redis.call('HMGET', comp, 'status', 'room', 'key', 'fn', 'flight')
if c[1] ~= 'running' then return 0 end
redis.call('HSET', comp, 'status', 'done', 'hash', ARGV[2], 'meta', ARGV[3])
if redis.call('GET', c[5]) == ARGV[1] then redis.call('DEL', c[5]) end
if ARGV[9] == '1' then
  local room = P .. 'room:' .. c[2]
  redis.call('DEL', room)
  redis.call('HSET', room, 'key', c[3], 'hash', ARGV[2], 'meta', ARGV[3], 'fn', c[4], 'state', ARGV[4], 'created', ARGV[5], 'hits', 1)
  redis.call('PEXPIRE', room, ARGV[6])
  redis.call('ZADD', P .. 'rooms', tonumber(ARGV[5]) + tonumber(ARGV[6]), c[2])
end
expireComp(ARGV[1], ARGV[7])
redis.call('PUBLISH', P .. 'events:nudge', ARGV[1])
if ARGV[9] == '1' then
  redis.call('PUBLISH', P .. 'events:pointer', c[2])
  redis.call('PUBLISH', P .. 'events:room', ARGV[8])
end
return 1`,
  },
  /** ARGV cid, error, code, jobTtlMs → 1 when this ended the computation. */
  vFail: { keys: 0, lua: `return failComp(ARGV[1], ARGV[2], ARGV[3], ARGV[4])` },
  /** ARGV cid, jobTtlMs, host|'': a waiter left; the last live one leaving cancels the computation. */
  vRelease: { keys: 0, lua: `return release(ARGV[1], ARGV[2], ARGV[3])` },
  /** ARGV jobId, jobTtlMs → 0 for an unknown job, else 1 (a running job ends error/cancelled). */
  vCancelJob: {
    keys: 0,
    lua: `
local job = P .. 'job:' .. ARGV[1]
if redis.call('EXISTS', job) == 0 then return 0 end
local j = redis.call('HMGET', job, 'comp', 'status')
if j[2] or not j[1] then return 1 end
local comp = P .. 'comp:' .. j[1]
if redis.call('HGET', comp, 'status') ~= 'running' then return 1 end
redis.call('HSET', job, 'status', 'error', 'error', 'cancelled')
redis.call('SREM', comp .. ':jobs', ARGV[1])
redis.call('PEXPIRE', job, ARGV[2])
redis.call('PUBLISH', P .. 'events:nudge', ARGV[1])
release(j[1], ARGV[2], '')
return 1`,
  },
  /**
   * ARGV jobId, firstLogId|'' → nil for an unknown job, else {status, error, code, fn, meta,
   * hash, messages, cid}: the job's own state where it differs from its computation's.
   */
  vJobRead: {
    keys: 0,
    lua: `
local j = redis.call('HMGET', P .. 'job:' .. ARGV[1], 'comp', 'status', 'error', 'fn', 'meta', 'hash')
if not j[4] then return false end
local status, err, code, meta, hash = j[2], j[3], false, j[5], j[6]
local msgs = {}
if j[1] then
  local comp = P .. 'comp:' .. j[1]
  if not status then
    local c = redis.call('HMGET', comp, 'status', 'error', 'code', 'meta', 'hash')
    if c[1] then
      status, err, code, meta, hash = c[1], c[2], c[3], c[4], c[5]
    else
      status, err = 'error', 'the computation was lost (its record expired)'
    end
  end
  if ARGV[2] ~= '' then msgs = redis.call('XRANGE', comp .. ':log', ARGV[2], '+') end
end
return {status, err or '', code or '', j[4], meta or '', hash or '', msgs, j[1] or ''}`,
  },
  /** Drops every room entry → how many there were. */
  vClear: {
    keys: 0,
    lua: `
local n = 0
for _, room in ipairs(redis.call('ZRANGE', P .. 'rooms', 0, -1)) do
  n = n + redis.call('DEL', P .. 'room:' .. room)
end
redis.call('DEL', P .. 'rooms')
redis.call('PUBLISH', P .. 'events:pointer', '*')
return n`,
  },
  /** ARGV prefix → how many rooms lost their entry: those of functions named `prefix…` (a relayed worker left). */
  vForgetPrefix: {
    keys: 0,
    lua: `
local n = 0
for _, room in ipairs(redis.call('ZRANGE', P .. 'rooms', 0, -1)) do
  local key = P .. 'room:' .. room
  local fn = redis.call('HGET', key, 'fn')
  if fn and string.sub(fn, 1, #ARGV[1]) == ARGV[1] then
    redis.call('DEL', key)
    redis.call('ZREM', P .. 'rooms', room)
    redis.call('PUBLISH', P .. 'events:pointer', room)
    n = n + 1
  end
end
return n`,
  },
  ...ANNOTATION_SCRIPTS,
  ...EDIT_SCRIPTS,
  ...HISTORY_SCRIPTS,
  ...AGENT_SCRIPTS,
} as const;

type ScriptName = keyof typeof SCRIPTS;

/** A command connection with the scripts as methods (`redis.vClaim(...args)`). */
export type ScriptedRedis = Redis & { [K in ScriptName]: (...args: (string | number)[]) => Promise<unknown> };

export function defineScripts(redis: Redis): ScriptedRedis {
  for (const [name, script] of Object.entries(SCRIPTS)) {
    redis.defineCommand(name, { numberOfKeys: script.keys, lua: `${PRELUDE}\n${script.lua}` });
  }
  return redis as ScriptedRedis;
}
