/**
 * @module check-plugin-folder
 * What makes a plugin folder unbuildable before anything is read: a name the host cannot use
 * (VITRINE_PLUGIN_400), or both entries, `index.ts` and `plugin.py` (VITRINE_PLUGIN_402: one
 * folder is one plugin in one language).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createDiagnostic, type BuildDiagnostic } from '../diagnostics/build-diagnostic.ts';
import { PLUGIN_ENTRIES, PLUGIN_NAME_PATTERN, type PluginSource } from './find-plugins.ts';

/** True when `plugin` can be built; otherwise its diagnostic is pushed. */
export function checkPluginFolder(plugin: PluginSource, diagnostics: BuildDiagnostic[]): boolean {
  const refuse = (code: 'VITRINE_PLUGIN_400' | 'VITRINE_PLUGIN_402', file: string, message: string): false => {
    diagnostics.push(createDiagnostic(code, { file, line: 1, column: 1 }, message, { plugin: plugin.name }));
    return false;
  };
  if (!PLUGIN_NAME_PATTERN.test(plugin.name)) {
    const rule = "must use letters, digits, '.', '_' and '-', starting with a letter or digit";
    return refuse('VITRINE_PLUGIN_400', plugin.entry, `plugin folder '${plugin.name}' ${rule}`);
  }
  const python = path.join(plugin.dir, PLUGIN_ENTRIES.python);
  if (plugin.runtime === 'node' && existsSync(python)) {
    const both = `${PLUGIN_ENTRIES.node} and ${PLUGIN_ENTRIES.python}`;
    return refuse('VITRINE_PLUGIN_402', python, `'${plugin.name}' holds ${both}; a plugin is written in one language: move one into a folder of its own`);
  }
  return true;
}
