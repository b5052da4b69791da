/**
 * @module build-against
 * `vitrine build --against DIR|git:<ref>`: the earlier build is read (or built) before this
 * build writes anything, so `--against` may name the output folder itself; after the build,
 * every change of every function is printed as `<file>:<line>: <class>: <what>`, each line
 * pointing at the parameter (or the function) in the current sources, then one verdict per
 * plugin with breaking changes. With `--format json` stdout holds one JSON document instead.
 * Exit 1 when a plugin has a breaking change and its major version did not go up.
 */
import type { BuildArgs } from './build-args.ts';
import { compareBuilds, majorOf, type CompatReport, type PluginVerdict, type VersionedManifest } from '../../build/compat/compat-report.ts';
import { AgainstError, loadEarlier, manifestsOf, parseAgainst } from '../../build/compat/earlier-build.ts';
import { placeChanges, type PlacedChange } from '../../build/compat/place-changes.ts';
import { versionPlace } from '../../build/compat/version-advice.ts';
import { displayPath } from '../../build/diagnostics/format-diagnostic.ts';
import type { PluginOutput } from '../../build/output/plugin-output.ts';

/** The earlier build's manifests, or the exit code 2 after saying why there are none. */
export async function readEarlier(args: BuildArgs & { against: string }, cwd: string): Promise<VersionedManifest[] | number> {
  try {
    return await loadEarlier(parseAgainst(args.against, cwd), args.srcDir, { python: args.python });
  } catch (error) {
    if (!(error instanceof AgainstError)) throw error;
    for (const detail of error.details) process.stderr.write(`${detail}\n`);
    process.stderr.write(`vitrine build --against: ${error.message}\n`);
    return 2;
  }
}

function verdictLine(label: string, verdict: PluginVerdict, place: (next: string) => string | null): string {
  const versions = `${verdict.from ?? '(new)'} → ${verdict.to ?? '(removed)'}`;
  const count = `${verdict.breaking} breaking change${verdict.breaking === 1 ? '' : 's'}`;
  if (verdict.allowed) return `vitrine build --against ${label}: ${verdict.plugin}: ${count}, allowed by the major version ${versions}\n`;
  const major = verdict.from !== null ? majorOf(verdict.from) : null;
  const next = major !== null ? `${major + 1}.0.0` : null;
  const where = place(next ?? '1.0.0');
  const raise = `raise its major version${next !== null ? ` (to ${next})` : ''}${where ? `: ${where},` : ''}`;
  const advice = verdict.to === null ? 'the plugin is gone' : `${raise} or undo them`;
  return `vitrine build --against ${label}: ${verdict.plugin}: ${count} and version ${versions}: ${advice}\n`;
}

function printText(report: CompatReport, placed: PlacedChange[], label: string, seconds: string, place: (plugin: string, next: string) => string | null): void {
  for (const change of placed) process.stdout.write(`${change.file}:${change.line}: ${change.class}: ${change.what}\n`);
  for (const verdict of report.plugins.filter((p) => p.breaking > 0)) {
    (verdict.allowed ? process.stdout : process.stderr).write(verdictLine(label, verdict, (next) => place(verdict.plugin, next)));
  }
  const { breaking, compatible } = report.counts;
  const summary = placed.length === 0 ? 'no changes' : `${breaking} breaking, ${report.counts['changes-results']} changes-results, ${compatible} compatible`;
  const functions = `${report.functions} function${report.functions === 1 ? '' : 's'}`;
  process.stdout.write(`vitrine build --against ${label}: ${functions} compared: ${summary} (${seconds} s)\n`);
}

/** Compares the build just made with the earlier one, prints the changes and returns the exit code. */
export function reportAgainst(args: BuildArgs & { against: string }, earlier: VersionedManifest[], plugins: PluginOutput[], cwd: string): number {
  const started = performance.now();
  const report = compareBuilds(earlier, manifestsOf(plugins, args.srcDir));
  const placed = placeChanges(report.changes, args.srcDir, cwd);
  const label = args.against.startsWith('git:') ? args.against : displayPath(args.against, cwd);
  if (args.format === 'json') {
    const document = { against: label, failed: report.failed, functions: report.functions, counts: report.counts, plugins: report.plugins, changes: placed };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    const place = (plugin: string, next: string) => versionPlace(args.srcDir, plugin, next, (file) => displayPath(file, cwd));
    printText(report, placed, label, ((performance.now() - started) / 1000).toFixed(2), place);
  }
  return report.failed ? 1 : 0;
}
