/**
 * @module thumbnails-command
 * `vitrine thumbnails [SRC] [--specimens DIR] [ID ...]`: renders each declared specimen of the
 * plugins in SRC (default `plugins`) at its defaults into `<plugin>/thumbnails/<id>.png`,
 * where the next `vitrine build` picks it up with no `thumbnail:` in the declaration. IDs (plugin
 * names or specimen ids) limit it to those.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fail, say } from './command-exit.ts';

export const THUMBNAILS_USAGE = `usage: vitrine thumbnails [SRC] [--specimens DIR] [PLUGIN-OR-SPECIMEN-ID ...]

Renders the thumbnail (256 x 256 PNG) of each declared specimen of the plugins in SRC
(default plugins) from its function's result at the defaults, into
SRC/<plugin>/thumbnails/<specimen-id>.png; vitrine build then uses it without a thumbnail
field. --specimens (default specimens) is where default inputs are read from.
`;

interface ThumbnailArgs {
  src: string;
  specimens: string;
  filters: string[];
  help: boolean;
}

export function parseThumbnailArgs(argv: string[]): ThumbnailArgs {
  const args: ThumbnailArgs = { src: 'plugins', specimens: 'specimens', filters: [], help: false };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') args.help = true;
    else if (arg === '--specimens') {
      const value = argv[++i];
      if (value === undefined) throw new Error('--specimens needs a folder');
      args.specimens = value;
    } else if (arg.startsWith('--specimens=')) args.specimens = arg.slice('--specimens='.length);
    else if (arg.startsWith('-')) throw new Error(`unknown option '${arg}'`);
    else positional.push(arg);
  }
  // The first word is SRC when it names a folder; the rest are filters.
  if (positional[0] !== undefined && existsSync(positional[0]) && statSync(positional[0]).isDirectory()) args.src = positional.shift()!;
  args.filters = positional;
  return args;
}

export async function runThumbnailsCommand(argv: string[], cwd = process.cwd()): Promise<number> {
  let args: ThumbnailArgs;
  try {
    args = parseThumbnailArgs(argv);
  } catch (error) {
    return fail(2, `vitrine thumbnails: ${(error as Error).message}\n\n${THUMBNAILS_USAGE}`);
  }
  if (args.help) return say(THUMBNAILS_USAGE);
  const src = path.resolve(cwd, args.src);
  if (!existsSync(src) || !statSync(src).isDirectory()) return fail(2, `vitrine thumbnails: source folder ${args.src} does not exist\n`);
  const { renderThumbnails } = await import('./render-thumbnails.ts');
  const failed: string[] = [];
  try {
    const written = await renderThumbnails({
      pluginsDir: src,
      specimensDir: path.resolve(cwd, args.specimens),
      filters: args.filters,
      log: (line) => process.stdout.write(`${line}\n`),
      failed: (why) => failed.push(why),
    });
    // Each one not rendered is said again at the end, on standard error, and the exit says so.
    for (const why of failed) process.stderr.write(`vitrine thumbnails: ${why}\n`);
    if (failed.length > 0) return 1;
    if (written.length === 0)
      return fail(1, `vitrine thumbnails: no declared specimen${args.filters.length > 0 ? ` matches ${args.filters.join(', ')}` : ''} in ${args.src}\n`);
    return 0;
  } catch (error) {
    return fail(1, `vitrine thumbnails: ${(error as Error).message}\n`);
  }
}
