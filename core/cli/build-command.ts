/**
 * @module build-command
 * The `vitrine build` command. Exit codes: 0 built (or `--check`: everything current),
 * 1 build errors (or `--check`: something stale or missing), 2 usage errors. With any build
 * error nothing is written, so DIR never holds a half-built set. `--against` adds a comparison
 * with an earlier build (build-against.ts): exit 1 also on a breaking change, 2 when the earlier
 * build cannot be had; with `--format json` only its JSON goes to stdout, the rest to stderr.
 */
import { existsSync, statSync } from 'node:fs';
import { BUILD_USAGE, parseBuildArgs } from './build-args.ts';
import { displayPath, formatDiagnostic } from '../../build/diagnostics/format-diagnostic.ts';
import { checkOutput } from '../../build/output/check-output.ts';
import { writeOutput } from '../../build/output/write-output.ts';
import { plural } from '../formats/decoded-size.ts';
import { fail, say } from './command-exit.ts';

/** Runs `vitrine build` with `argv` (the arguments after `build`); returns the exit code. */
export async function runBuildCommand(argv: string[]): Promise<number> {
  const started = performance.now();
  const cwd = process.cwd();
  const args = parseBuildArgs(argv, cwd);
  if ('help' in args) return say(BUILD_USAGE);
  if ('error' in args) return fail(2, `vitrine build: ${args.error}\n${BUILD_USAGE}`);
  if (!existsSync(args.srcDir) || !statSync(args.srcDir).isDirectory()) {
    const why = existsSync(args.srcDir) ? 'is not a folder' : 'does not exist';
    return fail(2, `vitrine build: source folder ${displayPath(args.srcDir, cwd)} ${why}\n`);
  }

  // The compiler (ts-morph and TypeScript) takes half a second of CPU to load: only once the
  // arguments hold, so --help and a usage error answer at once.
  const { buildPlugins } = await import('../../build/build-plugins.ts');
  const { readEarlier, reportAgainst } = await import('./build-against.ts');
  const against = args.against;
  // Read before this build writes: --against may name the output folder itself.
  const earlier = against === undefined ? null : await readEarlier({ ...args, against }, cwd);
  if (typeof earlier === 'number') return earlier;
  const info = args.format === 'json' ? process.stderr : process.stdout;

  let built: Awaited<ReturnType<typeof buildPlugins>>;
  try {
    built = await buildPlugins(args.srcDir, args.outDir, { python: args.python });
  } catch (error) {
    // Plugin problems are diagnostics; anything thrown is a fault of the build itself.
    return fail(1, `vitrine build: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  const { plugins, diagnostics } = built;
  const compare = (code: number): number =>
    earlier === null || against === undefined ? code : Math.max(code, reportAgainst({ ...args, against }, earlier, plugins, cwd));
  const out = displayPath(args.outDir, cwd);
  for (const plugin of plugins) for (const note of plugin.notes) info.write(`note: ${plugin.name}: ${note}\n`);
  const warnings = plugins.flatMap((plugin) => plugin.warnings);
  for (const warning of warnings) process.stderr.write(`${formatDiagnostic(warning, cwd)}\n`);
  if (diagnostics.length > 0) {
    for (const diagnostic of diagnostics) process.stderr.write(`${formatDiagnostic(diagnostic, cwd)}\n`);
    return fail(1, `vitrine build: ${plural(diagnostics.length, 'error')}; nothing written to ${out}\n`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);

  if (args.check) {
    const stale = checkOutput(args.outDir, plugins);
    for (const entry of stale) process.stderr.write(`${entry.plugin}: ${entry.reason}\n`);
    // A warning is an error here: a check in CI is where a stale doc comment must not pass.
    if (warnings.length > 0) process.stderr.write(`vitrine build --check: ${plural(warnings.length, 'warning')}, each an error under --check\n`);
    if (stale.length > 0) {
      process.stderr.write(`vitrine build --check: ${plural(stale.length, 'plugin')} not current in ${out}; run \`vitrine build\`\n`);
      return compare(1);
    }
    info.write(`vitrine build --check: ${plural(plugins.length, 'plugin')} current in ${out} (${seconds} s)\n`);
    return compare(warnings.length > 0 ? 1 : 0);
  }

  const removed = writeOutput(args.outDir, plugins);
  for (const plugin of plugins) {
    info.write(`  ${plugin.name}: ${plural(plugin.functionCount, 'function')}, ${plural(plugin.specimenCount, 'specimen')}\n`);
  }
  for (const name of removed) info.write(`  ${name}: removed (no longer in the source folder)\n`);
  const functions = plugins.reduce((sum, plugin) => sum + plugin.functionCount, 0);
  const specimens = plugins.reduce((sum, plugin) => sum + plugin.specimenCount, 0);
  info.write(
    `built ${plural(plugins.length, 'plugin')} (${plural(functions, 'function')}, ${plural(specimens, 'specimen')}) into ${out} in ` +
    `${((performance.now() - started) / 1000).toFixed(2)} s\n`,
  );
  return compare(0);
}
