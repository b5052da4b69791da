/**
 * @module scene-limits
 * How much a room's scene may hold. Every field is bounded, and each layer's JSON as a whole
 * too, so a scene of the most layers, each as large as allowed, stays under MAX_SCENE_BYTES
 * (64 KiB) with the result the host adds to each: colour tables of many labels, arrays and
 * annotations live in results and stores of their own, never in the scene that every follower
 * receives on each change.
 */

/** Layers in one scene. */
export const MAX_LAYERS = 32;
/** A layer id: letters, digits, `_`, `.` and `-`, 1 to 64 of them; not `.` or `..` (clients that normalise URLs could not reach them). */
export const LAYER_ID_PATTERN = /^(?!\.\.?$)[A-Za-z0-9_.-]{1,64}$/;
/** The whole scene as JSON (the `scene` event's data, `GET .../scene`), in bytes. */
export const MAX_SCENE_BYTES = 64 * 1024;
/**
 * One layer as JSON without its `result`, in bytes: 32 such layers with their results (at most
 * about 360 bytes each in a room whose id has up to 64 URL-safe characters) take under 60 KiB.
 */
export const MAX_LAYER_BYTES = 1536;
/** A layer's `name`, in characters. */
export const MAX_NAME_LENGTH = 128;
/** A source's `specimen` id or `function` name, in characters. */
export const MAX_SOURCE_NAME_LENGTH = 200;
/** A source's `params` as JSON, in bytes. */
export const MAX_PARAMS_BYTES = 1024;
/** Parameters one source binds to the room's points. */
export const MAX_BINDINGS = 8;
/** A bound parameter's name and its `label`, in characters. */
export const MAX_BINDING_TEXT = 64;
/** Colour overrides in a layer's `labels.colors`. */
export const MAX_LABEL_COLORS = 32;
/** Ids in a layer's `labels.selected`. */
export const MAX_SELECTED_LABELS = 64;
/** Clipping planes of one layer. */
export const MAX_CLIP_PLANES = 4;
/** Channels a layer sets the look of. */
export const MAX_CHANNELS = 8;
/** The largest label id (labels are uint8, uint16 or uint32 volumes). */
export const MAX_LABEL_ID = 4294967295;
/** The largest time step, and the most steps per second while playing. */
export const MAX_TIME_STEP = 2 ** 31 - 1;
export const MAX_PLAYING_RATE = 1000;
