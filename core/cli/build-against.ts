/**
 * @module build-against
 * `vitrine build --against DIR|git:<ref>`: the earlier build is read (or built) before this
 * build writes anything, so `--against` may name the output folder itself; after the build,
 * every change of every function is printed as `<file>:<line>: <class>: <what>`, each line
 * pointing at the parameter (or the function) in the current sources, then one verdict per
 * plugin with breaking changes. With `--format json` stdout holds one JSON document instead.
 * Exit 1 when a plugin has a breaking change and its major version did not go up; such a
 * plugin's verdict names the file of its own to raise it in (version-advice.ts: a TypeScript
 * plugin without a package.json of its own gets one).
 */
import type { BuildArgs } from './build-args.ts';
import { compareBuilds, majorOf, type CompatReport, type PluginVerdict, type VersionedManifest } from '../../build/compat/compat-report.ts';
import { AgainstError, loadEarlier, manifestsOf, parseAgainst } from '../../build/compat/earlier-build.ts';
import { placeChanges, type PlacedChange } from '../../build/compat/place-changes.ts';
import { versionHome, type VersionHome } from '../../build/compat/version-advice.ts';
import { displayPath } from '../../build/diagnostics/format-diagnostic.ts';
import type { PluginOutput } from '../../build/output/plugin-output.ts';
import { plural } from '../formats/decoded-size.ts';
import { fail } from './command-exit.ts';

/** The earlier build's manifests, or the exit code 2 after saying why there are none. */
export async function readEarlier(args: BuildArgs & { against: string }, cwd: string): Promise<VersionedManifest[] | number> {
  try {
    return await loadEarlier(parseAgainst(args.against, cwd), args.srcDir, { python: args.python });
  } catch (error) {
    if (!(error instanceof AgainstError)) throw error;
    for (const detail of error.details) process.stderr.write(`${detail}\n`);
    return fail(2, `vitrine build --against: ${error.message}\n`);
  }
}

/** The version a plugin with breaking changes must go up to: the next major after `from`'s (null when `from` is no semver). */
function nextMajor(verdict: PluginVerdict): string | null {
  const major = verdict.from !== null ? majorOf(verdict.from) : null;
  return major !== null ? `${major + 1}.0.0` : null;
}

/** Where each plugin that must go up raises its version, by plugin (a plugin that is gone has none). */
function versionHomes(report: CompatReport, srcDir: string, cwd: string): Map<string, VersionHome> {
  const homes = new Map<string, VersionHome>();
  for (const verdict of report.plugins.filter((p) => !p.allowed && p.to !== null)) {
    const home = versionHome(srcDir, verdict.plugin, nextMajor(verdict) ?? '1.0.0', (file) => displayPath(file, cwd));
    if (home) homes.set(verdict.plugin, home);
  }
  return homes;
}

function verdictLine(label: string, verdict: PluginVerdict, home: VersionHome | undefined): string {
  const versions = `${verdict.from ?? '(new)'} → ${verdict.to ?? '(removed)'}`;
  const count = plural(verdict.breaking, 'breaking change');
  if (verdict.allowed) return `vitrine build --against ${label}: ${verdict.plugin}: ${count}, allowed by the major version ${versions}\n`;
  const next = nextMajor(verdict);
  const raise = `raise its major version${next !== null ? ` (to ${next})` : ''}${home ? `: ${home.text},` : ''}`;
  const advice = verdict.to === null ? 'the plugin is gone' : `${raise} or undo them`;
  return `vitrine build --against ${label}: ${verdict.plugin}: ${count} and version ${versions}: ${advice}\n`;
}

function printText(report: CompatReport, placed: PlacedChange[], label: string, seconds: string, homes: ReadonlyMap<string, VersionHome>): void {
  for (const change of placed) process.stdout.write(`${change.file}:${change.line}: ${change.class}: ${change.what}\n`);
  for (const verdict of report.plugins.filter((p) => p.breaking > 0)) {
    (verdict.allowed ? process.stdout : process.stderr).write(verdictLine(label, verdict, homes.get(verdict.plugin)));
  }
  const { breaking, compatible } = report.counts;
  const summary = placed.length === 0 ? 'no changes' : `${breaking} breaking, ${report.counts['changes-results']} changes-results, ${compatible} compatible`;
  const functions = plural(report.functions, 'function');
  process.stdout.write(`vitrine build --against ${label}: ${functions} compared: ${summary} (${seconds} s)\n`);
}

/** Compares the build just made with the earlier one, prints the changes and returns the exit code. */
export function reportAgainst(args: BuildArgs & { against: string }, earlier: VersionedManifest[], plugins: PluginOutput[], cwd: string): number {
  const started = performance.now();
  const report = compareBuilds(earlier, manifestsOf(plugins, args.srcDir));
  const placed = placeChanges(report.changes, args.srcDir, cwd);
  const label = args.against.startsWith('git:') ? args.against : displayPath(args.against, cwd);
  const homes = versionHomes(report, args.srcDir, cwd);
  if (args.format === 'json') {
    // A plugin that must go up names its own version file, and whether it was made now.
    const plugins = report.plugins.map((verdict) => {
      const home = homes.get(verdict.plugin);
      return home ? { ...verdict, version_file: home.file, version_file_made: home.made } : verdict;
    });
    const document = { against: label, failed: report.failed, functions: report.functions, counts: report.counts, plugins, changes: placed };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    printText(report, placed, label, ((performance.now() - started) / 1000).toFixed(2), homes);
  }
  return report.failed ? 1 : 0;
}
