/**
 * @module provenance
 * What made a result, from the function that computed it and its checked values: its plugin,
 * version and bundle id, and this host's version. The `Vitrine-Provenance` header says the
 * short form (`shapes@1.2.0; bundle=<12 hex>`), so a saved file or a figure names its code.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Provenance } from '../wire/provenance-types.ts';
import { PACKAGE_ROOT } from '../loading/package-layout.ts';
import { bundleOf, type FunctionEntry } from '../registry/function-entry.ts';

export const PROVENANCE_HEADER = 'vitrine-provenance';

let host: string | null = null;

/** This host's version: the `version` of vitrine's package.json. */
export function hostVersion(): string {
  host ??= (() => {
    try {
      return (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
    } catch {
      return '0.0.0';
    }
  })();
  return host;
}

export function provenanceOf(entry: FunctionEntry, values: Record<string, unknown>): Provenance {
  const bundle = bundleOf(entry);
  return {
    plugin: bundle ? entry.plugin : null,
    version: bundle?.version ?? null,
    bundle: bundle?.bundle ?? null,
    function: entry.name,
    params: values,
    host: hostVersion(),
  };
}

const headers = new WeakMap<FunctionEntry, string | null>();

/** The header's value for what `entry` computes (made once per function entry: every hit says it). */
export function provenanceHeaderOf(entry: FunctionEntry): string | null {
  let value = headers.get(entry);
  if (value === undefined) headers.set(entry, (value = provenanceHeader(provenanceOf(entry, {}))));
  return value;
}

/** The header's value, or null for a function that came from no plugin. */
export function provenanceHeader(provenance: Pick<Provenance, 'plugin' | 'version' | 'bundle'>): string | null {
  if (!provenance.plugin || !provenance.bundle) return null;
  return `${provenance.plugin}@${provenance.version ?? '0.0.0'}; bundle=${provenance.bundle.slice(0, 12)}`;
}
