#!/usr/bin/python3
"""Opens a store packed by mrap-copy -pack with xarray, as the docs say (fsspec's reference://
over WebHDFS, the set's template u pointed at the packed folder), and compares every variable
with xarray's read of the original store.

    /usr/bin/python3 check_packed.py REFS.json ORIGINAL.zarr U OPTIONS.json

U: the packed folder's URL (webhdfs://host:port/path); OPTIONS.json: fsspec's WebHDFS options.
Prints a JSON object {"variables": [...], "problems": [...]}.
"""
import json
import sys

import numpy as np
import xarray as xr


def main(refs, original, url, options):
    with open(refs) as f:
        fo = json.load(f)
    with open(options) as f:
        remote = json.load(f)
    packed = xr.open_dataset("reference://", engine="zarr", backend_kwargs={
        "consolidated": False, "storage_options": {
            "fo": fo, "remote_protocol": "webhdfs", "remote_options": remote,
            "template_overrides": {"u": url}}})
    ref = xr.open_zarr(original)
    problems = []
    for name in ref.variables:
        a = np.asarray(packed[name].values)
        b = np.asarray(ref[name].values)
        if a.shape != b.shape:
            problems.append("%s: shape %s, not %s" % (name, a.shape, b.shape))
        elif a.dtype.kind in "mM":
            if not np.array_equal(a, b):
                problems.append("%s: times differ" % name)
        elif not np.array_equal(a, b, equal_nan=True):
            problems.append("%s: values differ" % name)
    return {"variables": sorted(ref.variables), "problems": problems}


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:5])))
