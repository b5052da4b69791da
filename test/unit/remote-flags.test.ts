/**
 * `--remote NAME=URL` is repeatable and checked with readable messages; `--remote-timeout` and
 * `--max-remote-bytes` reach the host options; `VITRINE_REMOTE` lists several.
 */
import { describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { resolveHostOptions } from '../../core/options.ts';

const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseServeOptions(argv, env).host_options;

describe('remote flags', () => {
  it('names several remotes, with their timeout and byte budget', () => {
    const o = parse(['--remote', 'lab=https://data.lab.example/zarr', '--remote', 'b=s3://lab-bucket/x']
      .concat(['--remote-timeout', '2.5', '--max-remote-bytes', '1000']));
    expect(o.remotes).toEqual({ lab: 'https://data.lab.example/zarr', b: 's3://lab-bucket/x' });
    expect(resolveHostOptions(o)).toMatchObject({ remoteTimeoutSeconds: 2.5, maxRemoteBytes: 1000 });
    const fromEnv = parse([], { VITRINE_REMOTE: 'a=http://10.0.0.5:9000/ b=https://x.example' });
    expect(fromEnv.remotes).toEqual({ a: 'http://10.0.0.5:9000/', b: 'https://x.example' });
    expect(resolveHostOptions(parse([]))).toMatchObject({ remotes: {}, remoteTimeoutSeconds: 10, maxRemoteBytes: 512 * 1024 * 1024 });
  });

  it('refuses what is not NAME=URL, a name twice, other schemes and climbing prefixes', () => {
    expect(() => parse(['--remote', 'lab'])).toThrow(/--remote takes NAME=URL/);
    expect(() => parse(['--remote', 'lab=ftp://x.example/'])).toThrow(/http:\/\/, https:\/\/ or s3:\/\//);
    expect(() => parse(['--remote', 'lab=https://x.example/a/../b'])).toThrow(/'\.' or '\.\.'/);
    expect(() => parse(['--remote', 'a=https://x.example', '--remote', 'a=https://y.example'])).toThrow(/given twice/);
    expect(() => parse(['--remote-timeout', '0'])).toThrow(/above 0/);
    expect(() => resolveHostOptions({ remotes: { 'bad name': 'https://x.example' } })).toThrow(/remotes: 'bad name'/);
  });
});
