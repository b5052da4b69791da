/**
 * @module viewer-app
 * The viewer's controller: loads the catalog, opens the specimen the URL names, turns parameter
 * edits into requests (the latest wins, dragging is debounced), runs dynamic specimens and
 * the Functions list's functions as jobs with progress and cancel, and puts results on the
 * stage. A reloaded plugin refreshes what is shown of it; with "follow room" on, a peer's
 * request is shown here, the room's look is shared and its scene's other layers are drawn
 * beside the page's own (viewer-room.ts). `?snapshot=<id>` opens a snapshot read-only.
 */
import { createClient, type VitrineClient } from '../core/client/client.ts';
import { pageToken } from './page-token.ts';
import type { LayerSource } from '../core/wire/scene-types.ts';
import type { CatalogEntry, SpecimenMetadata } from '../core/wire/wire-types.ts';
import type { RoomEntry } from '../core/wire/room-types.ts';
import { createRefineNote } from './coarse-first.ts';
import { BuildErrorOverlay } from './build-error-overlay.ts';
import { CatalogView } from './panels/catalog-view.ts';
import { FunctionList } from './panels/function-list.ts';
import { watchHostEvents, type ReloadEvent } from './host-events.ts';
import { JobView } from './panels/job-view.ts';
import { LatestRequest, type RequestContext } from './room/latest-request.ts';
import { createLayout, type Layout } from './layout.ts';
import { editedValues } from './panels/params/param-check.ts';
import type { ParamPanel } from './panels/params/param-panel.ts';
import { DownloadMenu } from './panels/download-menu.ts';
import { AdoptedBlob } from './room/room-blob.ts';
import type { RoomSubject } from './room/room-follower.ts';
import { SpecimenHead } from './panels/specimen-head.ts';
import { stageOrProblem, type Stage } from './stage/stage.ts';
import { StageOverlay } from './stage/stage-overlay.ts';
import { StatsView } from './stage/stats-view.ts';
import { runSubject } from './subject-run.ts';
import { openSubject, placePanel, showAsked, subjectAsEntry, subjectAsSource } from './subject-open.ts';
import { DEFAULT_ROOM, readUrlState, writeUrlState } from './url-state.ts';
import { linkCamera } from './stage/link-camera.ts';
import { createPageVr } from './page-vr.ts';
import { mountViews, wireControls } from './viewer-controls.ts';
import { ViewerRoom } from './room/viewer-room.ts';
import type { VrMode } from './xr/vr-mode.ts';

/** Debounce while a slider is dragged or a field is typed in. */
const DRAG_DEBOUNCE_MS = 150;

export class ViewerApp {
  readonly #client: VitrineClient = createClient({ baseUrl: '', token: pageToken() });
  readonly #layout: Layout;
  readonly #catalog = new CatalogView(
    (entry) => this.#client.thumbnailUrl(entry.id),
    (entry) => this.#choose(entry),
  );
  readonly #head = new SpecimenHead();
  readonly #job = new JobView(() => this.#requests.abort());
  readonly #stats = new StatsView();
  readonly #overlay = new StageOverlay();
  readonly #requests = new LatestRequest();
  readonly #functions = new FunctionList((fn) => void this.#select(fn.name, null, true));
  readonly #buildErrors = new BuildErrorOverlay();
  readonly #downloads = new DownloadMenu();
  readonly #refine = createRefineNote();
  readonly #adopted = new AdoptedBlob();
  /** Following the room: its entry, look and scene (viewer-room.ts). */
  readonly #rooms: ViewerRoom;
  #stage: Stage | null = null;
  /** The VR mode (xr/), when the page can draw at all. */
  #vr: VrMode | null = null;
  #webglProblem: string | null = null;
  #current: SpecimenMetadata | null = null;
  #panel: ParamPanel | null = null;
  /** The current subject is a function without a specimen (run as a job of its own). */
  #isFunction = false;
  #room = DEFAULT_ROOM;
  #selection = 0;

  constructor(root: HTMLElement) {
    this.#layout = createLayout(root);
    this.#stats.follow(this.#layout.stageTools);
    ({ stage: this.#stage, problem: this.#webglProblem } = stageOrProblem(this.#layout.stageHost, this.#layout.stagePane));
    // On a slow link the thumbnails' bytes would share it with the picture's: they wait for it.
    if (this.#stage) this.#catalog.thumbnailsAfter(this.#stage.firstPicture.drawn);
    this.#rooms = new ViewerRoom({
      client: this.#client,
      layout: this.#layout,
      stage: this.#stage,
      room: () => this.#room,
      shown: () => this.#shown(),
      adopt: (entry) => this.#adopt(entry),
      current: () => this.#source(),
      onToggle: (follow) => writeUrlState({ ...readUrlState(), follow }),
      vrDelivery: (type) => this.#vr?.delivery(type),
      nothingToShow: () => this.#stage?.firstPicture.nothingComing(),
    });
    mountViews(this.#layout, {
      catalog: [this.#catalog.element, this.#functions.element],
      buildErrors: this.#buildErrors.element,
      head: this.#head.element,
      job: this.#job.element,
      follower: this.#rooms.follower.element,
      overlay: this.#overlay.element,
      stats: this.#stats.element,
      downloads: this.#downloads.element,
    });
    this.#layout.stagePane.append(this.#refine);
    wireControls(this.#layout, {
      resetCamera: () => this.#stage?.resetCamera(),
      picture: () => ({ canvas: this.#stage?.canvas ?? null, subject: this.#current?.id ?? null, room: this.#room }),
      resetParams: () => void (this.#panel?.reset(), this.#request(0)),
      setRoom: (room) => this.#setRoom(room),
    });
    if (this.#stage) {
      const request = (mode: 'drag' | 'commit'): void => this.#request(mode === 'drag' ? DRAG_DEBOUNCE_MS : 0);
      linkCamera(this.#stage);
      this.#vr = createPageVr({
        stage: this.#stage,
        follower: this.#rooms.follower,
        scene: this.#rooms.scene,
        marks: this.#rooms.marks,
        edits: this.#rooms.edits,
        layout: this.#layout,
        panel: () => this.#panel,
        current: () => this.#current,
        request,
        unitOf: (layer) => this.#rooms.unitOf(layer),
      });
    }
  }

  /** Loads the catalog (with the arrays of the page's room: its entry may be one) and whatever the URL names. */
  start(): void {
    const url = readUrlState();
    this.#room = url.room;
    this.#layout.roomInput.value = url.room;
    if (url.snapshot) {
      void this.#loadCatalog();
      void this.#rooms.openSnapshot(url.snapshot, (title, detail) => this.#overlay.error(title, detail));
      return;
    }
    this.#rooms.follower.start(url.room, url.follow, !(url.specimen || url.fn), this.#loadCatalog());
    watchHostEvents({
      hello: () => this.#buildErrors.clear(),
      reload: (event) => this.#onReload(event),
      buildError: (event) => this.#buildErrors.show(event),
      catalog: ({ specimens }) => this.#onReload({ plugin: '', specimens }),
    });
    if (url.specimen || url.fn) void this.#select((url.specimen ?? url.fn)!, url.params, !url.specimen);
    else this.#overlay.idle(this.#webglProblem);
    if (!url.specimen && !url.fn && !url.follow) this.#stage?.firstPicture.nothingComing();
  }

  async #loadCatalog(): Promise<void> {
    this.#catalog.showLoading();
    try {
      const [entries, functions] = await Promise.all([
        this.#client.listSpecimens(undefined, this.#room),
        this.#client.listFunctions().catch(() => []),
      ]);
      this.#catalog.setEntries(entries);
      this.#functions.set(functions, entries);
      this.#rooms.scene?.list.setCatalog(entries, functions);
      // The remotes are offered too; a host that names none (or an older one) offers none.
      void this.#client.remotes().names().then(
        (names) => this.#rooms.scene?.list.setRemotes(names),
        () => undefined,
      );
    } catch (error) {
      this.#catalog.showFailure(error, this.#room, () => void this.#loadCatalog());
    }
  }

  /**
   * After a reload or a publish: the catalog read again, the current subject asked again if it is among them, its edits kept;
   * a page following a room asks with the room's values, never its own (a new schema may read them otherwise; the room would follow).
   */
  #onReload(event: ReloadEvent): void {
    if (event.plugin) this.#buildErrors.hide(event.plugin);
    void this.#loadCatalog();
    const meta = this.#current;
    if (!meta) return;
    const fn = meta.function_name;
    const ours = event.plugin === null || event.specimens?.includes(meta.id) || (fn !== null && event.functions?.includes(fn));
    const roomValues = this.#rooms.follower.enabled ? this.#rooms.scene?.activeParams(meta) : undefined;
    const values = roomValues ?? (this.#panel ? editedValues(meta.schema, this.#panel.values()) : null);
    if (ours) void this.#select(meta.id, values, this.#isFunction);
  }

  #choose(entry: CatalogEntry): void {
    if (this.#current?.id === entry.id && !this.#isFunction) return;
    void this.#select(entry.id, null);
  }

  #setRoom(value: string): void {
    const room = value.trim() || DEFAULT_ROOM;
    this.#layout.roomInput.value = room;
    if (room === this.#room) return;
    this.#room = room;
    void this.#loadCatalog();
    // With a subject, this viewer asks the new room for it (and wins over the room's state).
    this.#rooms.follower.setRoom(room, !this.#current);
    if (this.#current) this.#request(0);
    else writeUrlState({ specimen: null, fn: null, room, params: null, follow: this.#rooms.follower.enabled });
  }

  /** What the viewer shows, as a room entry names it (for the follower's comparisons). */
  #shown(): RoomSubject | null {
    return subjectAsEntry(this.#current, this.#isFunction, this.#panel?.values() ?? {});
  }

  /** What the viewer shows, as a layer's source ("Add current"). */
  #source(): LayerSource | null {
    return subjectAsSource(this.#current, this.#isFunction, this.#panel?.values() ?? {});
  }

  /**
   * Shows a room entry another peer's request made: its values in the panel (its specimen or
   * function selected first), then its data; a static specimen already shown stays.
   */
  #adopt(entry: RoomEntry): void {
    this.#adopted.expect(entry);
    const meta = this.#current;
    const same =
      entry.specimen_id !== null ? !this.#isFunction && meta?.id === entry.specimen_id : meta?.function_name === entry.function_name;
    if (same) {
      this.#panel?.set(entry.params);
      if (this.#panel) this.#request(0);
    } else {
      // Held from here: the subject's own hold starts only once it is selected (after the catalog, maybe).
      const pictured = this.#stage?.firstPicture.hold();
      void this.#adoptSubject(entry).finally(() => pictured?.());
    }
  }

  /** A room's specimen (the catalog read again for one published since), or for an entry named by its function, it or its specimen. */
  async #adoptSubject(entry: RoomEntry): Promise<void> {
    const fn = entry.function_name;
    if (entry.specimen_id === null && fn !== null && this.#functions.has(fn)) return this.#select(fn, entry.params, true);
    const id = entry.specimen_id ?? (fn === null ? null : this.#catalog.showing(fn));
    if (id !== null && !this.#catalog.has(id)) await this.#loadCatalog();
    if (id !== null && this.#catalog.has(id)) await this.#select(id, entry.params);
  }

  async #select(id: string, initial: Record<string, unknown> | null, asFunction = false): Promise<void> {
    // Held until the request is running (it holds the picture itself from then on).
    const pictured = this.#stage?.firstPicture.hold();
    try {
      const token = ++this.#selection;
      this.#requests.reset();
      this.#current = null;
      this.#panel = null;
      this.#isFunction = asFunction;
      this.#catalog.select(asFunction ? null : id);
      this.#functions.select(asFunction ? id : null);
      const isCurrent = () => token === this.#selection;
      const views = { client: this.#client, layout: this.#layout, head: this.#head, overlay: this.#overlay };
      const meta = await openSubject(views, id, asFunction, isCurrent);
      if (!meta || !isCurrent()) return;
      this.#current = meta;
      this.#panel = placePanel(this.#layout, meta, initial, (mode) => this.#request(mode === 'drag' ? DRAG_DEBOUNCE_MS : 0));
      this.#request(0);
    } finally {
      pictured?.();
    }
  }

  /** Sends the current specimen, params and room (after `delayMs`); the newest request wins. */
  #request(delayMs: number): void {
    const meta = this.#current;
    if (!meta) return;
    const params = this.#panel?.values();
    const room = this.#room;
    const views = { client: this.#client, layout: this.#layout, downloads: this.#downloads, vr: this.#vr };
    showAsked(views, { meta, isFunction: this.#isFunction, params, room, follow: this.#rooms.follower.enabled });
    this.#requests.schedule((context) => this.#run(context, meta, params, room), delayMs);
  }

  #run(context: RequestContext, meta: SpecimenMetadata, params: Record<string, unknown> | undefined, room: string): Promise<void> {
    const parts = {
      client: this.#client,
      layout: this.#layout,
      job: this.#job,
      overlay: this.#overlay,
      stats: this.#stats,
      refine: this.#refine,
      stage: this.#stage,
      vr: this.#vr,
      rooms: this.#rooms,
      adopted: this.#adopted,
      panel: this.#panel,
      webglProblem: this.#webglProblem,
      isFunction: this.#isFunction,
      shown: () => this.#shown(),
      retry: () => this.#request(0),
    };
    return runSubject(parts, { context, meta, params, room });
  }
}
