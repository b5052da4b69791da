/**
 * @module viewer-layers
 * The layering of `viewer/`, as core-layers.ts is of `core/`: its rooms (a folder, or a file
 * at its root) from low to high. A room may import from the rooms of lower layers and from
 * itself, never from a room of its own layer or of a higher one. The stage machinery knows no
 * layer kind; the kinds stand on it; the panels and the VR mode on both; a room's following on
 * all of them; the page puts it together. Type imports, dynamic imports and stylesheets count
 * like any other. A new folder or root file gets a place here before it imports or is imported.
 */
import type { LayerTable } from './core-imports.ts';
import { folderOf } from './core-layers.ts';

/** Low to high. Rooms of one layer are independent of each other. */
export const VIEWER_LAYERS: readonly (readonly string[])[] = [
  // The page's vocabulary: DOM helpers, the user's token, the page URL's state, its stylesheet.
  ['dom.ts', 'page-token.ts', 'url-state.ts', 'styles.css'],
  // A build failure shown over the page; results asked for coarse first, then refined.
  ['build-error-overlay.ts', 'coarse-first.ts'],
  // The stage machinery (renderer, camera, contents and their look, picking, depth, the slice
  // link, the overlay, the facts over the canvas), which knows no layer kind; the time axis's
  // machinery (steps fetched and kept, the player and its clock, the controls), free of three.js
  // drawing; the host's event stream.
  ['stage/', 'time/', 'host-events.ts'],
  // The layer kinds, each a folder drawing its kind on the stage (a stepped volume is the volume
  // kind's), and the kind dispatch (layers/render-data.ts). A mesh drawn at several resolutions
  // (an octree of fragments chosen by screen-space error) is the mesh kind's (layers/mesh/): it
  // reads the camera from the stage below every frame, so the page and WebXR, which draws with
  // the stage's renderer, show it alike; its fragments come through what its caller hands it,
  // as a stepped volume's steps do. Nothing below learns of it.
  ['layers/'],
  // The inspector's sections and the stage's tools (the annotation panel over the marks kind),
  // and the people in the room drawn and listed. A conversation with a room's agent (its text
  // turns, the transcript) is a panel here, handed its connection by room/ above, as the
  // annotation panel is handed its client.
  ['panels/', 'presence/'],
  // The page's regions; the VR mode and its panel (above the kinds and the panels it works).
  ['layout.ts', 'xr/'],
  // Following a room: its scene and layer rows, loading layers through the kind dispatch, sync.
  ['room/'],
  // The page: the VR mode joined to it, a loaded specimen shown, its subject opened and run.
  ['page-vr.ts', 'subject-open.ts', 'viewer-controls.ts'],
  ['subject-run.ts'],
  ['viewer-app.ts'],
  // The bundle's entry: the page and its stylesheets.
  ['main.ts'],
];

/** The viewer's table: a room is a folder of viewer/ or a file at its root; no known exceptions. */
export const VIEWER_TABLE: LayerTable = { layers: VIEWER_LAYERS, roomOf: folderOf, knownExceptions: [] };
