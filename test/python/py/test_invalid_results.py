"""The result rules both languages hold, from one table (test/fixtures/results/invalid-results.json).

Each case breaks one rule of a valid result; the Python checks (`to_wire`, which every result of
a plugin process passes) must refuse it with a message naming what is wrong, as the host's own
checks do (test/unit/invalid-results.test.ts runs the same table against them). Runs with numpy
and on the standard library alone.
"""
import array
import inspect
import json
import os
import unittest
from typing import Any, Dict

from vitrine import ImageResult, MeshResult, PointCloudResult, VolumeResult
from vitrine._arrays import TYPECODES
from vitrine._arrays import numpy as np
from vitrine._coerce import ResultShapeError, to_wire

TABLE_FILE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "results", "invalid-results.json")
CLASSES: Dict[str, Any] = {"mesh": MeshResult, "volume": VolumeResult, "point_cloud": PointCloudResult, "image": ImageResult}

with open(TABLE_FILE, encoding="utf-8") as handle:
    TABLE = json.load(handle)


def decode(value: Any) -> Any:
    """The table's JSON as values: `{"<dtype>": [...]}` a typed array, `{"float": "NaN"}` that number."""
    if isinstance(value, list):
        return [decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    if list(value) == ["float"]:
        return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[value["float"]])
    if len(value) == 1 and next(iter(value)) in TYPECODES:
        dtype, items = next(iter(value.items()))
        if np is not None:
            return np.array(decode(items), dtype=dtype)
        return array.array(TYPECODES[dtype], decode(items))
    return {key: decode(item) for key, item in value.items()}


def result_of(fields: Dict[str, Any], declared: str) -> Any:
    """The result class of the value's own type (else the declared one), given the fields it takes."""
    fields = dict(fields)
    cls = CLASSES[fields.pop("type", declared)]
    takes = inspect.signature(cls.__init__).parameters
    return cls(**{key: value for key, value in fields.items() if key in takes})


class InvalidResultTable(unittest.TestCase):
    def test_accepts_each_valid_result(self):
        for declared, fields in TABLE["valid"].items():
            with self.subTest(declared):
                to_wire(result_of(decode(fields), declared), declared)

    def test_refuses_each_broken_rule(self):
        for case in TABLE["cases"]:
            with self.subTest(case["rule"]):
                fields = {**decode(TABLE["valid"][case["type"]]), **decode(case["change"])}
                with self.assertRaises(ResultShapeError) as refused:
                    to_wire(result_of(fields, case["type"]), case["type"])
                message = str(refused.exception)
                for word in case["mentions"]:
                    self.assertIn(word.lower(), message.lower(), message)


if __name__ == "__main__":
    unittest.main()
