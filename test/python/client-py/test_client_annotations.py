"""vitrine.Client's annotations against a real host (its URL in VITRINE_URL): marks added,
listed as dicts and as numpy points, changed with their version, removed, and CSV both ways."""
import os
import unittest
import uuid

import numpy as np

from vitrine import Client, VitrineError

URL = os.environ["VITRINE_URL"]


def room():
    return f"py-{uuid.uuid4()}"


class Annotations(unittest.TestCase):
    """A room's annotations from a notebook: marks made, read as dicts and as numpy points, measured, changed with a version, removed; CSV both ways."""

    def test_annotate_list_points_change_remove(self):
        lab = Client(URL).room(room())
        seed = lab.annotate("point", np.array([1.0, 2.0, 3.0]), label="seed", properties={"score": 0.5})
        self.assertEqual(seed["id"], "1")
        self.assertEqual(seed["points"], [[1.0, 2.0, 3.0]])
        ruler = lab.annotate("line", np.array([[0, 0, 0], [0.65 * 3, 0.65 * 4, 0]]), label="ruler", author="py")
        self.assertAlmostEqual(ruler["length"], 0.65 * 5, places=12)
        lab.annotate_many([{"kind": "point", "points": [4, 5, 6], "label": "seed"}, {"kind": "box", "points": [[0, 0, 0], [1, 2, 3]]}])
        self.assertEqual([m["id"] for m in lab.annotations()], ["1", "2", "3", "4"])
        np.testing.assert_array_equal(lab.points(label="seed"), np.array([[1, 2, 3], [4, 5, 6]], dtype=float))
        self.assertEqual(lab.annotations(kind="line", as_array=True).shape, (2, 3))
        self.assertEqual(lab.annotations(kind="box")[0]["volume"], 6)
        moved = lab.change_annotation("1", points=[7, 8, 9], if_version=1)
        self.assertEqual(moved["version"], 2)
        with self.assertRaises(VitrineError) as stale:
            lab.change_annotation("1", label="late", if_version=1)
        self.assertEqual(stale.exception.status, 412)
        with self.assertRaises(VitrineError) as bad:
            lab.annotate("line", [[0, 0, 0]])
        self.assertEqual(bad.exception.status, 400)
        self.assertIn("points must hold two points", str(bad.exception))
        lab.remove_annotation("3")
        self.assertEqual([m["id"] for m in lab.annotations()], ["1", "2", "4"])
        with self.assertRaises(ValueError):
            lab.annotate("point", [[1, 2]])

    def test_csv_both_ways(self):
        source, target = Client(URL).room(room()), Client(URL).room(room())
        source.annotate("polyline", [[0, 0, 0], [3, 4, 0], [3, 4, 12]], label="path, long")
        text = source.annotations_csv()
        self.assertTrue(text.startswith("id,kind,label,layer,point,x,y,z,length,volume,color,author"))
        added = target.import_csv(text)
        self.assertEqual(added["annotations"][0]["length"], 17)
        self.assertEqual(target.annotations()[0]["label"], "path, long")
