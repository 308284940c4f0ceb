#!/usr/bin/python3
"""bin/demo's Spark SQL step, last: the query's answer that Spark wrote into HDFS with
df.write.format("mrap"), as a CF NetCDF file and a Zarr store, opened by xarray over WebHDFS
(Debian's python3-xarray, -netcdf4, -zarr, -fsspec, -requests; no Hadoop client, no JNI).

usage: open_results.py WEBHDFS_JSON NETCDF_PATH ZARR_PATH

WEBHDFS_JSON holds fsspec's webhdfs options (host, port, user). Prints JSON: for each dataset,
its format (netCDF4's data model, or "zarr"), dims and its rows [dimension value, variables'
values...] in the dimension's order.
"""
import json
import sys

import fsspec
import netCDF4
import xarray as xr


def rows(ds):
    dim = list(ds.dims)[0]
    out = []
    for i in range(ds.sizes[dim]):
        row = [ds[dim].values[i].item()]
        row += [ds[v].values[i].item() for v in ds.data_vars]
        out.append(row)
    return {"dims": list(ds.dims), "variables": list(ds.data_vars), "rows": out}


def main():
    web = json.loads(sys.argv[1])
    fs = fsspec.filesystem("webhdfs", **web)
    nc = netCDF4.Dataset("results.nc", memory=fs.cat(sys.argv[2]))
    answer = {"netcdf": dict(rows(xr.open_dataset(xr.backends.NetCDF4DataStore(nc))),
                             format=nc.data_model)}
    store = xr.open_zarr(fs.get_mapper(sys.argv[3]), consolidated=True)
    answer["zarr"] = dict(rows(store), format="zarr")
    print(json.dumps(answer))


main()
