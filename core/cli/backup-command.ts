/**
 * @module backup-command
 * `vitrine backup [--data-dir DIR] OUT`: a consistent copy of a lone host's data folder (the
 * one `vitrine serve` would use, from the same flag, variable and default), taken while the
 * host runs; `vitrine serve --data-dir OUT` serves it as it was.
 */
import { parseArgs } from 'node:util';
import { backupDataDir } from '../durable/backup-data-dir.ts';
import { chooseDataDir } from './data-dir-choice.ts';
import { fail, say } from './command-exit.ts';

export const BACKUP_USAGE = `usage: vitrine backup [--data-dir DIR] OUT

Copies the data folder DIR (default: VITRINE_DATA_DIR, else $XDG_DATA_HOME/vitrine, else
~/.local/share/vitrine) into the new folder OUT, consistently, while its host runs.
Restore by serving the copy: vitrine serve --data-dir OUT
`;

export async function runBackupCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values: { 'data-dir'?: string; help?: boolean };
  let positionals: string[];
  try {
    const options = { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
    ({ values, positionals } = parseArgs({ args: argv, options, allowPositionals: true }));
  } catch (error) {
    return fail(2, `vitrine backup: ${(error as Error).message}\n\n${BACKUP_USAGE}`);
  }
  if (values.help) return say(BACKUP_USAGE);
  const out = positionals[0];
  const { dir } = chooseDataDir(values['data-dir'] ?? env.VITRINE_DATA_DIR, false, env);
  if (positionals.length !== 1 || !out || !dir)
    return fail(2, `vitrine backup: ${!dir ? 'a data folder to copy is needed (not none)' : 'give one folder to copy into'}\n\n${BACKUP_USAGE}`);
  try {
    const summary = await backupDataDir(dir, out);
    const missing = summary.missing > 0 ? ` (${summary.missing} removed while copying)` : '';
    return say(`backup: ${dir} -> ${out}, ${summary.blobs} files of bytes${missing}, ${summary.bundles} kept plugin versions\n`);
  } catch (error) {
    return fail(1, `vitrine backup: ${(error as Error).message}\n`);
  }
}
