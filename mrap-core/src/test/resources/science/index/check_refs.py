#!/usr/bin/env python3
"""Reads kerchunk reference sets with xarray (zarr engine over fsspec's reference://) and
compares each variable, with its coordinates, against xarray's read of the original files
through netCDF4-python (netCDF-C): the oracle of the index tests. Debian's /usr/bin/python3 with
python3-xarray, -zarr, -fsspec, -netcdf4.

usage: check_refs.py CASES.json   (a list of {"name", "refs" (a path or a list), "originals", "variables",
       "concat"?, "protocol"?, "options"?}); prints a JSON list of {"name", "problems"}.
"""
import json
import sys

import numpy as np
import xarray as xr


def open_refs(case):
    """The set, or sets ("refs" a list: runs of a series, joined along "concat")."""
    sets = case["refs"] if isinstance(case["refs"], list) else [case["refs"]]
    opened = []
    for path in sets:
        with open(path) as f:
            fo = json.load(f)
        options = {"fo": fo, "remote_protocol": case.get("protocol", "file")}
        if "options" in case:
            options["remote_options"] = case["options"]
        opened.append(xr.open_dataset("reference://", engine="zarr", backend_kwargs={
            "consolidated": False, "storage_options": options}))
    return opened[0] if len(opened) == 1 else xr.concat(opened, dim=case["concat"])


def same(a, b):
    if a.shape != b.shape:
        return "shape %s, not %s" % (a.shape, b.shape)
    if a.dtype.kind in "MOSU" or b.dtype.kind in "MOSU":
        ok = bool(np.all(np.asarray(a.values) == np.asarray(b.values)))
        return None if ok else "values differ: %s / %s" % (a.values.ravel()[:4], b.values.ravel()[:4])
    av = np.asarray(a.values, dtype="f8")
    bv = np.asarray(b.values, dtype="f8")
    if np.array_equal(np.isnan(av), np.isnan(bv)) and np.allclose(av, bv, rtol=1e-6, atol=0,
                                                                   equal_nan=True):
        return None
    bad = ~np.isclose(av, bv, rtol=1e-6, atol=0, equal_nan=True)
    return "%d values differ, e.g. %s for %s" % (bad.sum(), av[bad][:3], bv[bad][:3])


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    out = []
    for c in cases:
        problems = []
        try:
            ds = open_refs(c)
            opened = [xr.open_dataset(f, engine="netcdf4") for f in c["originals"]]
            if c.get("concat"):
                ref = xr.concat(opened, dim=c["concat"], data_vars="minimal", coords="minimal",
                                compat="override")
            else:
                ref = opened[0]
            for v in c["variables"]:
                if v not in ds:
                    problems.append("%s: not in the set" % v)
                    continue
                a, b = ds[v], ref[v]
                why = same(a, b)
                if why:
                    problems.append("%s: %s" % (v, why))
                for d in b.dims:
                    if d in b.coords and not d.startswith("phony_dim"):
                        if d not in a.coords:
                            problems.append("%s: no coordinate %s" % (v, d))
                            continue
                        why = same(a[d], b[d])
                        if why:
                            problems.append("%s: coordinate %s: %s" % (v, d, why))
        except Exception as e:  # noqa: BLE001 - every failure is a finding
            problems.append("%s: %s" % (type(e).__name__, e))
        out.append({"name": c["name"], "problems": problems})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
