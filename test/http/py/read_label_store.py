"""Reads an OME-Zarr label image over HTTP with zarr-python, as a scientist's script would, and
prints what it found as JSON: the root attributes and, per multiscale level, its shape, dtype
and the ids it holds. The store is a read-only mapping over urllib wrapped in zarr's KVStore,
since Debian's zarr has no HTTP filesystem without aiohttp.

    python3 read_label_store.py http://127.0.0.1:PORT/api/results/<id>.zarr
"""
import json
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping

import numpy as np
import zarr


class HttpStore(Mapping):
    def __init__(self, url):
        self.url = url.rstrip("/")

    def __getitem__(self, key):
        try:
            with urllib.request.urlopen(f"{self.url}/{key}") as answer:
                return answer.read()
        except urllib.error.HTTPError as error:
            if error.code == 404:
                raise KeyError(key) from None
            raise

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0


def main(url):
    group = zarr.open_group(store=zarr.storage.KVStore(HttpStore(url)), mode="r")
    attrs = group.attrs.asdict()
    levels = []
    for dataset in attrs["multiscales"][0]["datasets"]:
        array = group[dataset["path"]]
        data = array[:]
        levels.append({"path": dataset["path"], "shape": list(data.shape), "dtype": str(data.dtype), "ids": np.unique(data).tolist()})
    print(json.dumps({"zarr": zarr.__version__, "attrs": attrs, "levels": levels}))


if __name__ == "__main__":
    main(sys.argv[1])
