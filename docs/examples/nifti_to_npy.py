#!/usr/bin/env python3
"""Turn a NIfTI-1 volume (.nii or .nii.gz) into a vitrine specimen: a .npy and its sidecar.

    /usr/bin/python3 docs/examples/nifti_to_npy.py scan.nii.gz specimens/my-scan/scan.npy

needs only the standard library and numpy (no nibabel). The array is written in C order
(z, y, x), as vitrine reads volumes; the sidecar beside it (scan.json) gives the spacing
and origin in millimetres, in the same (z, y, x) order, from the file's sform (else its
qform, else its voxel sizes). An axis the scanner stored reversed (a negative step in the
affine) is flipped, so the spacing is positive and the origin is the first voxel's centre.

The stored integers are kept as they are; `--scaled` applies the file's scl_slope and
scl_inter and writes float32 (four times the bytes). An oblique affine (a rotation, not
only flips) is refused: a specimen has a spacing and an origin, not a rotation.
"""
import argparse
import gzip
import json
import struct
import sys
from pathlib import Path
from typing import List, Tuple

import numpy as np

DTYPES = {2: 'u1', 4: 'i2', 8: 'i4', 16: 'f4', 64: 'f8', 256: 'i1', 512: 'u2', 768: 'u4'}


def read_nifti(raw: bytes) -> Tuple[np.ndarray, np.ndarray, float, float]:
    """The volume as (z, y, x), its 4x4 voxel-to-mm affine (x, y, z), slope and intercept."""
    if struct.unpack('<i', raw[:4])[0] == 348:
        end = '<'
    elif struct.unpack('>i', raw[:4])[0] == 348:
        end = '>'
    else:
        raise ValueError('not a NIfTI-1 file (the header size is not 348)')
    if raw[344:347] not in (b'n+1', b'ni1'):
        raise ValueError('not a NIfTI-1 file (no n+1 magic)')
    dim = struct.unpack(end + '8h', raw[40:56])
    if dim[0] < 3 or any(d > 1 for d in dim[4:dim[0] + 1]):
        raise ValueError(f'only 3-D volumes are read here; this one has dims {dim[1:dim[0] + 1]}')
    code = struct.unpack(end + 'h', raw[70:72])[0]
    if code not in DTYPES:
        raise ValueError(f'NIfTI datatype {code} is not read here')
    pixdim = struct.unpack(end + '8f', raw[76:108])
    offset = int(struct.unpack(end + 'f', raw[108:112])[0])
    slope, inter = struct.unpack(end + '2f', raw[112:120])
    nx, ny, nz = dim[1:4]
    dtype = np.dtype(end + DTYPES[code])
    count = nx * ny * nz
    data = np.frombuffer(raw, dtype=dtype, count=count, offset=offset)
    # NIfTI stores x fastest: read in C order that is (z, y, x).
    volume = data.reshape(nz, ny, nx).astype(dtype.newbyteorder('<'))
    return volume, affine_of(raw, end, pixdim), slope, inter


def affine_of(raw: bytes, end: str, pixdim: Tuple[float, ...]) -> np.ndarray:
    """The voxel (x, y, z) to millimetre affine: sform, else qform, else the voxel sizes."""
    qform, sform = struct.unpack(end + '2h', raw[252:256])
    if sform > 0:
        rows = [struct.unpack(end + '4f', raw[280 + 16 * i:296 + 16 * i]) for i in range(3)]
        return np.array(rows + [(0.0, 0.0, 0.0, 1.0)])
    affine = np.diag([pixdim[1], pixdim[2], pixdim[3], 1.0])
    if qform > 0:
        b, c, d, qx, qy, qz = struct.unpack(end + '6f', raw[256:280])
        a = np.sqrt(max(0.0, 1.0 - (b * b + c * c + d * d)))
        rotation = np.array([
            [a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)],
            [2 * (b * c + a * d), a * a + c * c - b * b - d * d, 2 * (c * d - a * b)],
            [2 * (b * d - a * c), 2 * (c * d + a * b), a * a + d * d - c * c - b * b],
        ])
        qfac = -1.0 if pixdim[0] < 0 else 1.0
        affine[:3, :3] = rotation @ np.diag([pixdim[1], pixdim[2], pixdim[3] * qfac])
        affine[:3, 3] = (qx, qy, qz)
    return affine


def to_specimen(volume: np.ndarray, affine: np.ndarray) -> Tuple[np.ndarray, List[float], List[float]]:
    """The volume with reversed axes flipped, its (z, y, x) spacing and origin."""
    linear = affine[:3, :3]
    if np.count_nonzero(np.abs(linear) > 1e-6 * np.abs(linear).max()) != 3 or not np.allclose(linear, np.diag(np.diag(linear))):
        raise ValueError('the affine is oblique (a rotation); only spacing and origin can be kept')
    steps = np.diag(linear).copy()
    origin = affine[:3, 3].copy()
    counts = volume.shape[::-1]  # x, y, z
    for axis in range(3):
        if steps[axis] < 0:
            origin[axis] += steps[axis] * (counts[axis] - 1)
            steps[axis] = -steps[axis]
            volume = np.flip(volume, axis=2 - axis)
    spacing = [round(float(s), 6) for s in steps[::-1]]
    first = [round(float(o), 6) for o in origin[::-1]]
    return np.ascontiguousarray(volume), spacing, first


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description='NIfTI-1 volume to a vitrine .npy with its sidecar')
    parser.add_argument('source', type=Path)
    parser.add_argument('target', type=Path, help='the .npy to write; its sidecar is the same name with .json')
    parser.add_argument('--scaled', action='store_true', help="apply scl_slope and scl_inter (float32)")
    args = parser.parse_args(argv)
    raw = args.source.read_bytes()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    try:
        volume, affine, slope, inter = read_nifti(raw)
        volume, spacing, origin = to_specimen(volume, affine)
    except ValueError as error:
        print(f'{args.source}: {error}', file=sys.stderr)
        return 2
    if args.scaled and (slope not in (0.0, 1.0) or inter != 0.0):
        volume = (volume.astype(np.float32) * np.float32(slope or 1.0) + np.float32(inter)).astype(np.float32)
    args.target.parent.mkdir(parents=True, exist_ok=True)
    np.save(args.target, volume)
    sidecar = {'spacing': spacing, 'origin': origin, 'units': 'mm'}
    args.target.with_suffix('.json').write_text(json.dumps(sidecar, indent=2) + '\n')
    print(f'{args.target}: {volume.shape} {volume.dtype}, spacing {spacing} mm, origin {origin} mm')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
