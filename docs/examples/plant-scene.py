"""The plant session as one room's scene, from a Python script.

A scan of a plant stem (a 256³ uint8 volume), its segmentation into a few cells (a labels
layer at opacity 0.4 over the scan) and one cell's surface (a mesh the host makes from the
segmentation itself: a segment layer), all three in one room, with two marks on that cell (a
point at its centre, a ruler across it): every page, headset and notebook following the room
shows them together, in one physical frame, and so does a stock Neuroglancer opening the room's
state (`room.neuroglancer()`). The arrays are published for
the room alone: the catalog everyone else sees is left as it was.

    python3 docs/examples/plant-scene.py --url http://127.0.0.1:8000 --room plant
    # then open http://127.0.0.1:8000/?room=plant&follow=1

Needs only numpy and the `vitrine` module (`npx vitrine python-path` prints its folder).
"""
from __future__ import annotations

import argparse
import os

import numpy as np

from vitrine import Client, VolumeResult

#: The cells of the stem: centre (z, y, x) and radii, as fractions of the volume's side.
CELLS = [
    ((0.22, 0.50, 0.46), (0.13, 0.16, 0.15)),
    ((0.42, 0.47, 0.52), (0.12, 0.17, 0.14)),
    ((0.60, 0.53, 0.49), (0.11, 0.15, 0.16)),
    ((0.78, 0.49, 0.55), (0.12, 0.14, 0.13)),
    ((0.50, 0.26, 0.50), (0.10, 0.09, 0.11)),
]


def plant(size: int, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """A scan (uint8: bright cell walls, textured interiors, noise) and its labels (uint8:
    0 background, 1..N the cells), both `size`³ in z, y, x order."""
    rng = np.random.default_rng(seed)
    z, y, x = (np.arange(size, dtype=np.float32)[:, None, None] / size,
               np.arange(size, dtype=np.float32)[None, :, None] / size,
               np.arange(size, dtype=np.float32)[None, None, :] / size)
    labels = np.zeros((size, size, size), dtype=np.uint8)
    nearest = np.full((size, size, size), np.inf, dtype=np.float32)
    for id, ((cz, cy, cx), (rz, ry, rx)) in enumerate(CELLS, start=1):
        distance = np.sqrt(((z - cz) / rz) ** 2 + ((y - cy) / ry) ** 2 + ((x - cx) / rx) ** 2)
        inside = (distance < 1.0) & (distance < nearest)
        labels[inside] = id
        nearest = np.minimum(nearest, distance)
    # Walls: where the label changes along any axis.
    walls = np.zeros(labels.shape, dtype=bool)
    for axis in range(3):
        walls |= np.diff(labels, axis=axis, prepend=labels.take([0], axis=axis)) != 0
    scan = rng.normal(30, 8, labels.shape).astype(np.float32)
    scan += np.where(labels > 0, 50 + 12 * labels.astype(np.float32), 0)
    scan[walls] = 230
    return np.clip(scan, 0, 255).astype(np.uint8), labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("VITRINE_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--room", default="plant")
    parser.add_argument("--size", type=int, default=256, help="voxels along each axis (default 256)")
    parser.add_argument("--segment", type=int, default=3, help="the cell whose surface is shown")
    args = parser.parse_args()

    scan, labels = plant(args.size)
    room = Client(args.url).room(args.room)
    room.clear()
    scan_volume = VolumeResult.from_numpy(scan, spacing=(1.0, 1.0, 1.0), unit="micrometer")
    room.add(scan_volume, id="scan", name="Plant stem (scan)", colormap="gray", window=(0, 255))
    # A segmentation: shown in categorical colours over the scan (a labels layer).
    room.add(VolumeResult.from_numpy(labels, spacing=(1.0, 1.0, 1.0), unit="micrometer"), id="cells", name="Cells (segmentation)",
             labels=True, opacity=0.4)
    # One cell's surface, made by the host from the segmentation (as napari and Neuroglancer draw a segment).
    room.add_segment("cells", args.segment, id=f"cell-{args.segment}-surface", name=f"Cell {args.segment} (surface)", opacity=0.9)
    # Marks on that cell, in micrometres (x, y, z; voxel i at i µm): a point at its centre and a
    # ruler across it along x (the host measures its length). A run replaces the last run's marks.
    for mark in room.annotations():
        room.remove_annotation(mark["id"])
    (cz, cy, cx), (_, _, rx) = CELLS[args.segment - 1]
    centre = [round(cx * args.size, 1), round(cy * args.size, 1), round(cz * args.size, 1)]
    room.annotate("point", centre, label=f"cell {args.segment}", color="#ffd23f")
    across = [[round((cx - 0.8 * rx) * args.size, 1), centre[1], centre[2]], [round((cx + 0.8 * rx) * args.size, 1), centre[1], centre[2]]]
    ruler = room.annotate("line", across, label="across", color="#5cf2a0")

    for layer in room.layers:
        result = layer.get("result", {})
        print(f"{layer['id']:>16}  {layer['kind']:<6} opacity {layer['opacity']:<4} {result.get('type', '?')} {result.get('result_id', '')[:12]}")
    print(f"ruler across cell {args.segment}: {ruler['length']:.1f} micrometer")
    print(f"room {args.room}: {args.url}/?room={args.room}&follow=1")
    print(f"neuroglancer state: {args.url}/api/rooms/{args.room}/neuroglancer")
    print(f"snapshot: {args.url}{room.snapshot()['url']}")


if __name__ == "__main__":
    main()
