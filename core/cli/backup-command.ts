/**
 * @module backup-command
 * `vitrine backup [--data-dir DIR] OUT`: a consistent copy of a lone host's data folder (the
 * one `vitrine serve` would use, from the same flag, variable and default), taken while the
 * host runs; `vitrine serve --data-dir OUT` serves it as it was.
 */
import { parseArgs } from 'node:util';
import { backupDataDir } from '../durable/backup-data-dir.ts';
import { chooseDataDir } from './data-dir-choice.ts';

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
    process.stderr.write(`vitrine backup: ${(error as Error).message}\n\n${BACKUP_USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(BACKUP_USAGE);
    return 0;
  }
  const out = positionals[0];
  const { dir } = chooseDataDir(values['data-dir'] ?? env.VITRINE_DATA_DIR, false, env);
  if (positionals.length !== 1 || !out || !dir) {
    process.stderr.write(`vitrine backup: ${!dir ? 'a data folder to copy is needed (not none)' : 'give one folder to copy into'}\n\n${BACKUP_USAGE}`);
    return 2;
  }
  try {
    const summary = await backupDataDir(dir, out);
    const missing = summary.missing > 0 ? ` (${summary.missing} removed while copying)` : '';
    process.stdout.write(`backup: ${dir} -> ${out}, ${summary.blobs} files of bytes${missing}, ${summary.bundles} kept plugin versions\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`vitrine backup: ${(error as Error).message}\n`);
    return 1;
  }
}
