/**
 * @module data-dir-choice
 * Which folder `vitrine serve --data-dir` keeps a lone host's work in: the one given (or
 * `VITRINE_DATA_DIR`), else the user's data folder (`$XDG_DATA_HOME/vitrine`, else
 * `~/.local/share/vitrine`); `none` keeps everything in memory. A Redis service keeps rooms in
 * its own stores, so there the folder is not used, and the host says so when one was given. A
 * worker (`--join`) keeps nothing people make either: rooms, marks and snapshots live on its
 * relay, so unless a folder is named it runs from memory, and several workers (and their
 * relay) can run side by side on one machine without one refusing the user's data folder.
 */
import { homedir } from 'node:os';
import path from 'node:path';

export interface DataDirChoice {
  /** The folder, absolute; null: memory only. */
  dir: string | null;
  /** The line printed on standard output at start (`data: <dir>`), or null. */
  line: string | null;
  /** A warning to log at start, or null. */
  warning: string | null;
}

/** The user's data folder for vitrine, as the XDG base directory rules place it. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME;
  // The rules ignore a relative XDG_DATA_HOME.
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || homedir(), '.local', 'share');
  return path.join(base, 'vitrine');
}

/** The choice for `raw` (the flag or its variable, undefined when neither is set). */
export function chooseDataDir(raw: string | undefined, redis: boolean, env: NodeJS.ProcessEnv = process.env, worker = false): DataDirChoice {
  if (raw !== undefined && raw.trim() === '') throw new Error('--data-dir must be a folder, or none');
  if (worker && raw === undefined) return { dir: null, line: 'data: none (a worker: rooms are kept by its relay)', warning: null };
  if (redis) {
    const warning = raw !== undefined ? `--data-dir ${raw} is not used with --redis: the service's stores keep rooms` : null;
    return { dir: null, line: null, warning };
  }
  if (raw === 'none') {
    const warning = '--data-dir none: rooms, annotations, snapshots, uploads and published specimens are kept in memory only and lost when the host stops';
    return { dir: null, line: 'data: none', warning };
  }
  const dir = path.resolve(raw ?? defaultDataDir(env));
  return { dir, line: `data: ${dir}`, warning: null };
}
