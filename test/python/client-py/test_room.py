"""vitrine.Client.room against a real host (its URL in VITRINE_URL): layers added from numpy
arrays, result objects, specimens and functions, each waited for until computed; changed,
removed, snapshotted and restored; bad fields and failing functions as VitrineError."""
import os
import tarfile
import tempfile
import unittest
import urllib.request
import json
import uuid

import numpy as np

from vitrine import Client, MeshResult, Snapshot, VitrineError

URL = os.environ["VITRINE_URL"]


def room():
    return f"py-scene-{uuid.uuid4()}"


class RoomScene(unittest.TestCase):
    c = Client(URL)

    def test_layers_from_arrays_results_specimens_and_functions(self):
        lab = self.c.room(room())
        self.assertEqual(lab.layers, [])
        volume = (np.arange(4 * 5 * 6, dtype=np.uint8) % 200).reshape(4, 5, 6)
        scan = lab.add(volume, id="scan", colormap="gray", window=(0, 199))
        labels = np.zeros((4, 5, 6), dtype=np.uint8)
        labels[1:3, 1:4, 2:5] = 2
        mask = lab.add(labels, id="mask", kind="labels", opacity=np.float32(0.4), labels={"colors": {"2": "#ff8800"}})
        surface = lab.add(MeshResult(vertices=[0, 0, 0, 1, 0, 0, 0, 1, 0], indices=[0, 1, 2]), name="surface")
        cloud = lab.add(function="galaxy", params={"count": 50})
        shape = lab.add("shape", index=0)
        ids = [layer["id"] for layer in lab.layers]
        self.assertEqual(ids, [shape, scan, mask, surface, cloud])
        by_id = {layer["id"]: layer for layer in lab.layers}
        self.assertEqual(by_id["scan"]["kind"], "image")
        self.assertEqual(by_id["mask"]["kind"], "labels")
        self.assertAlmostEqual(by_id["mask"]["opacity"], 0.4, places=6)
        self.assertEqual(by_id[surface]["kind"], "mesh")
        self.assertEqual(by_id[cloud]["kind"], "points")
        for layer in lab.layers:
            self.assertTrue(layer["result"]["result_id"], layer["id"])
        self.assertEqual(lab.scene()["active"], "scan")
        # What was published is what the layer shows.
        shown = self.c.data(by_id["scan"]["source"]["specimen"])
        np.testing.assert_array_equal(shown.data, volume)

        changed = lab.update(mask, visible=False, opacity=None)
        self.assertEqual((changed["visible"], changed["opacity"]), (False, 1))
        lab.update(cloud, active=True)
        entry = self.c.entry(lab.name)
        assert entry is not None
        self.assertEqual(entry["function_name"], "galaxy")
        lab.remove(surface)
        self.assertNotIn(surface, [layer["id"] for layer in lab.layers])

        taken = lab.snapshot()
        self.assertEqual(taken["url"], f"/?snapshot={taken['id']}")
        lab.clear()
        self.assertEqual(lab.layers, [])
        restored = lab.restore(taken["id"])
        self.assertEqual([layer["id"] for layer in restored["layers"]], [shape, scan, mask, cloud])
        state = lab.neuroglancer()
        self.assertIn("layers", state)

    def test_saved_to_a_file_and_loaded_again(self):
        lab = self.c.room(room())
        lab.add((np.arange(3 * 4 * 5, dtype=np.uint16) * 7).reshape(3, 4, 5), id="scan")
        lab.add(function="galaxy", params={"count": 20}, id="cloud")
        lab.annotate("point", [1, 2, 3], label="seed")
        shown = {layer["id"]: layer["result"]["result_id"] for layer in lab.layers}
        folder = tempfile.mkdtemp()
        saved = lab.save(os.path.join(folder, "lab.vitrine"))
        self.assertEqual(saved["path"], os.path.join(folder, "lab.vitrine"))
        self.assertTrue(tarfile.is_tarfile(saved["path"]))
        self.assertEqual(lab.save(folder)["path"], os.path.join(folder, f"{saved['id']}.vitrine"))

        loaded = self.c.load(saved["path"])
        self.assertIsInstance(loaded, Snapshot)
        self.assertEqual((loaded.id, loaded.url), (saved["id"], saved["url"]))
        other = self.c.room(room())
        scene = loaded.restore(other.name)
        self.assertEqual({layer["id"]: layer["result"]["result_id"] for layer in scene["layers"]}, shown)
        self.assertEqual([mark["label"] for mark in other.annotations()], ["seed"])

        damaged = os.path.join(folder, "damaged.vitrine")
        with open(saved["path"], "rb") as source:
            data = bytearray(source.read())
        with open(damaged, "wb") as out:
            out.write(data[: len(data) // 2])
        with self.assertRaises(VitrineError) as cut:
            self.c.load(damaged)
        self.assertEqual((cut.exception.status, cut.exception.code), (400, "SPC_ERR_SESSION_INVALID"))

    def test_refusals_and_failures(self):
        lab = self.c.room(room())
        with self.assertRaises(VitrineError) as bad:
            lab.add("shape", opacity=3)
        self.assertEqual(bad.exception.status, 400)
        self.assertIn("layer.opacity must be between 0 and 1", bad.exception.detail)
        with self.assertRaises(TypeError):
            lab.add("shape", colour="red")
        with self.assertRaises(VitrineError) as failed:
            lab.add(function="broken", params={"message": "not today"})
        self.assertIn("not today", failed.exception.detail)
        with self.assertRaises(VitrineError) as gone:
            lab.update("ghost", opacity=1)
        self.assertEqual(gone.exception.status, 404)
        # The layer that failed stays in the scene, without a result.
        layer = lab.layer("broken")
        self.assertNotIn("result", layer)
        request = urllib.request.Request(f"{URL}/api/rooms/{lab.name}/scene")
        with urllib.request.urlopen(request) as answer:
            self.assertEqual(answer.headers["ETag"], f'"{json.loads(answer.read())["version"]}"')


if __name__ == "__main__":
    unittest.main()
