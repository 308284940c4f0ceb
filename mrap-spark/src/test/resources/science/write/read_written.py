#!/usr/bin/python3
"""Reads a dataset that `df.write.format("mrap")` wrote, as a scientist would, and prints it
as JSON for ScienceWriteTest (mrap-spark/src/test/java/org/opass/mrap/spark/ScienceWriteTest.java):
the oracle is netCDF4-python, zarr and xarray (Debian's, /usr/bin/python3), never our reader.

    read_written.py netcdf|zarr PATH

Prints {"format": netCDF4's data model or "zarr", "variables": {name: {"dims": [...],
"dtype": as stored, "attrs": the raw attributes, "values": xarray's decoded values in C order,
NaN as null}}, "coords": {name: {"values": [...], "attrs": {...}}}, "chunks": the store's chunk
keys (zarr)}. Times are ISO text ("YYYY-MM-DDThh:mm:ss") as xarray decodes them: numpy's
datetime64 for the standard calendars, cftime's dates for the idealized ones.
"""
import json
import os
import sys

import numpy as np
import xarray as xr


def plain(x):
    if isinstance(x, (np.floating, float)):
        return None if np.isnan(x) else float(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, np.ndarray):
        return [plain(v) for v in x.tolist()]
    if isinstance(x, bytes):
        return x.decode()
    return x


def values(a):
    a = np.asarray(a)
    if a.dtype.kind == "M":
        return [str(v) for v in np.datetime_as_string(a.ravel(), unit="s")]
    if a.dtype.kind == "O":
        return [v.isoformat() for v in a.ravel()]
    return [plain(v) for v in a.ravel().tolist()]


def main():
    kind, path = sys.argv[1], sys.argv[2]
    raw = {}
    chunks = {}
    if kind == "netcdf":
        import netCDF4
        with netCDF4.Dataset(path) as nc:
            fmt = nc.data_model
            for name, v in nc.variables.items():
                raw[name] = (str(v.dtype), {k: plain(v.getncattr(k)) for k in v.ncattrs()})
            glob = {k: plain(nc.getncattr(k)) for k in nc.ncattrs()}
        ds = xr.open_dataset(path, engine="netcdf4")
    else:
        import zarr
        g = zarr.open_consolidated(path, mode="r")
        fmt = "zarr"
        for name, a in g.arrays():
            raw[name] = (str(a.dtype), {k: plain(v) for k, v in a.attrs.asdict().items()})
            raw[name][1]["_FillValue"] = plain(a.fill_value)
            found = []
            for root, _, files in os.walk(os.path.join(path, name)):
                for f in files:
                    if not f.startswith("."):
                        found.append(os.path.relpath(os.path.join(root, f),
                                                     os.path.join(path, name)))
            chunks[name] = sorted(found)
        glob = dict(g.attrs.asdict())
        ds = xr.open_zarr(path, consolidated=True)
    out = {"format": fmt, "global": glob, "variables": {}, "coords": {}, "chunks": chunks}
    for name in ds.data_vars:
        v = ds[name]
        out["variables"][name] = {"dims": list(v.dims), "dtype": raw[name][0],
                                  "attrs": raw[name][1], "values": values(v.values)}
    for name in ds.coords:
        out["coords"][name] = {"values": values(ds[name].values), "attrs": raw[name][1],
                               "dtype": raw[name][0]}
    print(json.dumps(out))


main()
