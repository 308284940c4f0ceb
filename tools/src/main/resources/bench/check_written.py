#!/usr/bin/python3
"""The round trip of bin/bench science-write (ScienceWriteBench): does what xarray reads of the
datasets `df.write.format("mrap")` wrote equal the DataFrame they were written from?

    check_written.py ROWS.csv PERIOD DATASET.nc DATASET.zarr

ROWS.csv holds the DataFrame's rows (PERIOD, latitude, longitude, t2m, tp; an empty value is a
null), as the Spark driver collected them. Each dataset is opened by xarray (netCDF4 for the
file, zarr for the store, consolidated), turned into a table and joined with the rows on the
three coordinates: every row's values must be xarray's (within 1e-12 relative; null as NaN) and
every grid point no row names must be NaN. Prints JSON: per dataset, equal (bool), points,
rows, max_relative_difference and mismatches.
"""
import json
import sys

import numpy as np
import pandas as pd
import xarray as xr


def check(ds, rows, period):
    table = ds.to_dataframe().reset_index()
    table["latitude"] = table["latitude"].astype(np.float32)
    table["longitude"] = table["longitude"].astype(np.float32)
    joined = table.merge(rows, on=[period, "latitude", "longitude"], how="outer",
                         suffixes=("_x", "_r"), indicator=True)
    out = {"points": int(len(table)), "rows": int(len(rows)), "mismatches": 0,
           "max_relative_difference": 0.0}
    out["rows_outside_grid"] = int((joined["_merge"] == "right_only").sum())
    inside = joined[joined["_merge"] != "right_only"]
    for v in ("t2m", "tp"):
        x = inside[v + "_x"].to_numpy(dtype=np.float64)
        r = inside[v + "_r"].to_numpy(dtype=np.float64)  # NaN where no row or a null
        nan = np.isnan(x) != np.isnan(r)
        both = ~np.isnan(x) & ~np.isnan(r)
        rel = np.abs(x[both] - r[both]) / np.maximum(np.abs(r[both]), 1e-300)
        bad = int(nan.sum()) + int((rel > 1e-12).sum())
        out["mismatches"] += bad
        if rel.size:
            out["max_relative_difference"] = max(out["max_relative_difference"], float(rel.max()))
    out["equal"] = out["mismatches"] == 0 and out["rows_outside_grid"] == 0
    return out


def main():
    csv, period, nc, zarr = sys.argv[1:5]
    rows = pd.read_csv(csv)
    rows["latitude"] = rows["latitude"].astype(np.float32)
    rows["longitude"] = rows["longitude"].astype(np.float32)
    out = {"netcdf": check(xr.open_dataset(nc, engine="netcdf4"), rows, period),
           "zarr": check(xr.open_zarr(zarr, consolidated=True), rows, period)}
    print(json.dumps(out))


main()
