/**
 * @module subject-open
 * Opening the page's subject (viewer-app.ts chooses it): its metadata read (a specimen, or a
 * function from the Functions list), a failure told over the stage ("Specimen not found" for a
 * 404), its parameter panel placed in the inspector when it is dynamic, the page's URL, VR
 * panel and links as it is asked for, and the names the room and the scene know it by.
 */
import type { VitrineClient } from '../core/client/client.ts';
import { VitrineHttpError } from '../core/client/errors.ts';
import type { LayerSource } from '../core/wire/scene-types.ts';
import type { SpecimenMetadata } from '../core/wire/wire-types.ts';
import { replaceChildren } from './dom.ts';
import type { Layout } from './layout.ts';
import { functionMetadata } from './panels/function-list.ts';
import { ParamPanel } from './panels/params/param-panel.ts';
import { describeError } from './panels/request-failure.ts';
import type { SpecimenHead } from './panels/specimen-head.ts';
import type { DownloadMenu } from './panels/download-menu.ts';
import { writeUrlState } from './url-state.ts';
import type { VrMode } from './xr/vr-mode.ts';
import type { RoomSubject } from './room/room-follower.ts';
import type { StageOverlay } from './stage/stage-overlay.ts';

/** Where opening shows itself. */
export interface OpenViews {
  client: VitrineClient;
  layout: Layout;
  head: SpecimenHead;
  overlay: StageOverlay;
}

/** The subject's metadata, or null when it could not be opened (told, while `isCurrent`). */
export async function openSubject(
  views: OpenViews,
  id: string,
  asFunction: boolean,
  isCurrent: () => boolean,
): Promise<SpecimenMetadata | null> {
  const { client, layout, head, overlay } = views;
  head.loading(id);
  layout.paramsSection.hidden = true;
  overlay.loading('Opening specimen…');
  try {
    const meta = asFunction ? functionMetadata(await client.listFunctions(), id) : await client.getSpecimen(id);
    if (isCurrent()) head.show(meta);
    return meta;
  } catch (error) {
    if (!isCurrent()) return null;
    head.empty();
    const notFound = error instanceof VitrineHttpError && error.status === 404;
    overlay.error(notFound ? 'Specimen not found' : 'The specimen could not be opened', describeError(error));
    return null;
  }
}

/** The parameter panel of a dynamic subject, placed in the inspector (null for a static one); the job and links sections shown. */
export function placePanel(
  layout: Layout,
  meta: SpecimenMetadata,
  initial: Record<string, unknown> | null,
  onChange: (mode: 'drag' | 'commit') => void,
): ParamPanel | null {
  let panel: ParamPanel | null = null;
  if (meta.is_dynamic) {
    panel = new ParamPanel({
      schema: meta.schema ?? { type: 'object', properties: {} },
      initial,
      onChange: (_values, mode) => onChange(mode),
    });
    replaceChildren(layout.paramsBody, panel.element);
    layout.paramsSection.hidden = false;
  }
  layout.jobSection.hidden = false;
  layout.linksSection.hidden = false;
  return panel;
}

/** A request of the page's subject: what, with which values, in which room, and whether the page follows it. */
export interface AskedSubject {
  meta: SpecimenMetadata;
  isFunction: boolean;
  params: Record<string, unknown> | undefined;
  room: string;
  follow: boolean;
}

/** Where a request of the subject is named. */
export type AskedViews = Pick<OpenViews, 'client' | 'layout'> & { downloads: DownloadMenu; vr: VrMode | null };

/**
 * The subject asked for, named wherever the page names it: the page's URL, the VR panel, and
 * its links (its data, or a function's schema; a dynamic specimen's downloads in each format).
 */
export function showAsked(views: AskedViews, asked: AskedSubject): void {
  const { meta, isFunction, params, room, follow } = asked;
  const { client, downloads } = views;
  writeUrlState({ specimen: isFunction ? null : meta.id, fn: isFunction ? meta.id : null, room, params: params ?? null, follow });
  const schema = meta.is_dynamic ? (meta.schema ?? null) : null;
  views.vr?.show({ id: meta.id, title: meta.display_name || meta.id, schema, values: params ?? {} });
  const data = isFunction ? `/api/processing/functions/${encodeURIComponent(meta.id)}/schema` : client.dataUrl(meta.id, { params, room });
  views.layout.dataLink.setAttribute('href', data);
  delete views.layout.dataLink.dataset.resultId;
  if (meta.is_dynamic && !isFunction) downloads.show(meta.type, (delivery) => client.dataUrl(meta.id, { params, room, delivery }));
  else downloads.hide();
}

/** What the page shows, as a room entry names it (for the follower's comparisons): only a computed subject. */
export function subjectAsEntry(meta: SpecimenMetadata | null, isFunction: boolean, values: Record<string, unknown>): RoomSubject | null {
  if (!meta?.is_dynamic || !meta.function_name) return null;
  return { function_name: meta.function_name, specimen_id: isFunction ? null : meta.id, params: values };
}

/** What the page shows, as a layer's source ("Add current"). */
export function subjectAsSource(meta: SpecimenMetadata | null, isFunction: boolean, values: Record<string, unknown>): LayerSource | null {
  if (!meta) return null;
  return isFunction ? { function: meta.id, params: values } : { specimen: meta.id, params: values };
}
