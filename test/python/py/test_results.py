"""The vitrine module's result classes and the checks every result passes before it leaves."""
import base64
import unittest
from typing import Any

from vitrine import ImageResult, MeshResult, PointCloudResult, VolumeResult
from vitrine._arrays import numpy as np
from vitrine._coerce import ResultShapeError, to_wire

NUMPY = np is not None


def fields(wire):
    meta, arrays = wire
    return meta, {name: (dtype, list(array.tolist() if hasattr(array, "tolist") else array)) for name, dtype, array in arrays}


class Meshes(unittest.TestCase):
    def test_reference_constructor_and_plain_tuples(self):
        reference = MeshResult(vertices=[0, 0, 0, 1, 0, 0, 0, 1, 0], indices=[0, 1, 2], normals=[0, 0, 1] * 3)
        for value in (reference, ([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 1, 2], [0, 0, 1] * 3)):
            meta, got = fields(to_wire(value, "mesh"))
            self.assertEqual(got["vertices"], ("float32", [0, 0, 0, 1, 0, 0, 0, 1, 0]))
            self.assertEqual(got["indices"], ("uint32", [0, 1, 2]))
            self.assertEqual(got["normals"][1], [0, 0, 1] * 3)

    def test_refusals_name_the_field(self):
        cases = [
            (([0, 0, 0, 1, 0], [0, 1, 2]), "vertices length 5"),
            (([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 3]), "out of range for 3 vertices"),
            (([0, 0, 0, 1, 0, 0, 0, float("nan"), 0], [0, 1, 2]), "vertices[7] is not a finite number"),
            (([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2], [0, 0, 1]), "normals length 3"),
            ("a mesh", "expected a MeshResult"),
        ]
        for value, message in cases:
            with self.assertRaises(ResultShapeError) as caught:
                to_wire(value, "mesh")
            self.assertIn(message, str(caught.exception))


def signed_volume(vertices, indices):
    """Positive for a closed mesh whose triangles face outward (x, y, z right-handed)."""
    v = [list(map(float, vertices[i:i + 3])) for i in range(0, len(vertices), 3)]
    total = 0.0
    for i in range(0, len(indices), 3):
        a, b, c = (v[int(k)] for k in indices[i:i + 3])
        total += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6
    return total


def flat(value):
    return [float(x) for x in (value.reshape(-1).tolist() if hasattr(value, "reshape") else value)]


#: A tetrahedron in (z, y, x), its faces outward in that order of axes.
TETRA_ZYX = [0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4]
TETRA_FACES = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]


class MeshAxes(unittest.TestCase):
    def test_zyx_arrays_become_xyz_still_facing_outward(self):
        self.assertGreater(signed_volume(TETRA_ZYX, TETRA_FACES), 0)
        # Read as x, y, z the same triangles face inward: what a zyx mesh looks like unconverted.
        self.assertLess(signed_volume([TETRA_ZYX[i + k] for i in range(0, 12, 3) for k in (2, 1, 0)], TETRA_FACES), 0)
        mesh = MeshResult(vertices=TETRA_ZYX, indices=TETRA_FACES, normals=[0, 0, 1] * 4, axes="zyx")
        self.assertEqual(flat(mesh.vertices), [0, 0, 0, 0, 0, 2, 0, 3, 0, 4, 0, 0])
        self.assertEqual(flat(mesh.normals), [1, 0, 0] * 4)
        self.assertGreater(signed_volume(flat(mesh.vertices), flat(mesh.indices)), 0)
        with self.assertRaises(ValueError):
            MeshResult(vertices=TETRA_ZYX, indices=TETRA_FACES, axes="yxz")

    def test_from_marching_cubes_places_voxel_indices_by_spacing_and_origin(self):
        if not NUMPY:
            with self.assertRaises(RuntimeError):
                MeshResult.from_marching_cubes(TETRA_ZYX, TETRA_FACES, spacing=(2.0, 0.5, 0.25))
            return
        verts = np.asarray(TETRA_ZYX, dtype="float32").reshape(-1, 3)
        faces = np.asarray(TETRA_FACES).reshape(-1, 3)
        mesh = MeshResult.from_marching_cubes(verts, faces, np.zeros_like(verts), np.zeros(4), spacing=(2.0, 0.5, 0.25), origin=(10, 20, 30))
        self.assertEqual(mesh.vertices.shape, (4, 3))
        # Voxel (z, y, x) = (2, 0, 0) sits at z = 10 + 2 × 2; its x, y are the origin's.
        np.testing.assert_allclose(mesh.vertices, [[30, 20, 10], [30, 20, 14], [30, 21.5, 10], [31, 20, 10]])
        self.assertGreater(signed_volume(flat(mesh.vertices), flat(mesh.indices)), 0)


class Volumes(unittest.TestCase):
    def test_the_reference_base64_form(self):
        raw = bytes(range(8))
        meta, got = fields(to_wire(VolumeResult(shape=[2, 2, 2], dtype="uint8", data=base64.b64encode(raw).decode()), "volume"))
        self.assertEqual(meta, {"shape": [2, 2, 2], "dtype": "uint8", "value_range": [0.0, 7.0]})
        self.assertEqual(got["data"], ("uint8", list(raw)))

    def test_numpy_forms_and_value_range_of_finite_values(self):
        if not NUMPY:  # the interpreter has no numpy: the forms above are what it can make
            return
        arr = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
        arr[0, 0, 0] = np.nan
        for value in (arr, VolumeResult.from_numpy(arr, spacing=[1, 2, 3], origin=[0, 0, 0]), (arr, [1, 2, 3], [0, 0, 0])):
            meta, got = fields(to_wire(value, "volume"))
            self.assertEqual(meta["shape"], [2, 3, 4])
            self.assertEqual(meta["dtype"], "float64")
            self.assertEqual(meta["value_range"], [1.0, 23.0])
        self.assertEqual(VolumeResult.from_numpy(arr).shape, [2, 3, 4])
        self.assertTrue((VolumeResult.from_numpy(arr).to_numpy()[1] == arr[1]).all())
        with self.assertRaises(ResultShapeError) as caught:
            to_wire(np.zeros((2, 2, 2), dtype=np.int64), "volume")
        self.assertIn("int64 is not supported", str(caught.exception))
        with self.assertRaises(ResultShapeError):
            to_wire(np.zeros((4, 4)), "volume")


class PointsAndImages(unittest.TestCase):
    def test_points_with_colours_and_scalars(self):
        meta, got = fields(to_wire(PointCloudResult(points=[0, 0, 0, 1, 1, 1], colors=[255, 0, 0, 0, 255, 0], scalars=[0.5, 1.5]), "point_cloud"))
        self.assertEqual(got["colors"][0], "uint8")
        self.assertEqual(got["scalars"], ("float32", [0.5, 1.5]))
        with self.assertRaises(ResultShapeError):
            to_wire(PointCloudResult(points=[0, 0, 0], scalars=[1, 2]), "point_cloud")

    def test_images_from_arrays(self):
        if not NUMPY:
            return
        meta, got = fields(to_wire(np.zeros((2, 3, 4), dtype=np.uint8), "image"))
        self.assertEqual(meta, {"width": 3, "height": 2, "channels": 4, "dtype": "uint8"})
        meta, _ = fields(to_wire(ImageResult.from_numpy(np.ones((5, 7))), "image"))
        self.assertEqual((meta["width"], meta["channels"], meta["dtype"]), (7, 1, "float32"))


class Labels(unittest.TestCase):
    def test_labels_travel_with_names_and_colours_keyed_by_id(self):
        volume = VolumeResult(shape=[2, 2, 1], dtype="uint16", data=[0, 3, 3, 700], labels=True, label_names={3: "nucleus"}, label_colors={"700": "#FF8800"})
        meta, got = fields(to_wire(volume, "volume"))
        self.assertEqual(meta["labels"], True)
        self.assertEqual(meta["label_names"], {"3": "nucleus"})
        self.assertEqual(meta["label_colors"], {"700": "#ff8800"})
        self.assertEqual(got["data"], ("uint16", [0, 3, 3, 700]))
        self.assertNotIn("labels", to_wire(VolumeResult(shape=[1, 1, 1], dtype="uint8", data=[1]), "volume")[0])

    def test_refusals_name_the_field(self):
        cases: list[tuple[dict[str, Any], str]] = [
            (dict(dtype="float32", labels=True), "labels needs a volume of dtype uint8, uint16 or uint32"),
            (dict(dtype="uint8", label_names={1: "a"}), "label_names is given but labels is not True"),
            (dict(dtype="uint8", labels=True, label_names={256: "a"}), "label_names key 256 is not a label id"),
            (dict(dtype="uint8", labels=True, label_names={1: "x" * 257}), "label_names value of '1' is not a string of at most 256"),
            (dict(dtype="uint8", labels=True, label_colors={1: "red"}), "label_colors value of '1' is not a colour #rrggbb"),
            (dict(dtype="uint8", labels=True, label_names={i: "n" for i in range(10_001)}), "more than 10000"),
        ]
        for kwargs, message in cases:
            with self.assertRaises(ResultShapeError) as caught:
                to_wire(VolumeResult(shape=[1, 1, 1], data=[1], **kwargs), "volume")
            self.assertIn(message, str(caught.exception))

    def test_integer_arrays_become_the_smallest_labels_dtype(self):
        if not NUMPY:
            return
        for top, dtype in ((200, "uint8"), (300, "uint16"), (70_000, "uint32")):
            arr = np.zeros((2, 2, 2), dtype=np.int64)
            arr[1, 1, 1] = top
            meta, got = fields(to_wire(VolumeResult.from_numpy(arr, labels=True), "volume"))
            self.assertEqual((meta["dtype"], got["data"][1][-1]), (dtype, top))
        with self.assertRaises(ResultShapeError) as caught:
            to_wire(VolumeResult.from_numpy(np.full((2, 2, 2), -1), labels=True), "volume")
        self.assertIn("label ids must lie in 0..4294967295", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
