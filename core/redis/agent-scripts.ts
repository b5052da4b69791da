/**
 * @module agent-scripts
 * The scripts of a room's agent on a Redis service, part of the one script table
 * (redis-scripts.ts, whose prelude gives them `P`): which host holds a room's conversation. The
 * holder keeps a lease that runs out unless renewed, so a host that dies lets its rooms go;
 * claiming and taking over are one step each, so two hosts never both think they hold a room.
 */
export const AGENT_SCRIPTS = {
  /**
   * ARGV room, host, ttlMs, gone|'' → the room's holder: this host when nobody held it, or the
   * holder was `gone` (a host that stopped listening), else whoever holds it.
   */
  vAgentClaim: {
    keys: 0,
    lua: `
local key = P .. 'agentowner:' .. ARGV[1]
local holder = redis.call('GET', key)
if holder and holder ~= ARGV[4] then return holder end
redis.call('SET', key, ARGV[2], 'PX', ARGV[3])
return ARGV[2]`,
  },
  /** ARGV ttlMs, host, room...: renews the leases this host still holds; answers the rooms it lost. */
  vAgentRenew: {
    keys: 0,
    lua: `
local lost = {}
for i = 3, #ARGV do
  local key = P .. 'agentowner:' .. ARGV[i]
  if redis.call('GET', key) == ARGV[2] then redis.call('PEXPIRE', key, ARGV[1]) else table.insert(lost, ARGV[i]) end
end
return lost`,
  },
  /** ARGV room, host: lets the room go if this host holds it. */
  vAgentRelease: {
    keys: 0,
    lua: `
local key = P .. 'agentowner:' .. ARGV[1]
if redis.call('GET', key) == ARGV[2] then redis.call('DEL', key) end
return 0`,
  },
} as const;
