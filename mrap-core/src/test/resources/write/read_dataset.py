#!/usr/bin/python3
"""The oracle of DatasetWriteTest: a written dataset as the reference libraries read it, JSON.

    /usr/bin/python3 read_dataset.py netcdf <file.nc>
    /usr/bin/python3 read_dataset.py zarr   <store-folder>

netcdf  netCDF4.Dataset(file):
          {"format": "NETCDF3_64BIT_OFFSET" | "NETCDF3_64BIT_DATA" | ..., "dims": {name: size},
           "attrs": {...}, "attr_types": {...}, "vars": {name: {"dtype", "dims", "shape",
           "attrs", "attr_types", "values" (netCDF4's masked and unpacked read, masked as null),
           "raw" (set_auto_maskandscale(False): as stored, NaN as null)}}}
zarr    zarr.open_consolidated(store) (zarr 2.13):
          {"vars": {name: {"dtype" (numpy str, e.g. "<f4"), "shape", "chunks", "fill_value"
           (null where .zarray's is, "NaN" where NaN), "attrs" (with _ARRAY_DIMENSIONS), "raw"
           (as stored; a missing chunk reads the fill; NaN as null)}}}
Both add "xarray": xarray.open_dataset(file, engine="netcdf4") or
xarray.open_zarr(store, consolidated=True), CF decoding on:
          {"attrs": {...}, "vars": {name: {"dims", "dtype" (decoded), "attrs", "encoding"
           (units, calendar, dtype, _FillValue, scale_factor, add_offset where set), "values"
           (decoded: NaN as null; times as isoformat strings of their cftime or numpy dates),
           "calendar" (a time's, as decoded)}}}, coordinates among "vars".
Attribute types are numpy dtype names ("float64", "int16") or "str". Numbers are JSON numbers
(integers exact), infinities the strings "Infinity" and "-Infinity". Errors: a traceback on
stderr and exit status 1.
"""
import json
import math
import sys

import numpy as np


def jnumber(x):
    if isinstance(x, (bool, np.bool_)):
        return int(bool(x))
    if isinstance(x, (int, np.integer)):
        return int(x)
    x = float(x)
    if math.isnan(x):
        return None
    if math.isinf(x):
        return 'Infinity' if x > 0 else '-Infinity'
    return x


def jvalue(x):
    """An attribute or element: a string, a number, or a list of them."""
    if isinstance(x, bytes):
        return x.decode('utf-8')
    if isinstance(x, str):
        return x
    if x is np.ma.masked or x is None:
        return None
    if isinstance(x, np.ndarray):
        if x.shape == () or x.size == 1:
            return jvalue(x.reshape(-1)[0])
        return [jvalue(v) for v in x.reshape(-1)]
    if isinstance(x, (list, tuple)):
        return [jvalue(v) for v in x]
    if hasattr(x, 'isoformat'):
        return x.isoformat()
    return jnumber(x)


def jtype(x):
    if isinstance(x, (str, bytes)):
        return 'str'
    return np.asarray(x).dtype.name


def jvalues(arr):
    """Every element, C order: masked and NaN as null, dates as isoformat strings."""
    if np.ma.isMaskedArray(arr):
        mask = np.ma.getmaskarray(arr).reshape(-1)
        data = np.ma.getdata(arr).reshape(-1)
        return [None if m else jvalue(v) for v, m in zip(data, mask)]
    arr = np.asarray(arr)
    if arr.dtype.kind == 'M':
        return [None if np.isnat(v) else str(np.datetime_as_string(v, unit='s'))
                for v in arr.reshape(-1)]
    return [jvalue(v) for v in arr.reshape(-1)]


def read_netcdf(path):
    import netCDF4
    out = {'vars': {}}
    with netCDF4.Dataset(path, 'r') as ds:
        out['format'] = ds.file_format
        out['dims'] = {name: len(d) for name, d in ds.dimensions.items()}
        out['attrs'] = {k: jvalue(ds.getncattr(k)) for k in ds.ncattrs()}
        out['attr_types'] = {k: jtype(ds.getncattr(k)) for k in ds.ncattrs()}
        for name, v in ds.variables.items():
            v.set_auto_maskandscale(True)
            v.set_always_mask(True)
            values = v[...]
            v.set_auto_maskandscale(False)
            raw = np.asarray(v[...])
            out['vars'][name] = {
                'dtype': v.dtype.name if hasattr(v.dtype, 'name') else str(v.dtype),
                'dims': list(v.dimensions),
                'shape': list(v.shape),
                'attrs': {k: jvalue(v.getncattr(k)) for k in v.ncattrs()},
                'attr_types': {k: jtype(v.getncattr(k)) for k in v.ncattrs()},
                'values': jvalues(values),
                'raw': jvalues(raw),
            }
    return out


def read_zarr(path):
    import zarr
    out = {'vars': {}}
    group = zarr.open_consolidated(path, mode='r')
    for name, a in group.arrays():
        out['vars'][name] = {
            'dtype': a.dtype.str,
            'shape': list(a.shape),
            'chunks': list(a.chunks),
            'fill_value': 'NaN' if isinstance(a.fill_value, float) and math.isnan(a.fill_value)
            else jvalue(a.fill_value),
            'attrs': {k: jvalue(x) for k, x in a.attrs.asdict().items()},
            'raw': jvalues(a[...]),
        }
    return out


def read_xarray(ds):
    out = {'attrs': {k: jvalue(x) for k, x in ds.attrs.items()}, 'vars': {}}
    for name in list(ds.coords) + list(ds.data_vars):
        v = ds[name]
        values = v.values
        entry = {
            'dims': list(v.dims),
            'dtype': str(values.dtype),
            'attrs': {k: jvalue(x) for k, x in v.attrs.items()},
            'encoding': {k: jvalue(v.encoding[k]) for k in
                         ('units', 'calendar', '_FillValue', 'scale_factor', 'add_offset')
                         if k in v.encoding},
            'values': jvalues(values),
        }
        if 'dtype' in v.encoding:
            entry['encoding']['dtype'] = np.dtype(v.encoding['dtype']).name
        flat = values.reshape(-1)
        if values.dtype.kind == 'O' and flat.size and hasattr(flat[0], 'calendar'):
            entry['calendar'] = flat[0].calendar
        elif values.dtype.kind == 'M':
            entry['calendar'] = 'numpy datetime64'
        out['vars'][name] = entry
    return out


def main(argv):
    import xarray as xr
    if len(argv) != 3 or argv[1] not in ('netcdf', 'zarr'):
        sys.exit(__doc__)
    mode, path = argv[1], argv[2]
    if mode == 'netcdf':
        out = read_netcdf(path)
        with xr.open_dataset(path, engine='netcdf4') as ds:
            out['xarray'] = read_xarray(ds)
    else:
        out = read_zarr(path)
        with xr.open_zarr(path, consolidated=True) as ds:
            out['xarray'] = read_xarray(ds)
    json.dump(out, sys.stdout, allow_nan=False)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main(sys.argv)
