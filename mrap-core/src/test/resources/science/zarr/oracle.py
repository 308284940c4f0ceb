#!/usr/bin/python3
"""The test oracle of the Zarr reader: what the reference libraries read, as JSON on stdout.

    /usr/bin/python3 oracle.py zarr   <store-dir> <array-path> [<slab>]
    /usr/bin/python3 oracle.py xarray <store-dir> <variable>   [<slab>]
    /usr/bin/python3 oracle.py list   <store-dir>
    /usr/bin/python3 oracle.py all    <store-dir>   (list, each array with its zarr-mode read,
                                                   or its "error", under "read")

<array-path> is the array's path in the store, '' (or '/') for an array at the root.
<slab> is start:count[:stride] per dimension, comma-separated, e.g. 0:4:1,2:3:2; Python
slice semantics start:start+count*stride:stride; every selected index must lie in the
array (else an error).  Without a slab, the whole array.  A 0-d array takes no slab.

mode zarr   v2: zarr.open(store, mode='r')[array] (zarr 2.13).  A null fill_value leaves
            missing chunks undefined in zarr 2.13 (np.empty); the oracle reads into a
            zero-filled array, so missing chunks read 0 there.
            v3 stores and v2/zstd_nosize.zarr (which zarr 2.13 cannot read): the values
            saved by make_zarr_fixtures.py, expected/<v2|v3>/<store-name>/<path>.npy
            (a root array: __root__.npy), sliced the same way; "source" says which.
    {"zarr_format": 2|3, "source": "zarr"|"npy", "path": ..., "shape": [selected shape],
     "dtype": "<numpy dtype str, e.g. <i2 >f8 |b1 (v3: the .npy's, little-endian)>",
     "fill": <fill value or null>, "values": [flat, C order]}
    Values: integers exact, floats as JSON numbers (float32 widened to double exactly)
    or the strings "NaN", "Infinity", "-Infinity"; bools 0/1; complex [re, im].

mode xarray xarray.open_zarr(store) (consolidated when .zmetadata is there), CF decoding on.
            v3/era5.zarr: xarray 2023.01 with zarr 2.13 cannot open Zarr v3, so this reads
            v2/era5.zarr next to it, which holds the same data (make_zarr_fixtures.py
            writes v3/era5.zarr from it); "read_from" says so.
    {"variable", "dims", "shape", "dtype" (decoded), "values" (decoded by xarray),
     "raw" (stored integers), "values_cf64" (raw*scale_factor+add_offset in float64,
     NaN where raw == _FillValue), "attrs", "encoding",
     "coords": {dim: {"values": [...], "attrs": {...},
                      time only: "iso": ["2021-07-01T00:00:00", ...], "units", "calendar"}}}
    For time, "values" are the numbers as stored (e.g. hours since 1900-01-01 00:00:00.0).
    Note xarray 2023.01 decodes int16 + _FillValue + scale/offset to float32, in float32
    arithmetic; values_cf64 is the same formula in float64.

mode list   every array of the store:
    {"zarr_format", "arrays": [{"path", "shape", "dtype", "chunks", ...v2: "order", "fill",
     "compressor", "filters", "dimension_separator" (null when .zarray has none), "attrs";
     v3: "data_type", "fill_value" (as in zarr.json), "fill", "chunk_key_encoding",
     "codecs", "dimension_names", "attributes", "inner_chunks" (sharded), "expected"}],
     "groups": [paths]}

Errors: {"error": "..."} on stdout, exit status 1.
"""
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

V3_DTYPES = {'bool': '|b1', 'int8': '|i1', 'uint8': '|u1', 'int16': '<i2', 'uint16': '<u2',
             'int32': '<i4', 'uint32': '<u4', 'int64': '<i8', 'uint64': '<u8',
             'float32': '<f4', 'float64': '<f8', 'complex64': '<c8', 'complex128': '<c16'}


class OracleError(Exception):
    pass


# --------------------------------------------------------------------------- JSON values

def jfloat(x):
    x = float(x)
    if math.isnan(x):
        return 'NaN'
    if math.isinf(x):
        return 'Infinity' if x > 0 else '-Infinity'
    return x


def jscalar(x):
    if x is None:
        return None
    if isinstance(x, (bool, np.bool_)):
        return int(bool(x))
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return jfloat(x)
    if isinstance(x, (complex, np.complexfloating)):
        return [jfloat(x.real), jfloat(x.imag)]
    if isinstance(x, np.ndarray) and x.shape == ():
        return jscalar(x[()])
    return x


def jvalues(arr):
    arr = np.asarray(arr).reshape(-1)
    k = arr.dtype.kind
    if k == 'b':
        return [int(v) for v in arr]
    if k in 'iu':
        return [int(v) for v in arr.tolist()]
    if k == 'f':
        return [jfloat(v) for v in arr.tolist()]
    if k == 'c':
        return [[jfloat(v.real), jfloat(v.imag)] for v in arr.tolist()]
    if k == 'M':
        return [str(v) for v in np.datetime_as_string(arr, unit='s')]
    raise OracleError('no JSON form for dtype %s' % arr.dtype)


def from_json_values(vals, dtype):
    """The inverse of jvalues (for the generator's self-check)."""
    conv = {'NaN': float('nan'), 'Infinity': float('inf'), '-Infinity': float('-inf')}
    dtype = np.dtype(dtype)
    if dtype.kind == 'f':
        return np.array([conv.get(v, v) if isinstance(v, str) else v for v in vals],
                        dtype=dtype.newbyteorder('='))
    return np.array(vals, dtype=dtype.newbyteorder('='))


def jattrs(d):
    """Attributes and encodings with numpy types made plain."""
    out = {}
    for k, v in d.items():
        if isinstance(v, (list, tuple)):
            out[k] = [jscalar(x) for x in v]
        elif isinstance(v, np.ndarray):
            out[k] = jvalues(v)
        elif isinstance(v, np.dtype):
            out[k] = v.str
        elif isinstance(v, dict):
            out[k] = jattrs(v)
        elif hasattr(v, 'get_config'):
            out[k] = v.get_config()
        else:
            out[k] = jscalar(v) if not isinstance(v, str) else v
    return out


# --------------------------------------------------------------------------- slabs

def parse_slab(slab, shape):
    """start:count[:stride],... -> a tuple of slices (Python semantics)."""
    if slab is None or slab == '':
        return tuple(slice(None) for _ in shape)
    parts = slab.split(',')
    if len(parts) != len(shape):
        raise OracleError('slab %r has %d dimensions, the array %d' % (slab, len(parts),
                                                                       len(shape)))
    out = []
    for d, (p, n) in enumerate(zip(parts, shape)):
        f = [int(x) for x in p.split(':')]
        if len(f) == 2:
            f.append(1)
        if len(f) != 3:
            raise OracleError('slab dimension %d: %r is not start:count[:stride]' % (d, p))
        start, count, stride = f
        if start < 0 or count < 0 or stride < 1:
            raise OracleError('slab dimension %d: %r has a negative start or count or a '
                              'stride below 1' % (d, p))
        if count > 0 and start + (count - 1) * stride >= n:
            raise OracleError('slab dimension %d: %r reaches index %d, the length is %d'
                              % (d, p, start + (count - 1) * stride, n))
        out.append(slice(start, start + count * stride, stride))
    return tuple(out)


def sel_shape(sel, shape):
    return tuple(len(range(*s.indices(n))) for s, n in zip(sel, shape))


# --------------------------------------------------------------------------- stores

def zarr_format(store):
    if os.path.isfile(os.path.join(store, 'zarr.json')):
        return 3
    if any(os.path.isfile(os.path.join(store, k)) for k in ('.zarray', '.zgroup')):
        return 2
    raise OracleError('%s holds no zarr.json, .zarray or .zgroup' % store)


def norm_path(path):
    path = (path or '').strip('/')
    return '' if path == '.' else path


def expected_npy(kind, store, path):
    name = os.path.basename(os.path.normpath(store))
    return os.path.join(HERE, 'expected', kind, name, (norm_path(path) or '__root__') + '.npy')


def v3_fill(data_type, fv):
    if fv is None:
        return None
    dt = np.dtype(V3_DTYPES[data_type])
    if dt.kind == 'c':
        return complex(v3_fill('float%d' % (dt.itemsize * 4), fv[0]),
                       v3_fill('float%d' % (dt.itemsize * 4), fv[1]))
    if isinstance(fv, str):
        if fv.startswith('0x'):
            return np.array(int(fv, 16), dtype='<u%d' % dt.itemsize).view(dt)[()]
        return dt.type({'NaN': np.nan, 'Infinity': np.inf, '-Infinity': -np.inf}[fv])
    return dt.type(fv)


def v3_nodes(store):
    """(path, metadata) of every node under store, found by its zarr.json."""
    nodes = []
    for dirpath, dirnames, filenames in os.walk(store):
        dirnames.sort()
        if 'zarr.json' in filenames:
            rel = os.path.relpath(dirpath, store).replace(os.sep, '/')
            with open(os.path.join(dirpath, 'zarr.json')) as f:
                nodes.append(('' if rel == '.' else rel, json.load(f)))
    return nodes


def read_zarr(store, path, slab):
    fmt = zarr_format(store)
    path = norm_path(path)
    if fmt == 3:
        meta_path = os.path.join(store, path, 'zarr.json')
        if not os.path.isfile(meta_path):
            raise OracleError('no array at %r in %s' % (path, store))
        with open(meta_path) as f:
            meta = json.load(f)
        if meta.get('node_type') != 'array':
            raise OracleError('%r in %s is a %s' % (path, store, meta.get('node_type')))
        npy = expected_npy('v3', store, path)
        if not os.path.isfile(npy):
            raise OracleError('no expected values %s' % npy)
        full = np.load(npy)
        if list(full.shape) != meta['shape']:
            raise OracleError('%s has shape %s, zarr.json says %s' % (npy, full.shape,
                                                                     meta['shape']))
        sel = parse_slab(slab, full.shape)
        vals = full[sel]
        return {'zarr_format': 3, 'source': 'npy', 'path': path, 'shape': list(vals.shape),
                'dtype': full.dtype.str, 'data_type': meta['data_type'],
                'fill': jscalar(v3_fill(meta['data_type'], meta['fill_value'])),
                'values': jvalues(vals)}
    import zarr
    npy = expected_npy('v2', store, path)
    z = zarr.open(store, mode='r')
    arr = z if path == '' else z[path]
    if not hasattr(arr, 'dtype'):
        raise OracleError('%r in %s is a group' % (path, store))
    sel = parse_slab(slab, arr.shape)
    if os.path.isfile(npy):
        # zarr 2.13 cannot decode these chunks (zstd frames without a content size)
        vals, source = np.load(npy)[sel], 'npy'
    elif arr.fill_value is None:
        vals = np.zeros(sel_shape(sel, arr.shape), dtype=arr.dtype)
        arr.get_basic_selection(sel if sel else Ellipsis, out=vals)
        source = 'zarr'
    else:
        vals, source = np.asarray(arr.get_basic_selection(sel if sel else Ellipsis)), 'zarr'
    return {'zarr_format': 2, 'source': source, 'path': path, 'shape': list(vals.shape),
            'dtype': arr.dtype.str, 'fill': jscalar(arr.fill_value), 'values': jvalues(vals)}


def read_xarray(store, variable, slab):
    import xarray as xr
    out = {}
    if zarr_format(store) == 3:
        # xarray 2023.01 and zarr 2.13 cannot open Zarr v3.  v3/era5.zarr holds the data of
        # v2/era5.zarr (make_zarr_fixtures.py writes it from that store), so read that one.
        if os.path.basename(os.path.normpath(store)) != 'era5.zarr':
            raise OracleError('xarray mode reads Zarr v3 only for v3/era5.zarr')
        store = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(store))),
                             'v2', 'era5.zarr')
        if not os.path.isdir(store):
            store = os.path.join(HERE, 'v2', 'era5.zarr')
        out['read_from'] = 'v2/era5.zarr (same data as v3/era5.zarr)'
    consolidated = os.path.isfile(os.path.join(store, '.zmetadata'))
    ds = xr.open_zarr(store, consolidated=consolidated)
    raw_ds = xr.open_zarr(store, consolidated=consolidated, mask_and_scale=False,
                          decode_times=False)
    if variable not in ds.variables:
        raise OracleError('no variable %r in %s' % (variable, store))
    v = ds[variable]
    sel = parse_slab(slab, v.shape)
    isel = dict(zip(v.dims, sel))
    dv = v.isel(isel)
    raw = raw_ds[variable].isel(isel).values
    enc = dict(v.encoding)
    out.update({'variable': variable, 'dims': list(v.dims), 'shape': list(dv.shape),
                'dtype': dv.dtype.str, 'values': jvalues(dv.values), 'raw': jvalues(raw),
                'attrs': jattrs(v.attrs),
                'encoding': jattrs({k: enc[k] for k in ('dtype', 'scale_factor', 'add_offset',
                                                       '_FillValue', 'units', 'calendar',
                                                       'chunks', 'compressor', 'filters')
                                    if k in enc})})
    if 'scale_factor' in enc or 'add_offset' in enc:
        cf = raw.astype('f8') * float(enc.get('scale_factor', 1.0)) + \
            float(enc.get('add_offset', 0.0))
        if '_FillValue' in enc and enc['_FillValue'] is not None:
            cf[raw == enc['_FillValue']] = np.nan
        out['values_cf64'] = jvalues(cf)
    coords = {}
    for d, s in zip(v.dims, sel):
        if d not in ds.coords:
            continue
        c = ds[d].isel({d: s})
        entry = {'attrs': jattrs(c.attrs)}
        if np.issubdtype(c.dtype, np.datetime64):
            entry['iso'] = jvalues(c.values)
            entry['values'] = jvalues(raw_ds[d].isel({d: s}).values)
            entry['units'] = ds[d].encoding.get('units')
            entry['calendar'] = ds[d].encoding.get('calendar')
        else:
            entry['values'] = jvalues(c.values)
        coords[d] = entry
    out['coords'] = coords
    return out


def list_store(store):
    fmt = zarr_format(store)
    arrays, groups = [], []
    if fmt == 3:
        for path, meta in v3_nodes(store):
            if meta.get('node_type') == 'group':
                groups.append(path)
                continue
            codecs = meta.get('codecs', [])
            e = {'path': path, 'shape': meta['shape'], 'data_type': meta['data_type'],
                 'dtype': V3_DTYPES.get(meta['data_type'], None)
                 if isinstance(meta['data_type'], str) else None,
                 'chunks': meta['chunk_grid']['configuration']['chunk_shape'],
                 'chunk_key_encoding': meta['chunk_key_encoding'],
                 'fill_value': meta['fill_value'],
                 'codecs': codecs,
                 'dimension_names': meta.get('dimension_names'),
                 'attributes': meta.get('attributes', {})}
            try:
                e['fill'] = jscalar(v3_fill(meta['data_type'], meta['fill_value']))
            except Exception:                     # unknown data type: leave it to the reader
                e['fill'] = None
            if codecs and codecs[0].get('name') == 'sharding_indexed':
                e['inner_chunks'] = codecs[0]['configuration']['chunk_shape']
            npy = expected_npy('v3', store, path)
            e['expected'] = os.path.relpath(npy, HERE) if os.path.isfile(npy) else None
            arrays.append(e)
        return {'zarr_format': 3, 'arrays': arrays, 'groups': groups}
    import zarr
    z = zarr.open(store, mode='r')

    def entry(path, a):
        with open(os.path.join(store, path, '.zarray')) as f:
            raw = json.load(f)
        return {'path': path, 'shape': list(a.shape), 'dtype': a.dtype.str,
                'chunks': list(a.chunks), 'order': a.order, 'fill': jscalar(a.fill_value),
                'compressor': raw.get('compressor'), 'filters': raw.get('filters'),
                'dimension_separator': raw.get('dimension_separator'),
                'attrs': jattrs(dict(a.attrs))}

    if hasattr(z, 'dtype'):
        arrays.append(entry('', z))
    else:
        def visit(path, node):
            if hasattr(node, 'dtype'):
                arrays.append(entry(path, node))
            else:
                groups.append(path)
        groups.append('')
        z.visititems(visit)
    return {'zarr_format': 2, 'arrays': arrays, 'groups': groups,
            'consolidated': os.path.isfile(os.path.join(store, '.zmetadata'))}


def main(argv):
    if len(argv) < 2 or argv[0] not in ('zarr', 'xarray', 'list', 'all'):
        raise OracleError('usage: oracle.py zarr|xarray <store-dir> <array-path> [<slab>] | '
                          'oracle.py list <store-dir>')
    mode, store = argv[0], argv[1]
    if not os.path.isdir(store):
        raise OracleError('no store directory %s' % store)
    if mode == 'list':
        return list_store(store)
    if mode == 'all':  # one interpreter for a whole store's arrays
        listed = list_store(store)
        for a in listed['arrays']:
            try:
                a['read'] = read_zarr(store, a['path'], None)
            except Exception as e:
                a['read'] = {'error': '%s: %s' % (type(e).__name__, e)}
        return listed
    if len(argv) < 3:
        raise OracleError('mode %s needs an array path' % mode)
    slab = argv[3] if len(argv) > 3 else None
    if mode == 'zarr':
        return read_zarr(store, argv[2], slab)
    return read_xarray(store, argv[2], slab)


if __name__ == '__main__':
    try:
        result = main(sys.argv[1:])
    except Exception as e:             # the Java test reads the reason from stdout
        print(json.dumps({'error': '%s: %s' % (type(e).__name__, e)}))
        sys.exit(1)
    json.dump(result, sys.stdout, allow_nan=False)
    sys.stdout.write('\n')
