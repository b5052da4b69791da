/**
 * @module create-project
 * The ts-morph Project the schema generator reads signatures with. It uses our strict
 * compiler options (without strictNullChecks `T | undefined` is not a union and the optional
 * parser breaks; ts-morph issue #258) and maps `vitrine` to the SDK by absolute path so the
 * mapping holds for plugins anywhere on disk. Only the plugin entry files are added; the
 * program pulls in what they import, nothing else of the repository.
 */
import { Project, ts } from 'ts-morph';
import { SDK_INDEX } from './sdk-paths.ts';

/** Compiler options for reading plugin sources. */
export function buildCompilerOptions(): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.ESNext,
    // Bundler resolution accepts what esbuild accepts (with or without `.ts` extensions).
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    types: [],
    paths: { vitrine: [SDK_INDEX] },
  };
}

/** Creates an empty Project; add plugin entries with `addSourceFileAtPath`. */
export function createBuildProject(): Project {
  return new Project({
    compilerOptions: buildCompilerOptions(),
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
  });
}
