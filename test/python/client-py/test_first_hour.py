"""What a notebook's first hour needs of vitrine.Client against a real host (VITRINE_URL): a
published volume keeps its length unit, a raw array with labels=True is a labels layer, arrays
given to a room's layers stay out of the shared catalog, and a segment's surface is a layer."""
import json
import os
import unittest
import urllib.request
import uuid

import numpy as np

from vitrine import Client, VolumeResult
from vitrine._decode import decode_response

URL = os.environ["VITRINE_URL"]


def get_json(path):
    with urllib.request.urlopen(f"{URL}{path}") as answer:
        return json.loads(answer.read())


def room():
    return f"py-first-{uuid.uuid4().hex[:12]}"


class FirstHour(unittest.TestCase):
    c = Client(URL)

    def test_a_published_volume_keeps_its_unit(self):
        scan = np.arange(4 * 5 * 6, dtype=np.float32).reshape(4, 5, 6)
        lab = self.c.room(room())
        layer = lab.add(VolumeResult.from_numpy(scan, spacing=(0.5, 0.25, 0.25), unit="micrometer"), id="scan")
        specimen = lab.layer(layer)["source"]["specimen"]
        self.assertEqual(self.c.data(specimen).unit, "micrometer")
        result_id = lab.layer(layer)["result"]["result_id"]
        # What the page's scale bar reads the unit from.
        self.assertEqual(get_json(f"/api/results/{result_id}")["unit"], "micrometer")
        axes = get_json(f"/api/results/{result_id}.zarr/.zattrs")["multiscales"][0]["axes"]
        self.assertEqual([axis.get("unit") for axis in axes], ["micrometer"] * 3)
        # Given to publish() by keyword, too.
        name = f"unit-{uuid.uuid4().hex[:8]}"
        self.c.publish(name, scan, unit="nanometer")
        try:
            self.assertEqual(self.c.data(name).unit, "nanometer")
        finally:
            self.c.unpublish(name)

    def test_an_array_with_labels_true_is_a_labels_layer(self):
        mask = np.zeros((4, 5, 6), dtype=np.int64)
        mask[1:3, 1:4, 2:5] = 3
        lab = self.c.room(room())
        layer = lab.layer(lab.add(mask, labels=True, opacity=0.5))
        self.assertEqual(layer["kind"], "labels")
        self.assertNotIn("labels", layer)
        shown = self.c.data(layer["source"]["specimen"])
        self.assertTrue(shown.labels)
        self.assertEqual(shown.dtype, "uint8")
        np.testing.assert_array_equal(shown.data, mask)
        with self.assertRaises(TypeError):
            lab.add("shape", labels=True)

    def test_a_labels_arrays_names_and_colours_go_with_it(self):
        mask = np.zeros((4, 5, 6), dtype=np.uint16)
        mask[1:3, 1:4, 2:5] = 7
        lab = self.c.room(room())
        layer = lab.layer(lab.add(mask, labels=True, label_names={7: "nucleus"}, label_colors={7: "#ff8800"}))
        self.assertEqual(layer["kind"], "labels")
        self.assertNotIn("label_names", layer)
        shown = self.c.data(layer["source"]["specimen"])
        self.assertEqual(shown.label_names, {"7": "nucleus"})
        self.assertEqual(shown.label_colors, {"7": "#ff8800"})
        with self.assertRaises(TypeError):
            lab.add(mask, label_names={7: "nucleus"})

    def test_a_rooms_arrays_stay_out_of_the_shared_catalog(self):
        before = sorted(entry["id"] for entry in self.c.specimens())
        lab = self.c.room(room())
        layer = lab.layer(lab.add(np.ones((3, 4, 5), dtype=np.float32), id="scan"))
        specimen = layer["source"]["specimen"]
        self.assertEqual(specimen, f"{lab.name}.scan")
        self.assertEqual(sorted(entry["id"] for entry in self.c.specimens()), before)
        mine = {entry["id"]: entry for entry in self.c.specimens(room=lab.name)}
        self.assertEqual(mine[specimen]["room"], lab.name)
        self.assertEqual(self.c.data(specimen).shape, [3, 4, 5])

    def test_a_segments_surface_is_a_layer(self):
        cells = np.zeros((8, 8, 8), dtype=np.uint8)
        cells[1:4, 1:4, 1:4] = 1
        cells[4:7, 2:6, 3:7] = 2
        lab = self.c.room(room())
        lab.add(VolumeResult.from_numpy(cells, spacing=(2.0, 1.0, 1.0)), id="cells", labels=True)
        surface = lab.add_segment("cells", 2, opacity=0.8)
        self.assertEqual(surface, "cells-2")
        layer = lab.layer(surface)
        self.assertEqual(layer["kind"], "mesh")
        self.assertEqual(layer["source"]["segment"], 2)
        self.assertEqual(layer["result"]["type"], "mesh")
        # The layer is the same surface `/data?segment=2` gives, and lies on label 2 (z 4..7 at spacing 2).
        mesh = self.c.data(layer["source"]["specimen"], segment=2)
        shown = decode_response(self.c._http.send("GET", layer["result"]["data_url"]))
        np.testing.assert_array_equal(shown.vertices, mesh.vertices)
        self.assertEqual(get_json(f"/api/results/{layer['result']['result_id']}")["type"], "mesh")
        self.assertGreater(mesh.vertices[:, 2].min(), 6.0)
        self.assertLess(mesh.vertices[:, 2].max(), 14.0)
        everything = lab.layer(lab.add_segment("cells"))
        self.assertEqual(everything["source"]["segment"], "all")
        with self.assertRaises(ValueError):
            lab.add_segment("cells", 0)


if __name__ == "__main__":
    unittest.main()
