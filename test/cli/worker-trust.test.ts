/**
 * `vitrine worker` takes the hosts' bundle trust: `--trust-keys DIR` and `--signatures MODE`
 * (and their VITRINE_ variables) reach its options as a host's do, refused as a host's are.
 */
import { describe, expect, it } from 'vitest';
import { parseWorkerOptions, WORKER_USAGE } from '../../core/cli/worker-command.ts';

const redis = ['--redis', 'redis://127.0.0.1:6379'];

describe('vitrine worker --trust-keys and --signatures', () => {
  it('passes them into the options, from the flags or the environment', () => {
    const flagged = parseWorkerOptions([...redis, '--trust-keys', '/etc/vitrine/keys', '--signatures', 'require']);
    expect(flagged !== 'help' && [flagged.trustKeys, flagged.signatures]).toEqual(['/etc/vitrine/keys', 'require']);
    const env = parseWorkerOptions(redis, { VITRINE_TRUST_KEYS: '/keys', VITRINE_SIGNATURES: 'warn' });
    expect(env !== 'help' && [env.trustKeys, env.signatures]).toEqual(['/keys', 'warn']);
    expect(WORKER_USAGE).toMatch(/--trust-keys DIR/);
    expect(WORKER_USAGE).toMatch(/--signatures MODE/);
  });

  it('refuses a mode it does not know and require without keys, naming the option', () => {
    expect(() => parseWorkerOptions([...redis, '--signatures', 'maybe'])).toThrow(/--signatures must be off, warn or require/);
    expect(() => parseWorkerOptions([...redis, '--signatures', 'require'])).toThrow(/--signatures require needs --trust-keys/);
  });
});
