/**
 * @module redis-failure-words.test
 * A failed Redis command becomes a 503 whose detail is in the service's words: the messages
 * ioredis and Redis really give (offline queue, closed connection, timeout, OOM with a script
 * hash, an unknown command) never reach a client, and our own time limits keep their words.
 */
import { describe, expect, it } from 'vitest';
import { redisUnavailable } from '../../core/redis/redis-unavailable.ts';
import { withTimeLimit } from '../../core/redis/time-limit.ts';
import { createHostError } from '../../core/errors.ts';

const cases: [string, RegExp][] = [
  ["Stream isn't writeable and enableOfflineQueue options is false", /the connection to Redis is down/],
  ['Connection is closed.', /the connection to Redis is down/],
  ['connect ECONNREFUSED 127.0.0.1:6379', /the connection to Redis is down/],
  ['Command timed out', /Redis did not answer in time/],
  ["OOM command not allowed when used memory > 'maxmemory'. script: fccf0364a8e1b2c3d4e5f60718293a4b5c6d7e8f, on @user_script:12.", /Redis is out of memory/],
  ["ERR unknown command 'FOO'", /Redis refused a command/],
];

describe('Redis failures in the service words', () => {
  for (const [message, words] of cases) {
    it(`says ${String(words)} for "${message.slice(0, 40)}…"`, () => {
      const error = redisUnavailable(new Error(message)) as Error & { code: string; statusCode: number };
      expect(error).toMatchObject({ code: 'SPC_ERR_REDIS_UNAVAILABLE', statusCode: 503 });
      expect(error.message).toMatch(words);
      expect(error.message).not.toContain(message);
    });
  }

  it('keeps our own time limits in their words, and passes host errors through', async () => {
    const late = withTimeLimit(new Promise(() => {}), 10, 'reading a result from Redis');
    const error = redisUnavailable(await late.catch((e: unknown) => e));
    expect(error.message).toMatch(/reading a result from Redis got no answer within 10 ms/);
    const hostError = createHostError('SPC_ERR_NO_COMPUTE_NODE', 'f');
    expect(redisUnavailable(hostError)).toBe(hostError);
  });
});
