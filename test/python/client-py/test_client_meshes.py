"""A labels volume's surfaces in levels of detail through vitrine.Client (its host's URL in
VITRINE_URL): `result.mesh(segment, level)` gives the octree's level as one mesh in physical
units, each coarser level with fewer triangles, as the host's sidecar counts them."""
import json
import os
import unittest
import urllib.request
import uuid

import numpy as np

from vitrine import Client, MeshResult, VolumeResult

URL = os.environ["VITRINE_URL"]


class Levels(unittest.TestCase):
    def test_a_segment_at_each_level(self):
        c = Client(URL)
        n = 64
        z, y, x = np.mgrid[0:n, 0:n, 0:n]
        ids = np.zeros((n, n, n), dtype=np.uint8)
        ids[np.hypot(np.hypot(x - 32, y - 32), z - 32) < 28] = 3
        name = f"cells-{uuid.uuid4().hex[:8]}"
        c.publish(name, ids, labels=True, spacing=[2, 1, 1], origin=[10, 0, 0])
        volume = c.data(name)
        self.assertIsInstance(volume, VolumeResult)
        with urllib.request.urlopen(f"{URL}/api/results/{volume.result_id}/meshes/3.json") as answer:
            sidecar = json.loads(answer.read())
        counts = []
        for level in range(sidecar["levels"]):
            mesh = volume.mesh(segment=3, level=level)
            self.assertIsInstance(mesh, MeshResult)
            counts.append(int(np.asarray(mesh.indices).size) // 3)
            # Physical units: z runs from the origin's 10 over 48 slices 2 apart.
            self.assertGreater(float(mesh.vertices[:, 2].min()), 10 + 2 * 3)
            self.assertLess(float(mesh.vertices[:, 2].max()), 10 + 2 * 61)
        self.assertEqual(counts, sidecar["level_triangles"])
        self.assertGreater(len(counts), 1)
        self.assertEqual(counts, sorted(counts, reverse=True))
        with self.assertRaises(Exception):
            volume.mesh(segment=4, level=0)
