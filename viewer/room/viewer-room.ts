/**
 * @module viewer-room
 * The viewer's room side, beside its own request path (viewer-app.ts): "Follow room" and the
 * room's events (room-follower.ts), its shared look (room-view.ts), its scene of layers with
 * the layer list (room-scene.ts), its annotations (marks/), a snapshot's read-only view
 * (snapshot-view.ts), the room as a file (session-file.ts), and what
 * the stage's tool area shows: the selected layer's panel and, under it, the value readout
 * over every layer with where the pointer is in physical units. The scale bar reads in the
 * room frame's unit; both take the units the marks measure in (mark-units.ts), asked once
 * per showing (shown-units.ts). The room's conversation with its agent: agent-link.ts. Who
 * else is here, and their cameras, pointers, heads and hands, are presence/. Whether the page
 * may change the room is read with each room (room-rights.ts): a page that may only look is
 * offered no segmentation tool and no mark tool.
 */
import type { VitrineClient } from '../../core/client/client.ts';
import type { LayerSource } from '../../core/wire/scene-types.ts';
import type { DeliveryQuery } from '../../core/wire/wire-types.ts';
import type { RoomEntry } from '../../core/wire/room-types.ts';
import type { Snapshot } from '../../core/wire/snapshot-types.ts';
import { h, replaceChildren } from '../dom.ts';
import type { Layout } from '../layout.ts';
import { AnnotationPanel } from '../panels/annotation-panel.ts';
import { EditPanel } from '../panels/edit-panel.ts';
import { ShownUnits } from '../layers/marks/shown-units.ts';
import { RoomFollower, type RoomSubject } from './room-follower.ts';
import { RoomSceneView } from './room-scene.ts';
import { RoomViewBinding } from './room-view.ts';
import { openSnapshot, snapshotControl } from '../panels/snapshot-view.ts';
import { sessionControls } from '../panels/session-file.ts';
import type { Stage } from '../stage/stage.ts';
import type { StageContent } from '../stage/stage-content.ts';
import { scaleBar } from '../stage/scale-bar.ts';
import { attachValueReadout } from '../layers/volume/value-readout.ts';
import { WhoIsHere } from '../presence/who-is-here.ts';
import { LivePresence } from '../presence/live-presence.ts';
import { ReplayTimeline } from './replay-timeline.ts';
import { AgentLink } from './agent-link.ts';
import { readPageName } from '../url-state.ts';
import { readRoomRights } from './room-rights.ts';

export interface ViewerRoomHooks {
  client: VitrineClient;
  layout: Layout;
  stage: Stage | null;
  /** The page's room. */
  room(): string;
  /** What the page shows (its own subject), as a room entry names it. */
  shown(): RoomSubject | null;
  /** Shows a room entry another peer's request made. */
  adopt(entry: RoomEntry): void;
  /** The user flipped "Follow room". */
  onToggle(follow: boolean): void;
  /** What a page in VR adds to a request. */
  vrDelivery(type: string): DeliveryQuery | undefined;
  /** What the page shows now as a layer's source ("Add current"). */
  current(): LayerSource | null;
  /** The room's stream opened on a room with nothing to draw (no entry to show, no layers). */
  nothingToShow(): void;
}

export class ViewerRoom {
  readonly follower: RoomFollower;
  /** Who else follows the room, beside the switch. */
  readonly here: WhoIsHere;
  /** The others' cameras, pointers, heads and hands on the stage, and this page's sent (null when the page cannot draw). */
  readonly presence: LivePresence | null;
  /** The timeline of a replay playing into the room. */
  readonly timeline: ReplayTimeline;
  readonly view: RoomViewBinding;
  /** The scene; null when the page cannot draw. */
  readonly scene: RoomSceneView | null;
  /** The room's annotations: tools, list and marks on the stage; null when the page cannot draw. */
  readonly marks: AnnotationPanel | null;
  /** The segmentation tools and the edited layer's list of edits; null when the page cannot draw. */
  readonly edits: EditPanel | null;
  /** The room's conversation with its agent, while the page follows the room. */
  readonly agent: AgentLink;
  readonly #hooks: ViewerRoomHooks;
  readonly #readout: HTMLElement | null;
  readonly #units: ShownUnits;
  readonly #banner = h('div', { class: 'snapshot-banner', 'data-testid': 'snapshot-banner', hidden: true });
  /** Counts the reads of the page's rights: only the latest one's answer is used. */
  #rightsRead = 0;

  constructor(hooks: ViewerRoomHooks) {
    this.#hooks = hooks;
    const { client, stage, layout } = hooks;
    const following = (): string | null => (this.follower.enabled ? hooks.room() : null);
    this.here = new WhoIsHere({
      follow: stage ? (peer) => this.presence?.toggleFollow(peer) : undefined,
      changed: (peers, left) => this.presence?.roster(peers, left),
    });
    this.presence = stage ? new LivePresence(client, stage, this.here) : null;
    this.timeline = new ReplayTimeline((steer) => void client.steerReplay(hooks.room(), steer).catch(() => {}));
    this.agent = new AgentLink(client);
    this.follower = new RoomFollower({
      // The page is in the room's presence as a page (a headset in VR), named by its user or its
      // `?name=`; it hears who comes and goes. Its stream says which peer it is: the live socket
      // carries that peer's poses.
      follow: (room, signal) =>
        client.followRoom(room, {
          signal,
          events: 'all',
          as: { kind: this.presence?.kind ?? 'page', name: readPageName() },
          onOpen: (response) => this.presence?.streamOpened(room, response.headers.get('x-peer-id')),
        }),
      shown: hooks.shown,
      adopt: hooks.adopt,
      onToggle: hooks.onToggle,
      followJob: (jobId, signal) => client.followJob(jobId, { signal }),
      view: (view) => this.view.remote(view),
      scene: (scene) => {
        this.scene?.apply(scene);
        this.edits?.showFor(scene);
      },
      opened: (showsSomething) => showsSomething || hooks.nothingToShow(),
      layerEvent: (event) => this.scene?.layerEvent(event) ?? false,
      // Called whenever the follower (re)starts, also with following off: the page's room or its following changed.
      left: () => {
        this.presence?.stop();
        this.here.clear();
        this.timeline.clear();
        this.scene?.reset();
        this.marks?.setRoom(hooks.room(), this.follower.enabled);
        this.edits?.reset();
        this.#readRights();
        this.agent.follow(following());
      },
      conversation: (entry) => this.agent.event(entry),
      marks: (event) => this.marks?.event(event),
      labels: (edit) => this.edits?.event(edit),
      replay: (event) => {
        if (event.event === 'replay') this.timeline.show(event.data);
      },
      presence: (event) => {
        if (event.event === 'presence') return this.here.change(event.data);
        const room = hooks.room();
        void client.roomPresence(room).then(
          (peers) => room === hooks.room() && this.here.reset(peers),
          () => {},
        );
      },
    });
    this.follower.element.append(this.here.element, this.timeline.element);
    this.scene = stage
      ? new RoomSceneView({
          client,
          stage,
          room: following,
          follow: () => this.follower.toggle(true),
          vrDelivery: hooks.vrDelivery,
          showPanel: (panel) => this.#tools(panel),
          current: hooks.current,
          relabelled: (id) => this.edits?.relabelled(id) ?? new Set(),
        })
      : null;
    this.view = new RoomViewBinding({
      stage,
      following,
      send: (room, view) => client.setRoomView(room, view),
      cameraLed: () => this.presence?.leading ?? false,
    });
    this.#readout = stage
      ? attachValueReadout(
          stage,
          (id) => this.scene?.nameOf(id) ?? null,
          (id) => this.unitOf(id),
        ).element
      : null;
    if (this.scene) {
      this.scene.list.addToHead(snapshotControl(client, hooks.room));
      this.scene.list.element.append(sessionControls(client, hooks.room));
      layout.inspector.insertBefore(this.scene.list.element, layout.jobSection);
    }
    this.marks = stage
      ? new AnnotationPanel({
          client,
          stage,
          isLayer: (id) => this.scene?.nameOf(id) != null,
          shownResult: () => layout.dataLink.dataset.resultId ?? null,
        })
      : null;
    if (this.marks) layout.inspector.insertBefore(this.marks.element, layout.jobSection);
    this.edits = stage ? new EditPanel({ client, stage, room: hooks.room, refused: () => this.#readRights() }) : null;
    if (this.edits) layout.inspector.insertBefore(this.edits.element, layout.jobSection);
    layout.inspector.insertBefore(this.agent.panel.element, layout.jobSection);
    this.#units = new ShownUnits(
      (layer) => this.marks?.unitOf(layer) ?? null,
      () => {
        const contents = stage?.layers.list().map((layer) => `${layer.id}:${layer.content?.object.uuid ?? ''}`) ?? [];
        return [hooks.room(), ...contents].join(' ');
      },
    );
    this.marks?.onUnitKnown(() => {
      this.#units.forget();
      // The scale bar reads it on the next frame drawn.
      stage?.invalidate();
    });
    layout.stagePane.append(this.#banner);
    if (stage) layout.stagePane.append(scaleBar(stage, () => this.unitOf(undefined)));
  }

  /**
   * The physical unit of the frame a point picked on `layer` is in: the layer's own when it is a
   * layer of the room's scene, else the room's (undefined: the room's); null while none is known.
   */
  unitOf(layer: string | undefined): string | null {
    const own = layer !== undefined && this.scene?.nameOf(layer) != null;
    return this.#units.unitOf(own ? layer : undefined);
  }

  /** The page's own content is on the stage (the active layer): it takes the room's look and its layer's. */
  shown(content: StageContent | null, panel: HTMLElement | null): void {
    this.view.attach(content);
    if (this.scene) this.scene.bindActive(content, panel);
    else this.#tools(panel);
  }

  /** Opens snapshot `id` read-only (`/?snapshot=<id>`). */
  openSnapshot(id: string, fail: (title: string, detail: string) => void): Promise<void> {
    return openSnapshot(id, {
      client: this.#hooks.client,
      room: this.#hooks.room,
      banner: this.#banner,
      fail,
      show: (snapshot: Snapshot) => {
        this.marks?.showScene(snapshot.scene);
        this.scene?.apply({ ...snapshot.scene, version: 0 }, true);
        if (snapshot.view?.camera) this.#hooks.stage?.setCameraView(snapshot.view.camera);
      },
    });
  }

  /** Reads whether the page may change its room, and offers the segmentation and mark tools as it says. */
  #readRights(): void {
    if (!this.edits && !this.marks) return;
    const asked = ++this.#rightsRead;
    const room = this.#hooks.room();
    void readRoomRights(this.#hooks.client, room).then((rights) => {
      if (asked !== this.#rightsRead) return;
      this.edits?.setWritable(rights.write, rights.why);
      this.marks?.setWritable(rights.write, rights.why);
    });
  }

  /** The tool area: the selected layer's panel, with the readout under it. */
  #tools(panel: HTMLElement | null): void {
    const tools = this.#hooks.layout.stageTools;
    const readout = this.#readout;
    if (panel && readout) panel.append(readout);
    replaceChildren(tools, panel ?? (readout ? h('div', { class: 'slice-panel readout-panel' }, readout) : null));
  }
}
