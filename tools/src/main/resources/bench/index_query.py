#!/usr/bin/env python3
"""bin/bench science-index: spark-science's query read through xarray over WebHDFS from a
series index built by bin/mrap index (Debian's python3-xarray, -zarr, -fsspec, -requests; no
JNI): the series' combined set where its files join, else each file's own set (a line of the
index's entries) opened and joined along time by xarray, each file decoded with its own
scale_factor/add_offset; and the same query through xarray from the original files (the
netCDF4 engine, netCDF-C), its oracle. Prints both as groups [month, latitude, longitude, mean
t2m, sum tp] (null where every value is masked), ordered, as JSON on stdout.

usage: index_query.py WEBHDFS_JSON INDEX_DIR TIME_FROM TIME_TO LAT_A LAT_B LON_FROM LON_TO
       ORIGINALS_DIR
"""
import glob
import gzip
import os
import json
import sys

import fsspec
import numpy as np
import xarray as xr


def open_set(fo, web):
    return xr.open_dataset("reference://", engine="zarr", backend_kwargs={
        "consolidated": False,
        "storage_options": {"fo": fo, "remote_protocol": "webhdfs", "remote_options": web}})


def main():
    web = json.loads(sys.argv[1])
    index = sys.argv[2]
    t0, t1 = np.datetime64(sys.argv[3]), np.datetime64(sys.argv[4])
    lat_a, lat_b, lon_a, lon_b = (float(x) for x in sys.argv[5:9])
    fs = fsspec.filesystem("webhdfs", **web)
    manifest = json.loads(fs.cat(index + "/index.json"))
    if manifest["combined"]:  # the series joined: one set, or a set a run of files
        parts = [open_set(json.loads(fs.cat(index + "/" + s)), web)
                 for s in manifest["combined"]]
    else:
        parts = []
        for name in manifest["files"]:
            for line in gzip.decompress(fs.cat(index + "/" + name)).decode().splitlines():
                ds = open_set(json.loads(line), web)
                if ds.time.values.max() >= t0 and ds.time.values.min() <= t1:
                    parts.append(ds)
        parts.sort(key=lambda d: d.time.values[0])
    originals = []
    for f in sorted(glob.glob(os.path.join(sys.argv[9], "*.nc"))):
        ds = xr.open_dataset(f, engine="netcdf4")
        if ds.time.values.max() >= t0 and ds.time.values.min() <= t1:
            originals.append(ds)
    box = (t0, t1, max(lat_a, lat_b), min(lat_a, lat_b), lon_a, lon_b)
    print(json.dumps({"files": len(parts), "groups": groups(parts, box),
                      "original_files": len(originals), "original_groups": groups(originals, box)}))


def groups(parts, box):
    t0, t1, lat_hi, lat_lo, lon_a, lon_b = box
    ds = xr.concat(parts, dim="time") if len(parts) > 1 else parts[0]
    box = ds.sel(time=slice(t0, t1), latitude=slice(lat_hi, lat_lo),
                 longitude=slice(lon_a, lon_b))
    groups = []
    month = box.time.dt.month.values
    for m in sorted(set(month.tolist())):
        sub = box.isel(time=np.nonzero(month == m)[0])
        t2m = sub.t2m.values.astype("f8")
        tp = sub.tp.values.astype("f8")
        for i, lat in enumerate(sub.latitude.values):
            for j, lon in enumerate(sub.longitude.values):
                a = t2m[:, i, j]
                b = tp[:, i, j]
                groups.append([int(m), float(lat), float(lon),
                               None if np.all(np.isnan(a)) else float(np.nanmean(a)),
                               None if np.all(np.isnan(b)) else float(np.nansum(b))])
    return groups


if __name__ == "__main__":
    main()
