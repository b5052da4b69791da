"""vitrine.Client against a real host (its URL in VITRINE_URL): the catalog, every result type
as numpy arrays, delivery options, jobs with progress, room events, errors, and the files
`publish` writes, read back by the host's own upload parsers."""
import json
import os
import threading
import unittest
import urllib.request
import uuid
from typing import Any, List

import numpy as np

from vitrine import Client, ImageResult, MeshResult, PointCloudResult, VitrineError, VolumeResult
from vitrine._encode import to_file

URL = os.environ["VITRINE_URL"]


def room():
    return f"py-{uuid.uuid4()}"


def upload(body, filename):
    request = urllib.request.Request(f"{URL}/api/uploads?filename={filename}", data=body, method="POST", headers={"Content-Type": "application/octet-stream"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


class Catalog(unittest.TestCase):
    def test_specimens_and_schema(self):
        c = Client(URL)
        ids = {s["id"] for s in c.specimens()}
        self.assertTrue({"cube", "density", "galaxy", "pattern"} <= ids, ids)
        schema = c.schema("density")
        assert schema is not None
        self.assertEqual(schema["properties"]["size"]["type"], "integer")
        self.assertIsNone(c.schema("cube"))


class Data(unittest.TestCase):
    c = Client(URL)

    def test_volume_envelope_as_numpy(self):
        vol = self.c.data("density", {"size": 8}, room=room())
        self.assertIsInstance(vol, VolumeResult)
        self.assertIsInstance(vol.data, np.ndarray)
        self.assertEqual(vol.data.shape, (8, 8, 8))
        self.assertEqual(vol.data.dtype, np.float32)
        self.assertEqual(vol.spacing, [1, 1, 1])
        self.assertTrue(vol.result_id)
        # What made it: the plugin, its version and its bundle id's first 12 hex digits.
        self.assertRegex(vol.provenance, r"^[\w.-]+@[\w.+-]+; bundle=[0-9a-f]{12}$")
        # The same values as the typed JSON of /invoke.
        same = self.c.invoke("density", {"size": 8})
        self.assertEqual(same.provenance, vol.provenance)
        np.testing.assert_array_equal(same.data, vol.data)
        # The arrays are the caller's to change.
        vol.data[0, 0, 0] = 42
        same.data[0, 0, 0] = 42
        self.assertEqual(float(vol.data[0, 0, 0]), 42)

    def test_delivery_options(self):
        r = room()
        full = self.c.data("density", {"size": 8}, room=r)
        as_u8 = self.c.data("density", {"size": 8}, room=r, dtype="uint8")
        self.assertEqual(as_u8.data.dtype, np.uint8)
        self.assertEqual(int(as_u8.data.max()), 255)
        small = self.c.data("density", {"size": 8}, room=r, max_dim=4)
        self.assertEqual(small.data.shape, (4, 4, 4))
        npy = self.c.data("density", {"size": 8}, room=r, format="npy")
        np.testing.assert_array_equal(npy.data, full.data)
        with self.assertRaises(TypeError):
            self.c.data("density", {"size": 8}, colour="red")

    def test_points_image_mesh_and_file(self):
        cloud = self.c.data("galaxy", {"count": 10}, room=room())
        self.assertIsInstance(cloud, PointCloudResult)
        self.assertEqual(cloud.points.shape, (10, 3))
        image = self.c.data("pattern", {"width": 4, "height": 3}, room=room())
        self.assertIsInstance(image, ImageResult)
        self.assertEqual(image.to_numpy().shape, (3, 4, 3))
        image.to_numpy()[0, 0, 0] = 1
        mesh = self.c.data("shape", room=room())
        self.assertIsInstance(mesh, MeshResult)
        self.assertEqual(mesh.vertices.shape[1], 3)
        self.assertEqual(mesh.indices.shape[1], 3)
        self.assertLess(int(mesh.indices.max()), len(mesh.vertices))
        cube = self.c.data("cube")
        self.assertEqual(cube.filename, "cube.obj")
        self.assertIn(b"f 1 3 2", cube.data)

    def test_errors_carry_the_hosts_detail(self):
        with self.assertRaises(VitrineError) as bad:
            self.c.data("density", {"size": "eight"})
        self.assertEqual(bad.exception.status, 400)
        self.assertIn("size", bad.exception.detail)
        with self.assertRaises(VitrineError) as missing:
            self.c.data("no-such-specimen")
        self.assertEqual(missing.exception.status, 404)
        with self.assertRaises(VitrineError) as down:
            Client("http://127.0.0.1:9").specimens()
        self.assertEqual(down.exception.status, 0)
        with self.assertRaises(ValueError):
            Client("not a url")


class Jobs(unittest.TestCase):
    def test_progress_then_result(self):
        c = Client(URL)
        seen: List[Any] = []
        job = c.start("slow-sphere", {"steps": 3, "step_ms": 10}, room=room(), on_progress=seen.append)
        self.assertEqual(job.status, "done")
        self.assertEqual([m["text"] for m in seen], ["step 1 of 3", "step 2 of 3", "step 3 of 3"])
        self.assertEqual(seen[-1]["fraction"], 1)
        self.assertIsInstance(job.result(), MeshResult)
        self.assertEqual(job.progress()["status"], "done")

    def test_cancel(self):
        c = Client(URL)
        job = c.start("slow-sphere", {"steps": 500, "step_ms": 50}, room=room())
        job.cancel()
        with self.assertRaises(VitrineError) as failed:
            job.wait()
        self.assertIn("cancelled", failed.exception.detail)


class Follow(unittest.TestCase):
    def test_room_events(self):
        c = Client(URL)
        r = room()
        events = c.follow(r)
        first = next(events)
        self.assertEqual((first.event, first.data), ("state", None))
        threading.Thread(target=lambda: Client(URL).data("density", {"size": 6}, room=r)).start()
        names = []
        for event in events:
            names.append(event.event)
            if event.event == "result":
                self.assertEqual(event.data["function_name"], "density")
                self.assertEqual(event.data["params"]["size"], 6)
                break
        events.close()
        self.assertIn("result", names)


class PublishFiles(unittest.TestCase):
    """What publish() sends, checked by the host's upload parsers (the same formats)."""

    def test_volume_npy(self):
        vol = (np.arange(4 * 5 * 6, dtype=np.uint16) * 3).reshape(4, 5, 6)
        body, name = to_file(vol, "v")
        self.assertEqual(name, "v.npy")
        answer = upload(body, name)
        self.assertEqual(answer["type"], "volume")
        self.assertEqual(answer["bytes"] >= vol.nbytes, True)

    def test_mesh_and_points_ply(self):
        mesh = MeshResult(vertices=np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float32), indices=np.array([[0, 1, 2], [0, 2, 3]]))
        self.assertEqual(upload(*to_file(mesh, "m"))["type"], "mesh")
        points = PointCloudResult(points=np.random.default_rng(1).random((50, 3)), colors=np.full((50, 3), 200, dtype=np.uint8))
        self.assertEqual(upload(*to_file(points, "p"))["type"], "point_cloud")

    def test_image_png(self):
        for arr in (np.zeros((3, 4), np.uint8), np.full((3, 4, 3), 9, np.uint8), np.zeros((2, 2, 4), np.uint8), np.zeros((2, 2), np.uint16)):
            body, name = to_file(arr, "i")
            self.assertEqual(name, "i.png")
            self.assertEqual(upload(body, name)["type"], "image")
        # Only uint8 with at most 4 channels reads as an image; any other 3-D array is a volume.
        self.assertEqual(to_file(np.zeros((2, 2, 4), np.uint16), "v")[1], "v.npy")
        with self.assertRaises(ValueError):
            to_file(np.zeros((2, 2), np.float32), "f")
        with self.assertRaises(ValueError):
            to_file(np.zeros(5), "line")


class Workspace(unittest.TestCase):
    """publish, show, set_view and follow against the host's room routes."""

    def test_publish_show_view_follow(self):
        c = Client(URL)
        r = room()
        sid = f"py-vol-{uuid.uuid4().hex[:8]}"
        vol = (np.arange(6 * 7 * 8, dtype=np.uint16) * 50).reshape(6, 7, 8)
        first = c.publish(sid, VolumeResult.from_numpy(vol, spacing=(2.0, 1.0, 0.5)), display_name="From a test", tags=["py", "test"])
        self.assertEqual(first.get("id", sid), sid)
        listed = {s["id"]: s for s in c.specimens()}
        self.assertEqual(listed[sid]["display_name"], "From a test")
        back = c.data(sid)
        np.testing.assert_array_equal(back.data, vol)
        self.assertEqual(back.spacing, [2.0, 1.0, 0.5])
        # Publishing again replaces it.
        c.publish(sid, vol + 1)
        np.testing.assert_array_equal(c.data(sid).data, vol + 1)

        events = c.follow(r)
        self.assertEqual(next(events).event, "state")
        c.show(r, sid)
        entry = c.entry(r)
        assert entry is not None
        self.assertEqual(entry["specimen_id"], sid)
        c.set_view(r, window=(10, 900), colormap="magma")
        c.set_view(r, opacity=0.5, mode="slices", camera={"position": [1, 2, 3], "target": [0, 0, 0], "up": [0, 1, 0]})
        self.assertEqual(c.view(r), {"window": [10, 900], "colormap": "magma", "opacity": 0.5, "mode": "slices",
                                     "camera": {"position": [1, 2, 3], "target": [0, 0, 0], "up": [0, 1, 0]}})
        seen = []
        for event in events:
            seen.append(event.event)
            if event.event == "view" and event.data and event.data.get("mode") == "slices":
                break
        events.close()
        self.assertIn("result", seen)
        with self.assertRaises(TypeError):
            c.set_view(r)
        with self.assertRaises(VitrineError) as bad:
            c.set_view(r, opacity=2)
        self.assertEqual(bad.exception.status, 400)
        self.assertIn("opacity", bad.exception.detail)

        c.unpublish(sid)
        with self.assertRaises(VitrineError) as gone:
            c.data(sid)
        self.assertEqual(gone.exception.status, 404)

    def test_publish_labels_and_fetch_segments(self):
        c = Client(URL)
        sid = f"py-seg-{uuid.uuid4().hex[:8]}"
        ids = np.zeros((8, 8, 8), dtype=np.int32)
        ids[1:4, 1:4, 1:4] = 2
        ids[5:7, 5:7, 5:7] = 9
        answer = c.publish(sid, ids, labels=True, label_names={2: "cell", 9: "speck"}, label_colors={9: "#00ff00"})
        self.assertTrue(answer["labels"])
        back = c.data(sid)
        self.assertTrue(back.labels)
        self.assertEqual((back.dtype, back.label_names, back.label_colors), ("uint8", {"2": "cell", "9": "speck"}, {"9": "#00ff00"}))
        np.testing.assert_array_equal(back.data, ids)
        surface = c.data(sid, segment=2)
        self.assertEqual(surface.vertices.shape[1], 3)
        self.assertGreater(len(surface.indices), 10)
        painted = c.data(sid, segment="all")
        self.assertEqual(painted.colors.shape, painted.vertices.shape)
        stl = c.data(sid, segment=9, format="stl")
        self.assertTrue(stl.filename.endswith(".stl"))
        with self.assertRaises(VitrineError) as absent:
            c.data(sid, segment=5)
        self.assertEqual(absent.exception.status, 404)
        self.assertIn("segment", absent.exception.detail)
        c.unpublish(sid)

    def test_publish_time_and_channels(self):
        c = Client(URL)
        sid = f"py-lapse-{uuid.uuid4().hex[:8]}"
        t, ch, z, y, x = np.indices((3, 2, 4, 5, 6))
        lapse = (t * 1000 + ch * 100 + z * 10 + y + x).astype(np.uint16)
        c.publish(sid, lapse, channels=["GFP", {"name": "RFP", "color": "#ff00ff"}], time_step=30, time_unit="second")
        step = c.data(sid, t=2, c=1)
        np.testing.assert_array_equal(step.data, lapse[2, 1])
        self.assertEqual((step.t, step.c), (2, 1))
        self.assertEqual(step.sizes, {"t": 3, "c": 2, "z": 4, "y": 5, "x": 6})
        self.assertEqual(step.preamble["channels"][1], {"name": "RFP", "color": "#ff00ff"})
        first = c.data(sid)
        np.testing.assert_array_equal(first.data, lapse[0, 0])
        # A VolumeResult says its own axes; a field with 3 components may say it is a vector.
        field = np.random.default_rng(1).normal(size=(2, 3, 2, 3, 4)).astype(np.float32)
        c.publish(sid, VolumeResult.from_numpy(field, axes="tczyx", vector=True))
        rgb = c.data(sid, t=1, c="rgb")
        self.assertEqual(rgb.data.shape, (2, 3, 4, 3))
        self.assertEqual(rgb.data.dtype, np.uint8)
        m = np.sqrt((field.astype(np.float64) ** 2).sum(axis=1)).max()
        np.testing.assert_allclose(rgb.value_range, (-m, m), rtol=1e-9)
        with self.assertRaises(VitrineError) as bad:
            c.publish(sid, lapse[0], axes="tczyx")
        self.assertEqual(bad.exception.status, 400)
        self.assertIn("axes", str(bad.exception))

    def test_publish_refuses_what_it_cannot_read(self):
        c = Client(URL)
        with self.assertRaises(VitrineError) as bad:
            c.publish(f"bad-{uuid.uuid4().hex[:8]}", b"not a png", filename="x.png")
        self.assertEqual(bad.exception.status, 400)
        with self.assertRaises(VitrineError) as taken:
            c.publish("cube", np.zeros((2, 2, 2), np.uint16))
        self.assertEqual(taken.exception.status, 409)


if __name__ == "__main__":
    unittest.main()
