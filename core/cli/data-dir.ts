/**
 * @module data-dir
 * Where a lone host and `vitrine users` keep what lasts: `--data-dir`, else `VITRINE_DATA_DIR`,
 * else the user's data folder (`$XDG_DATA_HOME/vitrine`, else `~/.local/share/vitrine`).
 * `none` keeps everything in memory.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The data dir a command uses, or null for `none`. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  const given = flag ?? env.VITRINE_DATA_DIR;
  if (given === 'none') return null;
  if (given) return resolve(given);
  const base = env.XDG_DATA_HOME ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(base, 'vitrine');
}
