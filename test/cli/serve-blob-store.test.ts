/**
 * @module serve-blob-store.test
 * `--blob-store URL` (and VITRINE_BLOB_STORE) on `vitrine serve` and `vitrine worker`: a
 * redis:// URL, only with `--redis`; anything else is a readable usage error.
 */
import { describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { resolveHostOptions } from '../../core/options.ts';
import { runWorker } from '../helpers/spawn-worker.ts';

describe('--blob-store', () => {
  it('passes a redis:// URL, from the flag or the environment, into the host options', () => {
    const redis = ['--redis', 'redis://127.0.0.1:6379'];
    expect(parseServeOptions([...redis, '--blob-store', 'redis://127.0.0.1:6380/2']).host_options.blobStore).toBe('redis://127.0.0.1:6380/2');
    expect(parseServeOptions(redis, { VITRINE_BLOB_STORE: 'redis://10.0.0.5:6380' }).host_options.blobStore).toBe('redis://10.0.0.5:6380');
    expect(parseServeOptions(redis).host_options.blobStore).toBeNull();
  });

  it('refuses a URL that is not redis:// and a blob store without --redis, naming the option', () => {
    expect(() => parseServeOptions(['--redis', 'redis://127.0.0.1:6379', '--blob-store', 'http://x'])).toThrow(/--blob-store must be a URL like redis:\/\//);
    expect(() => parseServeOptions(['--blob-store', 'redis://127.0.0.1:6380'])).toThrow(/--blob-store needs --redis/);
    expect(() => resolveHostOptions({ blobStore: 'redis://127.0.0.1:6380' })).toThrow(/blobStore needs redis/);
    expect(() => resolveHostOptions({ redis: 'redis://127.0.0.1:6379', blobStore: 'nope' })).toThrow(/blobStore must be a URL/);
  });

  it('is refused by vitrine worker when it is not a redis:// URL (exit 2, usage)', async () => {
    const worker = runWorker(['--redis', 'redis://127.0.0.1:6379', '--blob-store', 's3://bucket']);
    expect(await worker.exited).toBe(2);
    expect(worker.stderr()).toMatch(/--blob-store must be a URL like redis:\/\//);
    expect(worker.stderr()).toMatch(/--blob-store URL/);
  });
});
