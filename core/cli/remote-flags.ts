/**
 * @module remote-flags
 * The flags of remote data (`--remote NAME=URL`, repeatable; `--remote-timeout`,
 * `--max-remote-bytes`): their lines of `vitrine serve --help` and the host options they
 * give, each checked with a readable message. `VITRINE_REMOTE` may list several, separated by
 * white space.
 */
import { parseRemoteFlag, type RemoteHostOptions } from '../options/remote-options.ts';
import { number, type FlagReader } from './option-flags.ts';

export const REMOTE_USAGE = `  --remote NAME=URL          a place this host reads images from in place (OME-Zarr v0.4 or
                             v0.5), published as {"remote": "NAME/path"}; repeatable;
                             http://, https:// or s3://BUCKET[/PREFIX] (S3 endpoint and
                             credentials as for --blob-store). The host reads nowhere else,
                             and no loopback or private address unless a remote names it
  --remote-timeout SECONDS   a remote read that takes longer answers 502 (default 10)
  --max-remote-bytes BYTES   the most a function given a remote volume gets: the finest level
                             within it (default 536870912, 512 MiB)
`;

export function remoteOptions(get: FlagReader): RemoteHostOptions {
  const given = get('remote');
  const remotes: Record<string, string> = {};
  for (const raw of given === undefined ? [] : given.split(/\s+/).filter((r) => r !== '')) {
    const [name, url] = parseRemoteFlag(raw);
    if (Object.hasOwn(remotes, name)) throw new Error(`--remote ${name} is given twice`);
    remotes[name] = url;
  }
  const remoteTimeoutSeconds = number('remote-timeout', get('remote-timeout'), false);
  if (remoteTimeoutSeconds === 0) throw new Error('--remote-timeout must be above 0');
  const maxRemoteBytes = number('max-remote-bytes', get('max-remote-bytes'), true);
  if (maxRemoteBytes === 0) throw new Error('--max-remote-bytes must be at least 1');
  return { remotes: given === undefined ? undefined : remotes, remoteTimeoutSeconds, maxRemoteBytes };
}
