/**
 * @module layer-edits
 * One labels layer's edits as a client sees them (`client.edits(room, layer)`): make an edit
 * (merge, split, paint, names), undo or redo one by its seq, page through the layer's list
 * (who made each, and which are undone), and read the layer's labels at any version. Every
 * write may carry the version it was made against (`ifVersion`: a 412 `VitrineHttpError`
 * when someone edited first). A refused undo is a 409 whose detail names the later edits.
 *
 * @example
 * const seg = client.edits('lab-1', 'seg');
 * const merged = await seg.edit({ op: 'merge', segments: [12, 40] });
 * await seg.undo(merged.seq);
 * const { edits } = await seg.list();
 */
import type { SpecimenData } from '../wire/decoded-types.ts';
import type { ClientEdit, EditAnswer, ListedEdit } from '../wire/edit-types.ts';
import { readDataResponse } from './read-data-response.ts';
import type { Transport } from './transport.ts';
import type { VersionCheck } from './room-annotations.ts';

/** A page of a layer's edits, paged as the room's log. */
export interface EditPage {
  edits: ListedEdit[];
  /** The `since` that reads on from here. */
  next_since: number;
  /** True when more edits follow this page. */
  more: boolean;
}

/** The version an edit is made against (`If-Match`), and its abort signal. */
export type EditOptions = VersionCheck;

/** A version of the layer's labels: the decoded volume, its own result id and its version. */
export interface LabelsAtVersion {
  data: SpecimenData;
  resultId: string | null;
  version: number;
}

export class LayerEdits {
  readonly #http: Transport;
  readonly #path: string;

  constructor(http: Transport, readonly room: string, readonly layer: string) {
    this.#http = http;
    this.#path = `/api/rooms/${encodeURIComponent(room)}/layers/${encodeURIComponent(layer)}`;
  }

  /** `POST .../edits`: one edit; answers its seq, the layer's version after it and what it changed. */
  edit(edit: ClientEdit, options: EditOptions = {}): Promise<EditAnswer> {
    return this.#http.json('POST', `${this.#path}/edits`, { body: edit, signal: options.signal, ifMatch: options.ifVersion });
  }

  /** `POST .../edits/{seq}/undo`: edit `seq` written back, as a new edit by the caller. */
  undo(seq: number, options: EditOptions = {}): Promise<EditAnswer> {
    return this.#http.json('POST', `${this.#path}/edits/${seq}/undo`, { signal: options.signal, ifMatch: options.ifVersion });
  }

  /** `POST .../edits/{seq}/redo`: an undone edit made again, as a new edit by the caller. */
  redo(seq: number, options: EditOptions = {}): Promise<EditAnswer> {
    return this.#http.json('POST', `${this.#path}/edits/${seq}/redo`, { signal: options.signal, ifMatch: options.ifVersion });
  }

  /** `GET .../edits`: the edits after log seq `since`, oldest first, at most `limit` (the host's default when absent). */
  list(since = 0, limit?: number, signal?: AbortSignal): Promise<EditPage> {
    return this.#http.json('GET', `${this.#path}/edits`, { query: { since, limit }, signal });
  }

  /** Every edit of the layer, reading page after page. */
  async all(signal?: AbortSignal): Promise<ListedEdit[]> {
    const edits: ListedEdit[] = [];
    let since = 0;
    for (;;) {
      const page = await this.list(since, undefined, signal);
      edits.push(...page.edits);
      if (!page.more || page.next_since <= since) return edits;
      since = page.next_since;
    }
  }

  /** `GET .../labels?version=V` (absent: the current one), decoded as `/data` is; delivery options go in the query. */
  async labels(version?: number, delivery: Record<string, string | number> = {}, signal?: AbortSignal): Promise<LabelsAtVersion> {
    const response = await this.#http.send('GET', `${this.#path}/labels`, { query: { version, ...delivery }, signal });
    const at = Number(response.headers.get('x-labels-version'));
    return { resultId: response.headers.get('x-result-id'), version: at, data: await readDataResponse(response) };
  }
}
