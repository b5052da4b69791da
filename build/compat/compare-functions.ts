/**
 * @module compare-functions
 * Compares every function of an earlier build with the current one. Functions are matched by
 * name across all plugins, as the host registers them; a function that left one plugin and
 * came into another keeps its name, so it is compared, not removed. A removed and an added
 * function of one plugin are a rename when they return the same type and take the same
 * parameters; otherwise they are what they look like, one removed and one added.
 */
import type { ManifestFunction, PluginManifest } from '../../core/registry/manifest-types.ts';
import { stableJson } from '../../core/wire/stable-json.ts';
import { classOf, type CompatChange, type Finding } from './compat-change.ts';
import { compareParameters, pairBySignature, parameterSignature, valueParameters } from './compare-parameters.ts';
import type { Language } from './value-shape.ts';

interface Placed {
  plugin: PluginManifest;
  fn: ManifestFunction;
}

const languageOf = (manifest: PluginManifest): Language => (manifest.runtime === 'python' ? 'python' : 'node');

function byName(manifests: PluginManifest[]): Map<string, Placed> {
  const functions = new Map<string, Placed>();
  for (const plugin of manifests) for (const fn of plugin.functions) functions.set(fn.name, { plugin, fn });
  return functions;
}

/** Its plugin and what it takes and gives, names and descriptions left out: a rename stays within its plugin. */
function signatureOf({ plugin, fn }: Placed): string {
  return stableJson({ plugin: plugin.plugin, returns: fn.return_type, parameters: valueParameters(fn).map(parameterSignature) });
}

function place(findings: Finding[], at: Placed): CompatChange[] {
  return findings.map((finding) => ({
    class: classOf(finding.kind),
    kind: finding.kind,
    plugin: at.plugin.plugin,
    function: at.fn.name,
    parameter: finding.parameter ?? null,
    what: finding.what,
    source: { file: at.fn.source.file, line: at.fn.source.line },
  }));
}

/** The changes of one function that kept its name (or was renamed to `after.fn.name`). */
function compareFunction(before: Placed, after: Placed): Finding[] {
  const findings: Finding[] = [];
  if (before.fn.return_type !== after.fn.return_type) {
    findings.push({ kind: 'return-type-changed', what: `return type of '${after.fn.name}' changed from ${before.fn.return_type} to ${after.fn.return_type}` });
  }
  findings.push(...compareParameters(before.fn, after.fn, languageOf(after.plugin)));
  return findings;
}

/** Every change from the `before` build's functions to the `after` build's, function by function. */
export function compareFunctions(before: PluginManifest[], after: PluginManifest[]): CompatChange[] {
  const old = byName(before);
  const now = byName(after);
  const removed = [...old.values()].filter(({ fn }) => !now.has(fn.name));
  const added = [...now.values()].filter(({ fn }) => !old.has(fn.name));
  const renames = pairBySignature(removed, added, signatureOf);
  const renamedFrom = new Map([...renames].map(([from, to]) => [to, from]));
  const changes: CompatChange[] = [];
  for (const at of now.values()) {
    const earlier = old.get(at.fn.name);
    const from = renamedFrom.get(at);
    if (earlier) changes.push(...place(compareFunction(earlier, at), at));
    else if (from) {
      changes.push(...place([{ kind: 'function-renamed', what: `function '${from.fn.name}' renamed to '${at.fn.name}'` }], at));
      changes.push(...place(compareFunction(from, at), at));
    } else changes.push(...place([{ kind: 'function-added', what: `function '${at.fn.name}' added` }], at));
  }
  for (const gone of removed) {
    if (!renames.has(gone)) changes.push(...place([{ kind: 'function-removed', what: `function '${gone.fn.name}' removed` }], gone));
  }
  return changes;
}

/** How many functions the two builds hold between them (each name once). */
export function countFunctions(before: PluginManifest[], after: PluginManifest[]): number {
  return new Set([...before, ...after].flatMap((manifest) => manifest.functions.map((fn) => fn.name))).size;
}
