"""Example specimens written in Python with nothing but the standard library.

The host runs these functions in its own Python processes; `vitrine build` reads their
signatures (annotations, defaults, the docstrings' Parameters sections) without running them.
"""
from __future__ import annotations

import math
from array import array
from typing import Annotated

from vitrine import Color, MeshResult, PointCloudResult, ProgressReporter, Range, VolumeResult

from shell_geometry import shell_point


def seashell(
    turns: Annotated[float, Range(1, 8)] = 4.0,
    growth: Annotated[float, Range(0.05, 0.4)] = 0.18,
    segments: Annotated[int, Range(8, 256)] = 120,
    sides: Annotated[int, Range(6, 64)] = 24,
    progress: ProgressReporter | None = None,
) -> MeshResult:
    """A seashell: a tube whose radius grows as it winds along a logarithmic spiral.

    Parameters
    ----------
    turns
        How many times the shell winds around its axis.
    growth
        How fast the shell widens per turn (a logarithmic spiral's rate).
    segments
        Rings along the tube.
    sides
        Vertices around each ring.
    """
    # About 30 cm across at the mouth, whatever the growth: a headset shows it at real size.
    size = 0.2 / math.exp(growth * turns * 2 * math.pi)
    vertices = array("f")
    for i in range(segments + 1):
        t = turns * 2 * math.pi * i / segments
        for j in range(sides):
            vertices.extend(shell_point(t, 2 * math.pi * j / sides, growth, size))
        if progress is not None and i % 40 == 0:
            progress.report(f"ring {i} of {segments}", i / segments)
    indices = array("I")
    for i in range(segments):
        for j in range(sides):
            a = i * sides + j
            b = i * sides + (j + 1) % sides
            indices.extend((a, a + sides, b, b, a + sides, b + sides))
    return MeshResult(vertices=vertices, indices=indices)


def interference(
    size: Annotated[int, Range(16, 128)] = 64,
    sources: Annotated[int, Range(1, 6)] = 3,
    wavelength: Annotated[float, Range(0.05, 1)] = 0.3,
) -> VolumeResult:
    """Waves from point sources on a ring, summed: bright where they meet in phase.

    Parameters
    ----------
    size
        Samples along each axis of the cube [-1, 1]³.
    sources
        How many sources sit on the ring.
    wavelength
        Distance between two crests of one wave.
    """
    points = [(0.6 * math.cos(2 * math.pi * k / sources), 0.6 * math.sin(2 * math.pi * k / sources), 0.0) for k in range(sources)]
    k = 2 * math.pi / wavelength
    axis = [2 * i / (size - 1) - 1 for i in range(size)]
    data = array("f", bytes(4 * size**3))
    n = 0
    for z in axis:
        for y in axis:
            for x in axis:
                data[n] = sum(math.cos(k * math.dist((x, y, z), p)) for p in points) / sources
                n += 1
    step = 2 / (size - 1)
    return VolumeResult(shape=[size, size, size], dtype="float32", data=data, spacing=[step] * 3, origin=[-1.0] * 3)


def phyllotaxis(
    count: Annotated[int, Range(100, 20000)] = 3000,
    colour: Color = "#e0a030",
) -> PointCloudResult:
    """Seeds on a dome in the sunflower's pattern: each turned from the last by the golden angle.

    Parameters
    ----------
    count
        How many seeds.
    colour
        The colour of the outer seeds; the centre is darker.
    """
    golden = math.pi * (3 - math.sqrt(5))
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    points = array("f")
    colors = array("B")
    for i in range(count):
        r = math.sqrt(i / count)
        theta = i * golden
        points.extend((r * math.cos(theta), 0.5 * (1 - r * r), r * math.sin(theta)))
        shade = 0.35 + 0.65 * r
        colors.extend((int(red * shade), int(green * shade), int(blue * shade)))
    return PointCloudResult(points=points, colors=colors)


specimens = [
    {
        "id": "seashell",
        "function": "seashell",
        "display_name": "Seashell (Python)",
        "description": "A tube winding along a logarithmic spiral, widening as it goes.",
        "tags": ["mesh", "python", "parametric"],
        "color": "#d9b38c",
    },
    {
        "id": "wave-interference",
        "function": "interference",
        "display_name": "Wave interference (Python)",
        "description": "Waves from sources on a ring, summed in a cube.",
        "tags": ["volume", "python"],
    },
    {
        "id": "phyllotaxis",
        "function": "phyllotaxis",
        "display_name": "Phyllotaxis (Python)",
        "description": "Seeds placed by the golden angle, as in a sunflower head.",
        "tags": ["point cloud", "python"],
    },
]
