/**
 * @module analyze-specimens
 * Validates a plugin's declared specimens (ids, functions, thumbnails) and turns them into
 * manifest entries plus the thumbnail files to copy into the bundle.
 */
import type { Node } from 'ts-morph';
import type { ManifestSpecimen } from '../../core/registry/manifest-types.ts';
import { createDiagnostic, locate, type BuildDiagnostic, type SourceLocation } from '../diagnostics/build-diagnostic.ts';
import type { DiagnosticCode } from '../diagnostics/diagnostic-codes.ts';
import type { DeclaredSpecimen } from '../specimens/read-specimens.ts';
import { conventionalThumbnail, resolveThumbnail, type ThumbnailResolution } from '../specimens/resolve-thumbnail.ts';

/** Specimen ids: letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export const SPECIMEN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A thumbnail file to copy into the bundle: a resolved file's source and its path there. */
export type ThumbnailCopy = Omit<Extract<ThumbnailResolution, { kind: 'file' }>, 'kind'>;

export interface SpecimensAnalysis {
  specimens: ManifestSpecimen[];
  thumbnails: ThumbnailCopy[];
  /** Where each accepted specimen's id is written (for errors across plugins). */
  locations: Map<string, SourceLocation>;
}

export function analyzeSpecimens(
  declared: DeclaredSpecimen[],
  registered: Set<string>,
  pluginDir: string,
  plugin: string,
  diagnostics: BuildDiagnostic[],
): SpecimensAnalysis {
  const specimens: ManifestSpecimen[] = [];
  const thumbnails = new Map<string, ThumbnailCopy>();
  const ids = new Set<string>();
  const locations = new Map<string, SourceLocation>();
  for (const specimen of declared) {
    const at = (field: string): Node | SourceLocation => specimen.fieldNodes.get(field) ?? specimen.node;
    const fail = (code: DiagnosticCode, field: string, message: string): void => {
      diagnostics.push(createDiagnostic(code, at(field), message, { plugin, functionName: specimen.function }));
    };
    const before = diagnostics.length;
    if (!SPECIMEN_ID_PATTERN.test(specimen.id)) {
      fail('VITRINE_SPECIMEN_301', 'id', `'${specimen.id}' is not a valid id: use letters, digits, '.', '_' and '-', starting with a letter or digit`);
    } else if (ids.has(specimen.id)) {
      fail('VITRINE_SPECIMEN_302', 'id', `specimen id '${specimen.id}' is declared twice`);
    }
    ids.add(specimen.id);
    if (!registered.has(specimen.function)) {
      const known = [...registered].join(', ') || 'none';
      fail(
        'VITRINE_SPECIMEN_303',
        'function',
        `specimen '${specimen.id}' names function '${specimen.function}', which is not a registered export of this plugin (registered: ${known})`,
      );
    }
    // No thumbnail declared: the plugin's thumbnails/<id>.png, if it has one.
    const declaredOrFound = specimen.thumbnail ?? (SPECIMEN_ID_PATTERN.test(specimen.id) ? conventionalThumbnail(specimen.id, pluginDir) : undefined);
    const thumbnail = resolveThumbnail(declaredOrFound, pluginDir);
    if (thumbnail.kind === 'outside') fail('VITRINE_SPECIMEN_304', 'thumbnail', thumbnail.why);
    if (thumbnail.kind === 'missing')
      fail(
        'VITRINE_SPECIMEN_305',
        'thumbnail',
        `thumbnail '${specimen.thumbnail}' of specimen '${specimen.id}' does not exist (looked for ${thumbnail.source})`,
      );
    if (diagnostics.length > before) continue;
    if (thumbnail.kind === 'file') thumbnails.set(thumbnail.bundlePath, { source: thumbnail.source, bundlePath: thumbnail.bundlePath });
    locations.set(specimen.id, locate(at('id')));
    specimens.push({
      id: specimen.id,
      function_name: specimen.function,
      display_name: specimen.display_name,
      description: specimen.description ?? '',
      tags: specimen.tags ?? [],
      story: specimen.story ?? null,
      thumbnail: thumbnail.kind === 'file' ? thumbnail.bundlePath : thumbnail.kind === 'data-uri' ? thumbnail.uri : null,
      ...(specimen.color !== undefined ? { color: specimen.color } : {}),
    });
  }
  return { specimens, thumbnails: [...thumbnails.values()], locations };
}
