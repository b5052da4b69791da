/**
 * @module plugin-project
 * The Project a build reads its TypeScript plugins with, as cheap as the plugins allow. Node's
 * declarations are 2.3 MB: parsing them is about half of a small build's CPU (1.5 s of 3.5 s),
 * and most plugins use nothing of Node's. So the plugins are first read with the language's
 * own declarations alone and type-checked there. If their own files have no error, they name
 * no Node global or module (each would be an unknown name without Node's types), and that
 * program is the build's: Node's types would only have added declarations the plugins do not
 * use (the SDK's declarations name nothing of Node's). Any error at all, and the program with
 * Node's types is made and used instead, so every error, schema and type a build reports is
 * what it was with them from the start. A plugin whose text names a Node global or imports a
 * package goes to that program at once, without the type check that would only say so.
 */
import path from 'node:path';
import type { Project } from 'ts-morph';
import type { BuildDiagnostic } from '../diagnostics/build-diagnostic.ts';
import { collectTypeErrors } from '../diagnostics/type-errors.ts';
import type { PluginSource } from '../plugins/find-plugins.ts';
import { createBuildProject, nodeTypeRoot } from './create-project.ts';

/** Names Node's types declare and the language's do not, and imports of anything but the plugin's own files and the SDK. */
const NODE_NAMES = [
  'AbortSignal', 'AbortController', 'setImmediate', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'queueMicrotask',
  'structuredClone', 'console', 'process', 'Buffer', 'global', 'performance', 'fetch', 'TextEncoder', 'TextDecoder', 'URL',
  'URLSearchParams', 'crypto', 'require', '__dirname', '__filename', 'NodeJS',
];
const USES_NODE = new RegExp(`\\b(${NODE_NAMES.join('|')})\\b|\\bfrom\\s+['"](?![./]|vitrine['"])`);

function projectOf(plugins: PluginSource[], nodeTypes: boolean): Project {
  const project = createBuildProject(nodeTypes);
  for (const plugin of plugins) project.addSourceFileAtPath(plugin.entry);
  return project;
}

/** The texts of the program's files that belong to one of `plugins`. */
function pluginTexts(project: Project, plugins: PluginSource[]): string[] {
  const inside = (file: string) => plugins.some((plugin) => !path.relative(plugin.dir, file).startsWith('..'));
  return project.getProgram().compilerObject.getSourceFiles().filter((file) => inside(path.resolve(file.fileName))).map((file) => file.text);
}

/** A Project holding `plugins`' entries (and what they import), with Node's types only if they need them. */
export function createPluginProject(plugins: PluginSource[]): Project {
  // Without Node's types installed the build reads the DOM's instead: one program either way.
  if (nodeTypeRoot() === null) return projectOf(plugins, true);
  const lean = projectOf(plugins, false);
  if (pluginTexts(lean, plugins).some((text) => USES_NODE.test(text))) return projectOf(plugins, true);
  const errors: BuildDiagnostic[] = [];
  collectTypeErrors(lean, plugins, errors);
  return errors.length === 0 ? lean : projectOf(plugins, true);
}
