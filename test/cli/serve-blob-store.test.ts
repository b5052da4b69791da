/**
 * @module serve-blob-store.test
 * `--blob-store URL` (and VITRINE_BLOB_STORE) on `vitrine serve` and `vitrine worker`: a
 * redis:// or s3://BUCKET[/PREFIX] URL, only with `--redis`, with `--s3-endpoint` and
 * `--s3-timeout` for the latter; `--accel-redirect PREFIX`; anything else is a readable usage error.
 */
import { describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { parseWorkerOptions } from '../../core/cli/worker-command.ts';
import { resolveHostOptions } from '../../core/options.ts';
import { runWorker } from '../helpers/spawn-worker.ts';

describe('--blob-store', () => {
  it('passes a redis:// URL, from the flag or the environment, into the host options', () => {
    const redis = ['--redis', 'redis://127.0.0.1:6379'];
    expect(parseServeOptions([...redis, '--blob-store', 'redis://127.0.0.1:6380/2']).host_options.blobStore).toBe('redis://127.0.0.1:6380/2');
    expect(parseServeOptions(redis, { VITRINE_BLOB_STORE: 'redis://10.0.0.5:6380' }).host_options.blobStore).toBe('redis://10.0.0.5:6380');
    expect(parseServeOptions(redis).host_options.blobStore).toBeNull();
  });

  it('passes an s3:// store with its endpoint, and an accel-redirect prefix, into the host options', () => {
    const redis = ['--redis', 'redis://127.0.0.1:6379'];
    const parsed = parseServeOptions([
      ...redis,
      '--blob-store',
      's3://vitrine-results/prod/a',
      '--s3-endpoint',
      'http://127.0.0.1:9000',
      '--accel-redirect',
      '/_blobs/',
    ]).host_options;
    expect(parsed).toMatchObject({ blobStore: 's3://vitrine-results/prod/a', s3Endpoint: 'http://127.0.0.1:9000', accelRedirect: '/_blobs/' });
    expect(parseServeOptions(redis, { VITRINE_S3_ENDPOINT: 'https://s3.example.org' }).host_options.s3Endpoint).toBe('https://s3.example.org');
    expect(() => parseServeOptions([...redis, '--blob-store', 's3://x'])).toThrow(/--blob-store must be a URL like redis:\/\/.* or s3:\/\/BUCKET/);
    expect(() => parseServeOptions([...redis, '--s3-endpoint', 'ftp://x'])).toThrow(/--s3-endpoint must be an http\(s\) URL/);
    expect(resolveHostOptions(parseServeOptions([...redis, '--s3-timeout', '1.5']).host_options).s3TimeoutSeconds).toBe(1.5);
    expect(resolveHostOptions(parseServeOptions(redis).host_options).s3TimeoutSeconds).toBe(10);
    expect(() => parseServeOptions([...redis, '--s3-timeout', '0'])).toThrow(/--s3-timeout/);
    const worker = parseWorkerOptions(['--redis', 'redis://127.0.0.1:6379', '--blob-store', 's3://x-bucket', '--s3-timeout', '4']);
    expect(worker !== 'help' && worker.s3TimeoutSeconds).toBe(4);
    expect(() => parseServeOptions(['--accel-redirect', '_blobs'])).toThrow(/--accel-redirect must be a path prefix/);
  });

  it('refuses a URL that is not redis:// and a blob store without --redis, naming the option', () => {
    expect(() => parseServeOptions(['--redis', 'redis://127.0.0.1:6379', '--blob-store', 'http://x'])).toThrow(/--blob-store must be a URL like redis:\/\//);
    expect(() => parseServeOptions(['--blob-store', 'redis://127.0.0.1:6380'])).toThrow(/--blob-store needs --redis/);
    expect(() => resolveHostOptions({ blobStore: 'redis://127.0.0.1:6380' })).toThrow(/blobStore needs redis/);
    expect(() => resolveHostOptions({ redis: 'redis://127.0.0.1:6379', blobStore: 'nope' })).toThrow(/blobStore must be a URL/);
  });

  it('is refused by vitrine worker when it is neither redis:// nor s3:// (exit 2, usage)', async () => {
    const worker = runWorker(['--redis', 'redis://127.0.0.1:6379', '--blob-store', 'ftp://bucket']);
    expect(await worker.exited).toBe(2);
    expect(worker.stderr()).toMatch(/--blob-store must be a URL like redis:\/\//);
    expect(worker.stderr()).toMatch(/--blob-store URL/);
  });
});
