/**
 * @module scene-types
 * The wire shapes of a room's scene (many layers in one physical frame), of its annotations
 * (marks and measurements kept by the host) and of time and channels: one definition for the
 * host, the viewer and every other client, as `wire-types.ts` is for the rest.
 */
import type { ResultType } from '../sdk/result-types.ts';
import type { LayerProvenance } from './provenance-types.ts';

/** A point in physical units (x, y, z). */
export type Vec3 = [number, number, number];

/** What a layer shows: a volume or image, a segmentation, a mesh, or points. */
export type LayerKind = 'image' | 'labels' | 'mesh' | 'points';

/** How a layer is combined with what is drawn below it. */
export type LayerBlending = 'translucent' | 'additive' | 'opaque' | 'maximum' | 'minimum';

/** Points of the room bound to a parameter: those with `label`, or all points without one. */
export interface PointBinding {
  label?: string;
}

/**
 * Where a layer's result comes from, as `/data` names it: a specimen or a function with its
 * parameters, and optionally parameters bound to the room's point annotations.
 */
export interface LayerSource {
  specimen?: string;
  function?: string;
  params?: Record<string, unknown>;
  bind?: Record<string, PointBinding>;
  /** The plugin version (a version or a bundle id) that computes it; absent: the newest. */
  version?: string;
  /** The surface of this label (or of every label, `all`) of the labels volume the source gives: a mesh layer. */
  segment?: number | 'all';
}

/** How a labels layer is drawn: colour overrides, the selected ids, and which ids show. */
export interface LayerLabels {
  colors?: Record<string, string>;
  selected?: number[];
  show?: 'all' | 'selected';
}

/** One channel of a multichannel layer as the room shows it. */
export interface LayerChannel {
  visible?: boolean;
  color?: string;
  window?: [number, number];
}

/** A layer's computed result, set by the host. */
export interface LayerResult {
  /**
   * The result's content id. Absent for a static file the host serves only as it is (a `.xyz`
   * point cloud, which no parser reads): the host holds no result of it, so names none.
   */
  result_id?: string;
  type: ResultType;
  /**
   * Where its data is read, as `/data` sends it (delivery options as query parameters): a
   * computed layer's `/api/rooms/{room}/layers/{id}/data` (computed again when its cache slot
   * let it go), a static specimen's `/api/specimens/{id}/data`; in a snapshot, the blob's URL.
   */
  data_url: string;
  /** The bytes in their default form at `/api/blobs/{blob_id}`, for as long as the host holds them. */
  blob_id?: string;
  /**
   * Set when the result has levels of detail at `/api/results/{result_id}/meshes/` (a labels
   * volume, a mesh over `--mesh-lod-triangles`): a viewer draws its surfaces from them.
   */
  levels?: true;
  /** What made it (a computed result). */
  provenance?: LayerProvenance;
}

/** How a layer looks; every field optional, each shared like the room's view. */
export interface LayerDisplay {
  name?: string;
  visible?: boolean;
  /** 0 (clear) to 1 (opaque). */
  opacity?: number;
  blending?: LayerBlending;
  colormap?: string;
  /** The display window `[low, high]` in data units. */
  window?: [number, number];
  gamma?: number;
  mode?: 'slices' | 'volume' | 'surface' | 'points';
  /** 4×4, row-major, physical units; identity when absent. */
  affine?: number[];
  /** At most four planes `[a, b, c, d]`: points with ax+by+cz+d ≥ 0 are kept. */
  clip_planes?: [number, number, number, number][];
  labels?: LayerLabels;
  /** The time step shown (results with a time axis). */
  t?: number;
  /** Steps per second while playing; 0 when paused. */
  playing?: number;
  channels?: LayerChannel[];
}

/** One layer of a room's scene. */
export interface SceneLayer extends LayerDisplay {
  id: string;
  source: LayerSource;
  kind: LayerKind;
  result?: LayerResult;
  /** Set by the host: the layer still shows `result`, but its source no longer gives it. */
  stale?: LayerStale;
  /**
   * Set by the host: the layer has no result because its source failed (a remote that does not
   * answer, parameters a function refuses), with why. Gone once a result is set or its source
   * changes; a remote's failure is tried again by itself, a while later.
   */
  failed?: LayerStale;
  /**
   * Set by the host: who made the layer's last change (adding it, or changing its source or how
   * it looks), as the host knows them: a user's name, or `anonymous`. Never read from a request.
   */
  by?: string;
}

/**
 * Why a layer's result is stale: computing its source again failed (a reload brought a plugin
 * version that refuses its parameters, say) while the layer kept showing its last result. Gone
 * once a result of its source is set again.
 */
export interface LayerStale {
  /** The error's code (`SPC_ERR_PARAM_INVALID`, ...) and its readable detail. */
  code: string;
  detail: string;
}

/** A room's scene: its layers bottom first, and which one is the room's entry. */
export interface RoomScene {
  version: number;
  layers: SceneLayer[];
  active: string | null;
}

/** A layer as a request gives it (`POST .../layers`, each of `PUT .../scene`'s): the host makes its id and kind when absent. */
export interface NewLayer extends LayerDisplay {
  id?: string;
  source: LayerSource;
  kind?: LayerKind;
}

/** `PATCH .../layers/{id}`: the fields given are merged; `null` takes a display field back to its default. */
export type LayerChange = { [K in keyof LayerDisplay]?: LayerDisplay[K] | null } & {
  source?: LayerSource;
  kind?: LayerKind;
  /** True makes the layer the active one: the room's entry. */
  active?: true;
};

/** `POST /api/rooms/{room}/snapshots`' answer. */
export interface SnapshotCreated {
  id: string;
  url: string;
  /** The seq of the room's log entry recording it: the room's changes up to it are what it holds. */
  log_seq?: number;
  /**
   * Taking in a session file: each published specimen it carried that this host kept its own of
   * (other bytes, or a specimen of another kind under that id), and why. Absent when none.
   */
  kept_own?: { specimen: string; detail: string }[];
}

/** The kinds of annotation, each with the points it takes (see {@link AnnotationInput}). */
export const ANNOTATION_KINDS = ['point', 'line', 'polyline', 'box', 'ellipsoid'] as const;

/** An annotation's kind and the points it takes. */
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number];

/**
 * What a client sends for a new annotation: its kind and points (one point; two ends; two or
 * more vertices; two opposite corners; a centre then its radii) and what it may add; the host
 * adds the id, version, times and measurements.
 */
export interface AnnotationInput {
  kind: AnnotationKind;
  points: Vec3[];
  layer?: string;
  label?: string;
  color?: string;
  properties?: Record<string, number | string>;
  author?: string;
}

/** A mark kept by the host for a room, with what the host measured of it. */
export interface Annotation extends AnnotationInput {
  id: string;
  version: number;
  /** Milliseconds since the epoch. */
  created: number;
  updated: number;
  /** Lines and polylines, in physical units. */
  length?: number;
  /** Boxes and ellipsoids, in physical units cubed. */
  volume?: number;
}

/** `GET /api/rooms/{room}/annotations`. */
export interface AnnotationList {
  version: number;
  annotations: Annotation[];
}

/** One change to a room's annotations, and the room's annotation version after it. */
export interface AnnotationEvent {
  op: 'add' | 'change' | 'remove';
  annotation: Annotation;
  version: number;
}

/** The axes of a volume in NGFF order: space only, or with channels and/or time. */
export type VolumeAxes = 'zyx' | 'czyx' | 'tzyx' | 'tczyx';

/** A channel of a multichannel volume as its result names it. */
export interface VolumeChannel {
  name?: string;
  color?: string;
  window?: [number, number];
}

/** Which step of a volume with time or channels an answer is, and the size of every axis of the whole. */
export interface VolumeStepInfo {
  t: number;
  /** A channel index, or a vector field's `magnitude` or `rgb`. */
  c: number | 'magnitude' | 'rgb';
  /** Each axis's length by name, in NGFF order: `{"t": 301, "c": 3, "z": 20, "y": 100, "x": 100}`. */
  sizes: Record<string, number>;
}

/** What a volume says of its time and channels: the whole array's axes, or the step an answer is. */
export interface VolumeAxesInfo {
  axes?: VolumeAxes;
  channels?: VolumeChannel[];
  time_step?: number;
  time_unit?: string;
  vector?: boolean;
  /** The length unit of `spacing` and `origin` (`micrometer`, ...), when the volume names one. */
  unit?: string;
  step?: VolumeStepInfo;
}

/** A room computation that failed: what it was, and the error, so no follower waits on. */
export interface RoomFailed {
  function_name: string | null;
  specimen_id: string | null;
  params?: Record<string, unknown>;
  job_id: string | null;
  code: string;
  detail: string;
  /** The layer whose computation failed, when a scene's layer was being computed. */
  layer?: string;
}
