#!/usr/bin/python3
"""Writes the Zarr fixtures of org.opass.mrap.science's tests.

    cd mrap-core/src/test/resources/science/zarr && /usr/bin/python3 make_zarr_fixtures.py

Libraries (Debian 12): zarr 2.13.6, numcodecs 0.11.0, xarray 2023.01.0, numpy 1.24.2,
cftime 1.6.2; /usr/bin/zstd 1.5.4 for the frames without a content size.

Deterministic (fixed seeds and formulas) and rerunnable: it deletes v2/, v3/, damaged/ and
expected/ and writes them again.  Library versions may change metadata bytes, never values.

  v2/        Zarr v2 stores written by zarr 2.13 (DirectoryStore) and xarray.to_zarr
  v3/        Zarr v3 stores written by hand from the spec's text (no v3 library here):
             core spec v3.0, codecs bytes, transpose, gzip, blosc, crc32c,
             sharding_indexed, and the zstd codec of zarr-extensions
  damaged/   stores a reader must refuse, each described in damaged/README.md
  expected/  values for what zarr 2.13 cannot read: expected/v3/<store>/<array path>.npy
             (a root array: expected/v3/<store>/__root__.npy; "__" can start no v3 node
             name) and expected/v2/zstd_nosize.zarr/<array>.npy

oracle.py reads these for the Java tests; check_v3.py decodes every v3 store with an
independent reader (python-blosc, gzip, the zstd command, crcmod) and compares with the .npy.
"""
import base64
import bz2
import gzip
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numcodecs
import numpy as np
import pandas as pd
import xarray as xr
import zarr
from numcodecs import GZip, LZ4, Blosc, Delta, Shuffle, Zlib, Zstd

HERE = os.path.dirname(os.path.abspath(__file__))
V2 = os.path.join(HERE, 'v2')
V3 = os.path.join(HERE, 'v3')
DAMAGED = os.path.join(HERE, 'damaged')
EXPECTED = os.path.join(HERE, 'expected')
ZSTD_CLI = '/usr/bin/zstd'

# ---------------------------------------------------------------------------------------------
# values


def ints(dtype, n, seed):
    """n values of an integer dtype: its extremes first, then pseudo-random ones."""
    dt = np.dtype(dtype)
    info = np.iinfo(dt)
    lo, hi = int(info.min), int(info.max)
    span = hi - lo + 1
    raw = np.frombuffer(np.random.default_rng(seed).bytes(8 * n), dtype='<u8')
    vals = [lo + int(x) % span for x in raw]
    special = [lo, hi, 0, 1, lo + 1, hi - 1] + ([-1, -2] if lo < 0 else [2, hi // 2 + 1])
    vals[:len(special)] = special[:n]
    return np.array(vals, dtype=dt.newbyteorder('='))


def floats(dtype, n, seed):
    """n values of a float dtype: NaN, infinities, -0.0, extremes, subnormals, then noise."""
    dt = np.dtype(dtype).newbyteorder('=')
    fi = np.finfo(dt)
    vals = np.random.default_rng(seed).standard_normal(n) * 1000.0
    special = [np.nan, np.inf, -np.inf, -0.0, 0.0, fi.max, fi.min, fi.tiny,
               fi.smallest_subnormal, 1.0, -1.5, 0.1]
    k = min(n, len(special))
    vals[:k] = special[:k]
    return vals.astype(dt)


def values(dtype, n, seed):
    dt = np.dtype(dtype)
    if dt.kind in 'iu':
        return ints(dt, n, seed)
    if dt.kind == 'f':
        return floats(dt, n, seed)
    if dt.kind == 'b':
        return np.array([(i * i + seed) % 3 == 0 for i in range(n)], dtype='?')
    if dt.kind == 'c':
        re = np.random.default_rng(seed).standard_normal(n)
        return (re + 1j * np.arange(n)).astype(dt.newbyteorder('='))
    raise ValueError(dt)


def smooth(shape, dtype, seed, scale=1.0):
    """Compressible values: a ramp plus a little noise, cast to dtype."""
    n = int(np.prod(shape))
    rng = np.random.default_rng(seed)
    v = np.arange(n) * 3.0 * scale - 40.0 + rng.integers(0, 4, n)
    dt = np.dtype(dtype)
    if dt.kind == 'u':
        v = np.abs(v)
    if dt.kind == 'f':
        v = v + 0.25 * rng.integers(0, 4, n)
    if dt.kind == 'b':
        return (np.arange(n).reshape(shape) % 3 == 0)
    return v.astype(dt.newbyteorder('=')).reshape(shape)


# ---------------------------------------------------------------------------------------------
# small helpers

def reset(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        json.dump(obj, f, indent=4, allow_nan=False)
        f.write('\n')


def save_expected(kind, store, path, arr):
    rel = path.strip('/') or '__root__'
    out = os.path.join(EXPECTED, kind, store, rel + '.npy')
    os.makedirs(os.path.dirname(out), exist_ok=True)
    np.save(out, np.array(arr, order='C'), allow_pickle=False)


def zstd_cli(data, level=3, checksum=True, content_size=False):
    """A zstd frame from the zstd command: read from stdin it omits the content size;
    read from a file it writes it."""
    args = [ZSTD_CLI, '-q', '-%d' % level, '--check' if checksum else '--no-check', '-c']
    if content_size:
        with tempfile.NamedTemporaryFile(delete=False) as f:
            f.write(data)
        try:
            return subprocess.run(args + [f.name], check=True, capture_output=True).stdout
        finally:
            os.remove(f.name)
    return subprocess.run(args, input=data, check=True, capture_output=True).stdout


def zstd_frame_flags(frame):
    """(has content size, has checksum) from a zstd frame header (RFC 8878 3.1.1.1)."""
    assert frame[:4] == b'\x28\xb5\x2f\xfd', 'not a zstd frame'
    fhd = frame[4]
    fcs_flag, single_segment, checksum = fhd >> 6, (fhd >> 5) & 1, (fhd >> 2) & 1
    return (fcs_flag != 0 or single_segment == 1), checksum == 1


# ---------------------------------------------------------------------------------------------
# Zarr v2, written by zarr 2.13

NUMERIC = ['i1', 'u1', 'i2', 'u2', 'i4', 'u4', 'i8', 'u8', 'f4', 'f8']
ORDERS = {'<': 'lt', '>': 'gt'}


def dtype_name(dt):
    dt = np.dtype(dt)
    s = dt.str                      # '<i2', '>f8', '|u1', '|b1'
    return ('' if s[0] == '|' else ORDERS[s[0]] + '_') + s[1:]


def v2_dtypes():
    """Every numeric dtype in both byte orders, and bool: raw chunks (compressor None)."""
    g = zarr.open_group(os.path.join(V2, 'dtypes.zarr'), mode='w')
    g.attrs['about'] = 'one array a dtype: (7,5) in chunks (4,3), compressor null'
    seed = 100
    dts = []
    for t in NUMERIC:
        for o in ('<', '>'):
            dt = np.dtype(o + t)
            if dt.str not in [d.str for d in dts]:
                dts.append(dt)
    dts.append(np.dtype('|b1'))
    for dt in dts:
        seed += 1
        a = g.create_dataset(dtype_name(dt), shape=(7, 5), chunks=(4, 3), dtype=dt,
                             compressor=None)
        a[:] = values(dt, 35, seed).reshape(7, 5)


def v2_complex():
    """A '<c8' root array: zarr reads it; our reader must refuse complex by name."""
    a = zarr.open(os.path.join(V2, 'complex.zarr'), mode='w', shape=(6,), chunks=(4,),
                  dtype='<c8', compressor=None)
    a[:] = values('<c8', 6, 7)


def v2_order():
    g = zarr.open_group(os.path.join(V2, 'order.zarr'), mode='w')
    g.attrs['about'] = "order C and F; F chunks hold their bytes in Fortran order"
    specs = [('c_2d', (7, 5), (4, 3), '<i4', 'C', None),
             ('f_2d', (7, 5), (4, 3), '<i4', 'F', None),
             ('f_2d_zlib_gt_i2', (7, 5), (4, 3), '>i2', 'F', Zlib(level=1)),
             ('f_3d_blosc_gt_f8', (5, 4, 3), (2, 3, 2), '>f8', 'F',
              Blosc('lz4', 5, shuffle=Blosc.SHUFFLE)),
             ('c_3d_blosc_gt_f8', (5, 4, 3), (2, 3, 2), '>f8', 'C',
              Blosc('lz4', 5, shuffle=Blosc.SHUFFLE)),
             ('f_1d', (10,), (4,), '<u2', 'F', None)]
    for i, (name, shape, chunks, dt, order, comp) in enumerate(specs):
        a = g.create_dataset(name, shape=shape, chunks=chunks, dtype=dt, order=order,
                             compressor=comp)
        a[:] = smooth(shape, dt, 200 + i)


def v2_separators():
    g = zarr.open_group(os.path.join(V2, 'separators.zarr'), mode='w')
    g.attrs['about'] = ("dimension_separator absent (zarr 2.13 writes no key for the default "
                        "'.'), written as '.', and '/' (nested chunk folders, also in a subgroup)")
    shape, chunks = (5, 4, 3), (2, 3, 2)
    a = g.create_dataset('absent', shape=shape, chunks=chunks, dtype='<i2')
    a[:] = smooth(shape, '<i2', 300)
    a = g.create_dataset('dot', shape=shape, chunks=chunks, dtype='<i2',
                         dimension_separator='.')
    a[:] = smooth(shape, '<i2', 301)
    a = g.create_dataset('slash', shape=shape, chunks=chunks, dtype='<i2',
                         dimension_separator='/')
    a[:] = smooth(shape, '<i2', 302)
    a = g.create_dataset('sub/slash_2d', shape=(7, 5), chunks=(4, 3), dtype='>f4',
                         dimension_separator='/')
    a[:] = smooth((7, 5), '>f4', 303)


BLOSC_CNAMES = ['blosclz', 'lz4', 'lz4hc', 'zlib', 'zstd']
BLOSC_SHUFFLES = {0: 'noshuffle', 1: 'shuffle', 2: 'bitshuffle', -1: 'autoshuffle'}


def v2_compressors():
    g = zarr.open_group(os.path.join(V2, 'compressors.zarr'), mode='w')
    g.attrs['about'] = ('one array a compressor setting; 1-D (1000,) in chunks (400,), the '
                        'last one partial; blosc_<cname>_<shuffle> on <i4, then dtype and '
                        'block variants (blosc copies buffers under 128 bytes uncompressed, '
                        'so the chunks are larger than that)')
    shape, chunks = (1000,), (400,)
    seed = 400

    def add(name, dt, comp, data=None, shp=shape, chk=chunks):
        nonlocal seed
        seed += 1
        a = g.create_dataset(name, shape=shp, chunks=chk, dtype=dt, compressor=comp)
        a[:] = smooth(shp, dt, seed) if data is None else data

    add('none', '<i4', None)
    add('zlib_1', '<i4', Zlib(level=1))
    add('zlib_9', '>f8', Zlib(level=9))
    add('gzip_1', '<i4', GZip(level=1))
    add('gzip_5', '>i8', GZip(level=5))
    for cname in BLOSC_CNAMES:
        for sh, sname in BLOSC_SHUFFLES.items():
            add('blosc_%s_%s' % (cname, sname), '<i4', Blosc(cname, 5, shuffle=sh))
    # AUTOSHUFFLE (-1) is decided at encode time: bit shuffle for 1-byte items, byte
    # shuffle otherwise; the .zarray keeps -1, the chunk's blosc header says which.
    add('blosc_lz4_autoshuffle_u1', '|u1', Blosc('lz4', 5, shuffle=-1))
    add('blosc_lz4_autoshuffle_gt_f8', '>f8', Blosc('lz4', 5, shuffle=-1))
    add('blosc_zstd_bitshuffle_gt_i2', '>i2', Blosc('zstd', 3, shuffle=2))
    add('blosc_zlib_shuffle_lt_u8', '<u8', Blosc('zlib', 1, shuffle=1))
    # several blosc blocks in one chunk: 2000 doubles (16000 bytes), blocksize 256 (c-blosc
    # 1.21.3 keeps 256, but ignores 1024 and makes one block of 16000); the same with the
    # automatic blocksize: one block, its streams split by byte (no DONT_SPLIT flag)
    add('blosc_lz4_blocksize256', '<f8', Blosc('lz4', 5, shuffle=1, blocksize=256),
        shp=(2500,), chk=(2000,))
    add('blosc_lz4_split', '<f8', Blosc('lz4', 5, shuffle=1), shp=(2500,), chk=(2000,))
    # clevel 0: blosc copies the bytes (memcpyed flag)
    add('blosc_lz4_clevel0', '<i4', Blosc('lz4', 0, shuffle=1))
    # incompressible bytes: blosc gives up and copies them
    add('blosc_blosclz_random', '|u1', Blosc('blosclz', 9, shuffle=0),
        data=np.random.default_rng(7).integers(0, 256, 1000, dtype='u1'))
    # a chunk under 128 bytes: blosc copies it (memcpyed flag) whatever the settings
    add('blosc_lz4_small_chunk', '<i4', Blosc('lz4', 5, shuffle=1), shp=(50,), chk=(16,))
    add('zstd_1', '<i4', Zstd(level=1))
    add('zstd_3', '>f4', Zstd(level=3))
    add('zstd_19', '<i8', Zstd(level=19))
    add('lz4_1', '<i4', LZ4(acceleration=1))
    add('lz4_10', '>u2', LZ4(acceleration=10))


def v2_filters():
    g = zarr.open_group(os.path.join(V2, 'filters.zarr'), mode='w')
    g.attrs['about'] = 'filters Shuffle and Delta, each with a compressor after them'
    shape, chunks = (50,), (16,)
    specs = [
        ('shuffle_zlib', '<i4', [Shuffle(elementsize=4)], Zlib(level=1)),
        ('shuffle8_gzip_gt_f8', '>f8', [Shuffle(elementsize=8)], GZip(level=1)),
        ('delta_blosc', '<i4', [Delta(dtype='<i4')], Blosc('lz4', 5, shuffle=1)),
        ('delta_zstd_gt_i8', '>i8', [Delta(dtype='>i8')], Zstd(level=1)),
        ('delta_lz4_f8', '<f8', [Delta(dtype='<f8')], LZ4()),
        ('delta_astype_i2', '<i4', [Delta(dtype='<i4', astype='<i2')], Zlib(level=1)),
        ('delta_shuffle_gzip', '<i4', [Delta(dtype='<i4'), Shuffle(elementsize=4)],
         GZip(level=1)),
        ('delta_none', '<i2', [Delta(dtype='<i2')], None),
    ]
    for i, (name, dt, filters, comp) in enumerate(specs):
        a = g.create_dataset(name, shape=shape, chunks=chunks, dtype=dt, filters=filters,
                             compressor=comp)
        a[:] = smooth(shape, dt, 500 + i)


def v2_edges():
    g = zarr.open_group(os.path.join(V2, 'edges.zarr'), mode='w')
    g.attrs['about'] = ('shapes that are no multiple of the chunk shape: edge chunks are '
                        'stored whole (padded), the reader cuts them')
    specs = [('d1', (10,), (3,), '<i2', Zlib(level=1)),
             ('d2', (7, 5), (3, 2), '>f4', Blosc('lz4', 5, shuffle=1)),
             ('d3', (5, 4, 3), (2, 3, 2), '<u2', GZip(level=1)),
             ('d4', (3, 4, 5, 2), (2, 3, 2, 1), '<f8', Zstd(level=1)),
             ('d4_f', (3, 4, 5, 2), (2, 3, 4, 2), '>i4', Blosc('zstd', 1, shuffle=2)),
             ('chunk_beyond_shape', (7, 5), (10, 10), '<i8', None)]
    for i, (name, shape, chunks, dt, comp) in enumerate(specs):
        order = 'F' if name.endswith('_f') else 'C'
        a = g.create_dataset(name, shape=shape, chunks=chunks, dtype=dt, compressor=comp,
                             order=order)
        a[:] = smooth(shape, dt, 600 + i)


def v2_missing():
    """Missing chunks read as the fill value (for null: zarr leaves them undefined; the
    oracle reads them into zeros)."""
    g = zarr.open_group(os.path.join(V2, 'missing.zarr'), mode='w')
    g.attrs['about'] = ('(10,8) in chunks (4,4): 3x2 chunks, some never written; fill '
                        'values a number, NaN, Infinity, -Infinity, null')
    shape, chunks = (10, 8), (4, 4)

    def make(name, dt, fill, comp=Blosc('lz4', 5, shuffle=1)):
        return g.create_dataset(name, shape=shape, chunks=chunks, dtype=dt,
                                fill_value=fill, compressor=comp)

    # a region only: chunks (0,0), (0,1) whole; chunk (1,0) holds one written value
    a = make('fill_number_i4', '<i4', -999)
    a[0:4, :] = smooth((4, 8), '<i4', 700)
    a[5, 2] = 12345
    a = make('fill_nan_f4', '<f4', np.nan)
    a[2:6, 1:7] = smooth((4, 6), '<f4', 701)           # touches 4 chunks, partly
    a = make('fill_inf_f8', '>f8', np.inf)
    a[:] = smooth(shape, '>f8', 702)
    os.remove(os.path.join(V2, 'missing.zarr', 'fill_inf_f8', '1.1'))   # deleted after
    os.remove(os.path.join(V2, 'missing.zarr', 'fill_inf_f8', '2.0'))
    a = make('fill_neginf_f4', '<f4', -np.inf, comp=Zlib(level=1))
    a[8:10, 0:4] = smooth((2, 4), '<f4', 703)
    # null: write whole chunks only (zarr fills a partly written chunk from np.empty)
    a = make('fill_null_i2', '<i2', None)
    a[0:4, 0:4] = smooth((4, 4), '<i2', 704)
    a[8:10, 4:8] = smooth((2, 4), '<i2', 705)
    a = make('fill_null_f8', '<f8', None, comp=None)
    a[4:8, 0:4] = smooth((4, 4), '<f8', 706)
    a = make('fill_u8_max', '<u8', 2 ** 64 - 1)
    a[0:4, 0:4] = smooth((4, 4), '<u8', 707)
    a = make('fill_i8_min', '>i8', -2 ** 63, comp=None)
    a[4:8, 4:8] = smooth((4, 4), '>i8', 708)
    a = make('fill_bool_true', '|b1', True)
    a[0:4, 4:8] = False
    a = make('fill_3_5_all_missing', '<f8', 3.5)       # no chunk at all
    # F order with missing chunks
    a = g.create_dataset('fill_nan_gt_f8_F', shape=shape, chunks=chunks, dtype='>f8',
                         fill_value=np.nan, order='F', compressor=Zstd(level=1))
    a[0:8, 0:8] = smooth((8, 8), '>f8', 709)


def v2_groups(name, consolidated):
    path = os.path.join(V2, name)
    root = zarr.open_group(path, mode='w')
    root.attrs.update({'title': 'nested groups', 'spam': 'ham', 'eggs': 42})
    a = root.create_dataset('a', shape=(6,), chunks=(4,), dtype='<i4')
    a[:] = np.arange(6) * 10
    a.attrs['units'] = 'm'
    g = root.create_group('g')
    g.attrs['level'] = 1
    b = g.create_dataset('b', shape=(3, 4), chunks=(2, 2), dtype='<f8')
    b[:] = np.arange(12).reshape(3, 4) / 4.0
    sub = g.create_group('sub')
    sub.attrs['level'] = 2
    a2 = sub.create_dataset('a', shape=(5,), chunks=(2,), dtype='>i2',
                            compressor=Zlib(level=1))
    a2[:] = [-2, -1, 0, 1, 2]
    a2.attrs['long_name'] = 'the array g/sub/a'
    c = sub.create_group('deeper').create_dataset('c', shape=(2, 2, 2), chunks=(1, 2, 2),
                                                  dtype='<u1')
    c[:] = np.arange(8).reshape(2, 2, 2)
    root.create_group('h').attrs['empty'] = True   # a group without arrays
    if consolidated:
        zarr.consolidate_metadata(path)


def v2_scalar_empty():
    a = zarr.open(os.path.join(V2, 'scalar.zarr'), mode='w', shape=(), dtype='<f8',
                  compressor=None, fill_value=-1.0)
    a[...] = 42.5
    a.attrs['about'] = '0-d array: one chunk under the key "0"'
    a = zarr.open(os.path.join(V2, 'empty.zarr'), mode='w', shape=(0, 5), chunks=(2, 5),
                  dtype='<i4')
    a.attrs['about'] = 'a zero-length dimension: no chunk at all'


def v2_zstd_nosize():
    """Chunks as zstd frames without a content size (what the zstd command writes from
    stdin); numcodecs 0.11 cannot decode them, so the values are saved as .npy."""
    path = os.path.join(V2, 'zstd_nosize.zarr')
    g = zarr.open_group(path, mode='w')
    g.attrs['about'] = ('chunks rewritten by `zstd -3 -c` from stdin: frames with a '
                        'checksum and no content size; numcodecs 0.11 cannot read them')
    a = g.create_dataset('a', shape=(10, 8), chunks=(4, 4), dtype='<f4',
                         compressor=Zstd(level=3))
    a[:] = smooth((10, 8), '<f4', 800)
    b = g.create_dataset('b', shape=(20,), chunks=(8,), dtype='>i8', compressor=Zstd(level=3),
                         fill_value=-1)
    b[0:16] = smooth((16,), '>i8', 801)                # chunk 2 never written
    for name in ('a', 'b'):
        save_expected('v2', 'zstd_nosize.zarr', name, g[name][...])
        d = os.path.join(path, name)
        for key in sorted(os.listdir(d)):
            if key.startswith('.'):
                continue
            with open(os.path.join(d, key), 'rb') as f:
                raw = Zstd().decode(f.read())
            frame = zstd_cli(bytes(raw), level=3, checksum=True, content_size=False)
            assert zstd_frame_flags(frame) == (False, True), key
            with open(os.path.join(d, key), 'wb') as f:
                f.write(frame)


def era5_dataset():
    """An ERA5-shaped dataset: 48 hourly steps, a 9-degree grid, t2m and tp packed as int16."""
    time = pd.date_range('2021-07-01T00:00', periods=48, freq='H')
    lat = np.arange(90, -90.1, -9, dtype='f4')          # 21 values, descending
    lon = np.arange(0, 360, 9, dtype='f4')               # 40 values
    rng = np.random.default_rng(2021)
    hours = np.arange(48)[:, None, None]
    la = np.deg2rad(lat)[None, :, None]
    lo = np.deg2rad(lon)[None, None, :]
    t2m = (300.0 - 45.0 * np.sin(la) ** 2 + 8.0 * np.cos(la) * np.sin(lo + 2 * np.pi * hours / 24)
           + 2.0 * np.cos(3 * lo) * np.cos(2 * la) + rng.normal(0, 0.05, (48, 21, 40)))
    t2m[5, 3, 7] = np.nan
    t2m[30, 10, 0:3] = np.nan
    t2m[47, 20, 39] = np.nan
    rain = rng.gamma(0.6, 1.0, (48, 21, 40)) - 1.2
    tp = np.round(np.maximum(rain, 0.0) * 0.002, 6)
    tp[0:24, 0:2, :] = 0.0
    tp[12, 4, 5] = np.nan
    ds = xr.Dataset(
        {'t2m': (('time', 'latitude', 'longitude'), t2m,
                 {'units': 'K', 'long_name': '2 metre temperature'}),
         'tp': (('time', 'latitude', 'longitude'), tp,
                {'units': 'm', 'long_name': 'Total precipitation'})},
        coords={'time': ('time', time, {'long_name': 'time'}),
                'latitude': ('latitude', lat, {'units': 'degrees_north',
                                               'long_name': 'latitude'}),
                'longitude': ('longitude', lon, {'units': 'degrees_east',
                                                 'long_name': 'longitude'})},
        attrs={'Conventions': 'CF-1.6',
               'history': 'ERA5-shaped test data written by make_zarr_fixtures.py'})
    return ds


def packing(v):
    """ERA5-style int16 packing: scale and offset put the data in -32766..32766, leaving
    -32767 for _FillValue."""
    vmin, vmax = float(np.nanmin(v)), float(np.nanmax(v))
    scale = (vmax - vmin) / (2 ** 16 - 4)
    offset = (vmax + vmin) / 2.0
    return scale, offset


ERA5_UNITS = 'hours since 1900-01-01 00:00:00.0'


def v2_era5(name, compressor):
    ds = era5_dataset()
    enc = {}
    for var, chunks in (('t2m', (12, 21, 40)), ('tp', (24, 7, 20))):
        scale, offset = packing(ds[var].values)
        enc[var] = {'dtype': 'int16', 'scale_factor': scale, 'add_offset': offset,
                    '_FillValue': -32767, 'chunks': chunks, 'compressor': compressor}
    enc['time'] = {'units': ERA5_UNITS, 'calendar': 'gregorian', 'dtype': 'int32',
                   'compressor': compressor}
    enc['latitude'] = {'compressor': compressor}
    enc['longitude'] = {'compressor': compressor}
    path = os.path.join(V2, name)
    ds.to_zarr(path, mode='w', encoding=enc, consolidated=True)
    # xarray 2023.01 shortens the units to 'hours since 1900-01-01'; ERA5's NetCDF files
    # say 'hours since 1900-01-01 00:00:00.0'.  Put that back and consolidate again.
    zattrs = os.path.join(path, 'time', '.zattrs')
    with open(zattrs) as f:
        attrs = json.load(f)
    assert attrs['units'] == 'hours since 1900-01-01', attrs
    attrs['units'] = ERA5_UNITS
    write_json(zattrs, attrs)
    zarr.consolidate_metadata(path)


def zero_gzip_mtime(root):
    """numcodecs' GZip writes the time of day into each gzip header (MTIME, bytes 4-7), so
    the chunk bytes would change from run to run; set it to 0 (no time stamp, RFC 1952)."""
    for dirpath, _, files in os.walk(root):
        if '.zarray' not in files:
            continue
        with open(os.path.join(dirpath, '.zarray')) as f:
            meta = json.load(f)
        if (meta.get('compressor') or {}).get('id') != 'gzip':
            continue
        for sub, _, chunks in os.walk(dirpath):
            for name in chunks:
                if name.startswith('.'):
                    continue
                path = os.path.join(sub, name)
                with open(path, 'rb') as f:
                    raw = bytearray(f.read())
                if raw[:3] == b'\x1f\x8b\x08' and not raw[3] & 0x02:   # no header CRC
                    raw[4:8] = b'\0\0\0\0'
                    with open(path, 'wb') as f:
                        f.write(raw)


# ---------------------------------------------------------------------------------------------
# Zarr v3, written by hand from the spec


V3_DTYPES = {'bool': '|b1', 'int8': '|i1', 'uint8': '|u1', 'int16': '<i2', 'uint16': '<u2',
             'int32': '<i4', 'uint32': '<u4', 'int64': '<i8', 'uint64': '<u8',
             'float32': '<f4', 'float64': '<f8'}

CRC32C_TABLE = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    CRC32C_TABLE.append(_c)


def crc32c(data):
    """CRC-32C (Castagnoli, RFC 3720), reflected, init and final xor 0xFFFFFFFF."""
    crc = 0xFFFFFFFF
    for b in data:
        crc = CRC32C_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


assert crc32c(b'123456789') == 0xE3069283


def v3_fill(data_type, fv):
    """The numpy value of a v3 fill_value JSON member (core spec v3.0, fill_value)."""
    dt = np.dtype(V3_DTYPES[data_type])
    if data_type == 'bool':
        assert isinstance(fv, bool)
        return np.array(fv, dtype=dt)
    if dt.kind in 'iu':
        assert isinstance(fv, int) and not isinstance(fv, bool)
        return np.array(fv, dtype=dt)
    if isinstance(fv, str):
        if fv.startswith('0x'):
            bits = np.array(int(fv, 16), dtype='<u%d' % dt.itemsize)
            return bits.view(dt)
        return np.array({'NaN': np.nan, 'Infinity': np.inf, '-Infinity': -np.inf}[fv],
                        dtype=dt)
    return np.array(fv, dtype=dt)


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind == 'f':
        return bool(np.all(a.view('u%d' % a.dtype.itemsize) == b.view('u%d' % b.dtype.itemsize)))
    return bool(np.all(a == b))


def all_fill(chunk, fill):
    if chunk.dtype.kind == 'f' and np.isnan(fill):
        return bool(np.all(np.isnan(chunk)))
    return bool(np.all(chunk == fill))


def encode_chunk(arr, codecs, fill, opts):
    """The spec's encoding procedure: array->array codecs, one array->bytes codec, then
    bytes->bytes codecs, in list order."""
    x = arr
    for c in codecs:
        name, conf = c['name'], c.get('configuration', {})
        if name == 'transpose':
            x = np.transpose(x, conf['order'])
        elif name == 'bytes':
            endian = conf.get('endian', 'little')
            x = np.ascontiguousarray(x).astype(
                x.dtype.newbyteorder('<' if endian == 'little' else '>')).tobytes()
        elif name == 'sharding_indexed':
            x = encode_shard(x, conf, fill, opts)
        elif name == 'gzip':
            x = gzip.compress(x, compresslevel=conf['level'], mtime=0)
        elif name == 'zstd':
            if opts.get('zstd_cli') or conf.get('checksum'):
                x = zstd_cli(x, level=conf['level'] or 3, checksum=conf.get('checksum', False),
                             content_size=not opts.get('zstd_nosize'))
            else:
                x = Zstd(level=conf['level']).encode(x)
        elif name == 'blosc':
            shuffle = {'noshuffle': 0, 'shuffle': 1, 'bitshuffle': 2}[conf['shuffle']]
            ts = conf.get('typesize', 1)
            buf = np.frombuffer(x, dtype='u%d' % ts) if ts in (1, 2, 4, 8) else x
            x = bytes(Blosc(conf['cname'], conf['clevel'], shuffle=shuffle,
                            blocksize=conf.get('blocksize', 0)).encode(buf))
        elif name == 'crc32c':
            x = bytes(x) + struct.pack('<I', crc32c(x))
        else:
            raise ValueError('no encoder for codec %r' % name)
    return bytes(x)


def encode_shard(shard, conf, fill, opts):
    """sharding_indexed: inner chunks one after the other, then (or before) the index of
    (offset, nbytes) uint64 pairs; an inner chunk all of fill values is left out
    (offset = nbytes = 2^64-1)."""
    inner = conf['chunk_shape']
    cps = tuple(s // c for s, c in zip(shard.shape, inner))
    assert all(s % c == 0 for s, c in zip(shard.shape, inner))
    empty = np.uint64(2 ** 64 - 1)
    index = np.full(cps + (2,), empty, dtype='<u8')
    pieces = []
    for idx in np.ndindex(*cps):
        sl = tuple(slice(i * c, (i + 1) * c) for i, c in zip(idx, inner))
        sub = shard[sl]
        if all_fill(sub, fill):
            continue
        pieces.append((idx, encode_chunk(sub, conf['codecs'], fill, opts)))
    if opts.get('inner_reverse'):
        pieces.reverse()
    gap = opts.get('inner_gap', 0)
    location = conf.get('index_location', 'end')
    index_size = len(encode_chunk(index, conf['index_codecs'], None, {}))
    pos = index_size if location == 'start' else 0
    body = bytearray()
    for idx, enc in pieces:
        body += b'\xee' * gap              # unused space between inner chunks is allowed
        index[idx] = (pos + len(body), len(enc))
        body += enc
    enc_index = encode_chunk(index, conf['index_codecs'], None, {})
    assert len(enc_index) == index_size
    return (enc_index + bytes(body)) if location == 'start' else (bytes(body) + enc_index)


def chunk_key(idx, cke):
    name = cke['name']
    sep = cke.get('configuration', {}).get('separator', '/' if name == 'default' else '.')
    if name == 'default':
        return 'c' + ''.join(sep + str(i) for i in idx)
    if name == 'v2':
        return sep.join(str(i) for i in idx) if idx else '0'
    raise ValueError(name)


def v3_group(store, path='', attributes=None, extra=None):
    meta = {'zarr_format': 3, 'node_type': 'group'}
    if attributes is not None:
        meta['attributes'] = attributes
    if extra:
        meta.update(extra)
    write_json(os.path.join(V3, store, path, 'zarr.json'), meta)
    return meta


def v3_array(store, path, data, data_type, chunk_shape, codecs, fill_value,
             cke=None, attributes=None, dimension_names=None, skip=(), skip_fill_chunks=True,
             opts=None, expected=True):
    """Writes zarr.json and the chunks of one v3 array, and its expected .npy.

    data: the logical values; chunks listed in skip are never written, and the expected
    values there are the fill value.  With skip_fill_chunks, a chunk all of fill values
    is not written either (as zarr-python does by default)."""
    opts = opts or {}
    dt = np.dtype(V3_DTYPES[data_type])
    data = np.array(data, dtype=dt).reshape(data.shape)
    shape = data.shape
    fill = v3_fill(data_type, fill_value)
    cke = cke or {'name': 'default', 'configuration': {'separator': '/'}}
    grid = tuple(-(-s // c) for s, c in zip(shape, chunk_shape))
    root = os.path.join(V3, store, path)
    os.makedirs(root, exist_ok=True)
    logical = data.copy()
    skip = {tuple(s) for s in skip}
    for idx in np.ndindex(*grid):
        sl = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, chunk_shape, shape))
        if idx in skip:
            logical[sl] = fill
            continue
        chunk = np.full(tuple(chunk_shape), fill, dtype=dt)    # edge chunks padded with fill
        chunk[tuple(slice(0, s.stop - s.start) for s in sl)] = data[sl]
        if skip_fill_chunks and all_fill(chunk, fill):
            continue
        enc = encode_chunk(chunk, codecs, fill, opts)
        key = os.path.join(root, chunk_key(idx, cke))
        os.makedirs(os.path.dirname(key), exist_ok=True)
        with open(key, 'wb') as f:
            f.write(enc)
    meta = {'zarr_format': 3, 'node_type': 'array', 'shape': list(shape),
            'data_type': data_type,
            'chunk_grid': {'name': 'regular', 'configuration': {'chunk_shape': list(chunk_shape)}},
            'chunk_key_encoding': cke, 'fill_value': fill_value, 'codecs': codecs}
    if attributes is not None:
        meta['attributes'] = attributes
    if dimension_names is not None:
        meta['dimension_names'] = dimension_names
    write_json(os.path.join(root, 'zarr.json'), meta)
    if expected:
        save_expected('v3', store, path, logical)
    return meta


def b(endian='little'):
    return {'name': 'bytes', 'configuration': {'endian': endian}}


def crc():
    return {'name': 'crc32c'}


def gz(level):
    return {'name': 'gzip', 'configuration': {'level': level}}


def blosc(cname, clevel, shuffle, typesize=None, blocksize=0):
    conf = {'cname': cname, 'clevel': clevel, 'shuffle': shuffle}
    if typesize is not None:
        conf['typesize'] = typesize
    conf['blocksize'] = blocksize
    return {'name': 'blosc', 'configuration': conf}


def zstd(level, checksum=None):
    conf = {'level': level}
    if checksum is not None:
        conf['checksum'] = checksum
    return {'name': 'zstd', 'configuration': conf}


def shard(chunk_shape, codecs, location='end', index_codecs=None, write_location=True):
    conf = {'chunk_shape': list(chunk_shape), 'codecs': codecs,
            'index_codecs': index_codecs if index_codecs is not None else [b(), crc()]}
    if write_location:
        conf['index_location'] = location
    return {'name': 'sharding_indexed', 'configuration': conf}


def v3_spec_examples():
    # The core spec's array example (v3.0, "Array metadata", Example), scaled down from
    # shape [10000, 1000] in chunks [1000, 100] to [30, 20] in chunks [10, 10]; chunk
    # (1, 1) never written, so NaN there.
    d = smooth((30, 20), '<f8', 900) / 8.0
    v3_array('spec_core_example.zarr', '', d, 'float64', [10, 10], [b('little')], 'NaN',
             attributes={'foo': 42, 'bar': 'apples', 'baz': [1, 2, 3, 4]},
             dimension_names=['rows', 'columns'], skip=[(1, 1)])
    # The sharding codec spec's configuration, verbatim: inner chunks [32, 32] (bytes
    # little, gzip 1), index [bytes little, crc32c] at the end; shards [64, 64] of a
    # [100, 80] int16 array: shard (1, 1) never written, the inner chunks past column 79
    # are empty (index entries 2^64-1), and so is inner chunk (0, 1) of shard (0, 0),
    # left at the fill value.
    d = smooth((100, 80), '<i2', 901)
    d[0:32, 32:64] = 0
    v3_array('spec_sharding_example.zarr', '', d, 'int16', [64, 64],
             [shard([32, 32], [b('little'), gz(1)], 'end')], 0,
             attributes={'about': "the sharding_indexed spec's configuration example"},
             skip=[(1, 1)])


def v3_dtypes():
    store = 'dtypes.zarr'
    v3_group(store, attributes={'about': 'one array a data type, bytes little and big; '
                                         '(7,5) in chunks (4,3)'})
    seed = 1000
    for data_type, npdt in V3_DTYPES.items():
        seed += 1
        d = values(npdt, 35, seed).reshape(7, 5)
        fill = False if data_type == 'bool' else 0
        if np.dtype(npdt).itemsize == 1:
            # endian is required only for multi-byte types: none, empty, and given
            for name, codec in (('', {'name': 'bytes'}),
                                ('_conf_empty', {'name': 'bytes', 'configuration': {}}),
                                ('_little', b('little'))):
                v3_array(store, data_type + name, d, data_type, [4, 3], [codec], fill)
        else:
            for endian in ('little', 'big'):
                v3_array(store, '%s_%s' % (data_type, endian), d, data_type, [4, 3],
                         [b(endian)], fill)


def v3_chunk_keys():
    store = 'chunk_keys.zarr'
    v3_group(store, attributes={'about': 'chunk_key_encoding default and v2, separators '
                                         '"/" and ".", and the defaults'})
    shape, chunks = (5, 4, 3), [2, 3, 2]
    encs = {
        'default_slash': {'name': 'default', 'configuration': {'separator': '/'}},   # c/0/1/2
        'default_dot': {'name': 'default', 'configuration': {'separator': '.'}},     # c.0.1.2
        'default_noconf': {'name': 'default'},                                     # '/'
        'v2_dot': {'name': 'v2', 'configuration': {'separator': '.'}},             # 0.1.2
        'v2_slash': {'name': 'v2', 'configuration': {'separator': '/'}},           # 0/1/2
        'v2_noconf': {'name': 'v2'},                                               # '.'
    }
    for i, (name, cke) in enumerate(encs.items()):
        v3_array(store, name, smooth(shape, '<i2', 1100 + i), 'int16', chunks, [b()], 0,
                 cke=cke)
    # 0-d arrays: the key is "c" (default) and "0" (v2)
    v3_array(store, 'scalar_default', np.array(42.5), 'float64', [], [b()], 'NaN',
             cke=encs['default_slash'])
    v3_array(store, 'scalar_v2', np.array(-7), 'int32', [], [b('big')], 0, cke=encs['v2_dot'])


def v3_edges():
    store = 'edges.zarr'
    v3_group(store, attributes={'about': 'edge chunks (stored whole, padded with the fill '
                                         'value), 1-D to 4-D; a 0-d array and a zero-length '
                                         'dimension'})
    specs = [('d1', (10,), [3], 'int16', [b(), gz(1)]),
             ('d2', (7, 5), [3, 2], 'float32', [b('big'), blosc('lz4', 5, 'shuffle', 4)]),
             ('d3', (5, 4, 3), [2, 3, 2], 'uint16', [b(), zstd(1)]),
             ('d4', (3, 4, 5, 2), [2, 3, 2, 1], 'float64', [b()]),
             ('chunk_beyond_shape', (7, 5), [10, 10], 'int64', [b()])]
    for i, (name, shape, chunks, data_type, codecs) in enumerate(specs):
        v3_array(store, name, smooth(shape, V3_DTYPES[data_type], 1200 + i), data_type,
                 chunks, codecs, 0)
    v3_array(store, 'scalar', np.array(3.25, dtype='f4'), 'float32', [], [b()], 0)
    v3_array(store, 'zero_length', np.zeros((0, 4), dtype='i4'), 'int32', [2, 4], [b()], 0,
             dimension_names=['empty', 'x'])


def v3_fills():
    store = 'fills.zarr'
    v3_group(store, attributes={'about': '(6,5) in chunks (3,3): chunks (0,1) and (1,0) '
                                         'never written, so they read as the fill value'})
    specs = [('nan_f32', 'float32', 'NaN'),
             ('inf_f64', 'float64', 'Infinity'),
             ('neginf_f32', 'float32', '-Infinity'),
             ('hex_nan_f32', 'float32', '0x7fc00000'),
             ('hex_nan_f64', 'float64', '0x7ff8000000000000'),
             ('hex_nan_payload_f32', 'float32', '0x7fc00001'),
             ('hex_one_f32', 'float32', '0x3f800000'),                # 1.0
             ('hex_minus100_f64', 'float64', '0xc059000000000000'),   # -100.0
             ('number_f32', 'float32', 0.5),
             ('integer_number_f64', 'float64', 2),
             ('number_i16', 'int16', -7),
             ('uint64_max', 'uint64', 2 ** 64 - 1),
             ('int64_min', 'int64', -2 ** 63),
             ('uint8_255', 'uint8', 255),
             ('bool_true', 'bool', True)]
    for i, (name, data_type, fv) in enumerate(specs):
        d = smooth((6, 5), V3_DTYPES[data_type], 1300 + i)
        if data_type == 'bool':
            d = np.zeros((6, 5), '?')
        v3_array(store, name, d, data_type, [3, 3], [b()], fv, skip=[(0, 1), (1, 0)],
                 skip_fill_chunks=False)


def v3_codecs():
    store = 'codecs.zarr'
    v3_group(store, attributes={'about': 'one array a codec chain; (40,30) in chunks (32,16) '
                                         'unless named otherwise'})
    seed = [1400]

    def add(name, data_type, codecs, shape=(40, 30), chunks=(32, 16), opts=None, fill=0):
        seed[0] += 1
        d = smooth(shape, V3_DTYPES[data_type], seed[0])
        v3_array(store, name, d, data_type, list(chunks), codecs, fill, opts=opts)

    add('transpose_2d', 'int32', [{'name': 'transpose', 'configuration': {'order': [1, 0]}}, b()])
    add('transpose_3d', 'float32',
        [{'name': 'transpose', 'configuration': {'order': [2, 0, 1]}}, b('big')],
        shape=(5, 4, 3), chunks=(2, 3, 2))
    add('gzip_0', 'int16', [b(), gz(0)])
    add('gzip_9', 'float64', [b(), gz(9)])
    # the gzip spec's example: level 1
    add('spec_gzip_example', 'int32', [b(), gz(1)])
    add('zstd_3', 'int32', [b(), zstd(3)])
    add('zstd_0_default_level', 'uint16', [b('big'), zstd(0)])
    # the zstd spec's example: level 1, checksum true (frames from the zstd command)
    add('spec_zstd_example', 'float32', [b(), zstd(1, True)])
    add('zstd_checksum_false', 'int64', [b(), zstd(3, False)])
    # frames without a content size (the zstd command reading stdin), with a checksum
    add('zstd_nosize', 'float64', [b(), zstd(3, True)], opts={'zstd_cli': True,
                                                              'zstd_nosize': True})
    # the blosc spec's example: lz4, clevel 1, shuffle, typesize 4, blocksize 0
    add('spec_blosc_example', 'int32', [b(), blosc('lz4', 1, 'shuffle', 4, 0)])
    add('blosc_blosclz_noshuffle', 'int32', [b(), blosc('blosclz', 5, 'noshuffle')])
    add('blosc_lz4hc_shuffle_i2', 'int16', [b(), blosc('lz4hc', 5, 'shuffle', 2)])
    add('blosc_zlib_bitshuffle_u1', 'uint8', [b(), blosc('zlib', 5, 'bitshuffle', 1)])
    add('blosc_zstd_bitshuffle_f8_big', 'float64', [b('big'), blosc('zstd', 3, 'bitshuffle', 8)])
    # typesize 4 on 8-byte values: blosc is bytes -> bytes, any stride will do
    add('blosc_typesize_mismatch', 'float64', [b(), blosc('lz4', 5, 'shuffle', 4)])
    add('blosc_blocksize_256', 'float64', [b(), blosc('lz4', 5, 'shuffle', 8, 256)],
        shape=(300,), chunks=(128,))
    add('blosc_small_chunk', 'int32', [b(), blosc('lz4', 5, 'shuffle', 4)], shape=(7, 5),
        chunks=(4, 3))
    add('crc32c', 'uint32', [b(), crc()])
    add('gzip_crc32c', 'int16', [b(), gz(1), crc()])
    add('chain', 'float64',
        [{'name': 'transpose', 'configuration': {'order': [1, 0]}}, b('big'),
         blosc('zstd', 5, 'shuffle', 8), crc()], fill='NaN')


def v3_sharding():
    store = 'sharding.zarr'
    v3_group(store, attributes={'about': 'sharding_indexed: index at the end and the start, '
                                         'empty inner chunks, shards never written'})
    # (40, 36) in shards (16, 16) of inner chunks (8, 8): 3x3 shards, the last row and column
    # partial (inner chunks wholly past the array are empty); shard (1, 1) never written where
    # skip says so; inner chunks all of the fill value are left out of their shard
    def data(dt, seed, fill):
        d = smooth((40, 36), dt, seed)
        d[0:8, 8:16] = fill        # an empty inner chunk in shard (0, 0)
        d[16:32, 0:8] = fill       # two in shard (1, 0)
        return d

    def sh(*a, **k):
        return [shard(*a, **k)]

    v3_array(store, 'end_gzip', data('<i4', 1501, 0), 'int32', [16, 16],
             sh([8, 8], [b(), gz(1)], 'end'), 0, skip=[(1, 1)])
    v3_array(store, 'start_blosc', data('<f4', 1502, np.nan), 'float32', [16, 16],
             sh([8, 8], [b(), blosc('lz4', 5, 'shuffle', 4)], 'start'), 'NaN', skip=[(1, 1)])
    # index_location absent: it defaults to "end"
    v3_array(store, 'location_absent', data('<u2', 1503, 7), 'uint16', [16, 16],
             sh([8, 8], [b()], write_location=False), 7)
    # index without crc32c
    v3_array(store, 'index_no_crc', data('<i8', 1504, -1), 'int64', [16, 16],
             sh([8, 8], [b()], 'end', index_codecs=[b()]), -1)
    # inner chunks transposed, big-endian, zstd; index at the start
    v3_array(store, 'inner_transpose_zstd', data('<f8', 1505, 0.0), 'float64', [16, 16],
             sh([8, 4], [{'name': 'transpose', 'configuration': {'order': [1, 0]}},
                         b('big'), zstd(3)], 'start'), 0.0)
    # inner chunks stored in reverse order with 5 unused bytes before each
    v3_array(store, 'reversed_with_gaps', data('<i2', 1506, 0), 'int16', [16, 16],
             sh([8, 8], [b(), gz(1)], 'end'), 0, opts={'inner_reverse': True, 'inner_gap': 5})
    # index encoded big-endian (allowed; the spec recommends little)
    v3_array(store, 'index_big_endian', data('<i4', 1507, 0), 'int32', [16, 16],
             sh([8, 8], [b()], 'end', index_codecs=[b('big'), crc()]), 0)
    # 3-D with partial shards, and the default chunk key encoding with "."
    d3 = smooth((10, 12, 14), '<f4', 1508)
    d3[0:4, 0:4, 0:4] = np.nan
    v3_array(store, 'd3_dot_keys', d3, 'float32', [8, 8, 8],
             sh([4, 4, 4], [b(), blosc('zstd', 3, 'bitshuffle', 4)], 'end'), 'NaN',
             cke={'name': 'default', 'configuration': {'separator': '.'}})
    # sharding inside sharding: shards (16, 16), inner (8, 8) themselves shards of (4, 4)
    v3_array(store, 'nested', data('<i4', 1509, 0), 'int32', [16, 16],
             sh([8, 8], [shard([4, 4], [b(), gz(1)], 'end')], 'start'), 0)
    # one shard, every inner chunk present
    v3_array(store, 'full_single_shard', smooth((16, 16), '<u1', 1510) + 1, 'uint8', [16, 16],
             sh([4, 8], [b()], 'end'), 0)


def v3_groups():
    store = 'groups.zarr'
    # the core spec's group example attributes
    v3_group(store, attributes={'spam': 'ham', 'eggs': 42})
    v3_array(store, 'a', np.arange(6) * 10, 'int32', [4], [b()], 0,
             attributes={'units': 'm'}, dimension_names=['x'])
    v3_group(store, 'g', attributes={'level': 1})
    v3_array(store, 'g/b', np.arange(12).reshape(3, 4) / 4.0, 'float64', [2, 2], [b()], 'NaN',
             dimension_names=['y', None])
    v3_group(store, 'g/sub', attributes={'level': 2})
    v3_array(store, 'g/sub/a', np.array([-2, -1, 0, 1, 2]), 'int16', [2], [b('big'), gz(1)], 0,
             attributes={'long_name': 'the array g/sub/a'})
    v3_group(store, 'g/sub/deeper')
    v3_array(store, 'g/sub/deeper/c', np.arange(8).reshape(2, 2, 2), 'uint8', [1, 2, 2],
             [b()], 0)
    v3_group(store, 'h', attributes={'empty': True})


def v3_era5():
    """The data of v2/era5.zarr in v3: t2m sharded (shards (24,21,40), inner (12,21,40),
    inner codecs bytes + blosc lz4 shuffle), tp in chunks (24,7,20) with blosc, coordinates
    plain (bytes only); attributes as xarray's encoding writes them for Zarr v3
    (_FillValue in attributes: an int as is, a float as base64 of its '<d' bytes)."""
    store = 'era5.zarr'
    src = zarr.open_group(os.path.join(V2, 'era5.zarr'), mode='r')
    nodes = {}
    nanb64 = base64.standard_b64encode(struct.pack('<d', float('nan'))).decode()

    def attrs_of(name):
        a = dict(src[name].attrs)
        dims = a.pop('_ARRAY_DIMENSIONS')
        fv = src[name].fill_value
        if fv is not None:
            if isinstance(fv, float) and np.isnan(fv):
                a['_FillValue'] = nanb64
            else:
                a['_FillValue'] = int(fv)
        return a, dims

    for name in ('time', 'latitude', 'longitude'):
        a, dims = attrs_of(name)
        arr = src[name][...]
        dt = {'<i4': 'int32', '<f4': 'float32', '<i8': 'int64'}[arr.dtype.str]
        fill = 0 if dt.startswith('int') else 0.0
        nodes[name] = v3_array(store, name, arr, dt, list(arr.shape), [b()], fill,
                               attributes=a, dimension_names=dims)
    a, dims = attrs_of('t2m')
    nodes['t2m'] = v3_array(store, 't2m', src['t2m'][...], 'int16', [24, 21, 40],
                            [shard([12, 21, 40], [b(), blosc('lz4', 5, 'shuffle', 2)], 'end')],
                            0, attributes=a, dimension_names=dims)
    a, dims = attrs_of('tp')
    nodes['tp'] = v3_array(store, 'tp', src['tp'][...], 'int16', [24, 7, 20],
                           [b(), blosc('lz4', 5, 'shuffle', 2)], 0, attributes=a,
                           dimension_names=dims)
    # the group, with its consolidated metadata (core spec, "Additional fields")
    v3_group(store, attributes=dict(src.attrs),
             extra={'consolidated_metadata': {'kind': 'inline', 'must_understand': False,
                                              'metadata': nodes}})


# ---------------------------------------------------------------------------------------------
# damaged stores

DAMAGED_README = []


def damaged(name, what, must_say):
    DAMAGED_README.append('- `%s`: %s A reader must say %s' % (name, what, must_say))
    return os.path.join(DAMAGED, name)


def v2_damaged():
    p = damaged('blosc_truncated.zarr',
                'v2 array `<i4` (8,) in one chunk (8,), Blosc lz4 clevel 0; the chunk file `0` '
                'is cut to its first 20 bytes (the header says 48).',
                'that chunk `0` is truncated (blosc header cbytes 48, the file has 20 bytes), '
                'naming the array; no values.')
    a = zarr.open(p, mode='w', shape=(8,), chunks=(8,), dtype='<i4',
                  compressor=Blosc('lz4', 0, shuffle=1))
    a[:] = np.arange(8)
    with open(os.path.join(p, '0'), 'rb') as f:
        raw = f.read()
    assert struct.unpack('<I', raw[12:16])[0] == len(raw) == 48, len(raw)
    with open(os.path.join(p, '0'), 'wb') as f:
        f.write(raw[:20])

    p = damaged('blosc_huge_nbytes.zarr',
                'v2 array `<i4` (8,) in one chunk (8,), Blosc lz4; the blosc header of chunk `0` '
                'claims nbytes 0x7FFFFF00 (about 2 GiB) where the chunk holds 32 bytes.',
                'that chunk `0` is bad: the blosc header says 2147483392 bytes, a chunk of 8 '
                'int32 has 32; and allocate nothing of that size.')
    a = zarr.open(p, mode='w', shape=(8,), chunks=(8,), dtype='<i4',
                  compressor=Blosc('lz4', 5, shuffle=1))
    a[:] = np.arange(8)
    with open(os.path.join(p, '0'), 'rb') as f:
        raw = bytearray(f.read())
    assert struct.unpack('<I', raw[4:8])[0] == 32
    raw[4:8] = struct.pack('<I', 0x7FFFFF00)
    with open(os.path.join(p, '0'), 'wb') as f:
        f.write(raw)

    p = damaged('chunks_zero.zarr', 'v2 .zarray with "chunks": [0, 5] for shape [4, 5].',
                'that the chunk shape is invalid (a chunk length of 0 in dimension 0).')
    a = zarr.open(p, mode='w', shape=(4, 5), chunks=(2, 5), dtype='<i4', compressor=None)
    a[:] = 1
    meta = json.load(open(os.path.join(p, '.zarray')))
    meta['chunks'] = [0, 5]
    write_json(os.path.join(p, '.zarray'), meta)

    p = damaged('zarray_not_json.zarr', 'v2 .zarray that is not JSON (cut in the middle).',
                'that .zarray is not valid JSON, naming the file.')
    a = zarr.open(p, mode='w', shape=(4,), chunks=(2,), dtype='<i4', compressor=None)
    a[:] = 1
    text = open(os.path.join(p, '.zarray')).read()
    with open(os.path.join(p, '.zarray'), 'w') as f:
        f.write(text[:len(text) // 2])

    p = damaged('compressor_bz2.zarr',
                'v2 array written by zarr with numcodecs BZ2: compressor id "bz2" '
                '(numcodecs knows it, our reader does not).',
                'unsupported compressor "bz2", before reading any chunk.')
    a = zarr.open(p, mode='w', shape=(6,), chunks=(3,), dtype='<i4',
                  compressor=numcodecs.BZ2(level=1))
    a[:] = np.arange(6)

    p = damaged('filter_fixedscaleoffset.zarr',
                'v2 array written by zarr with filter numcodecs FixedScaleOffset '
                '(id "fixedscaleoffset"), compressor Zlib.',
                'unsupported filter "fixedscaleoffset", before reading any chunk.')
    a = zarr.open(p, mode='w', shape=(6,), chunks=(3,), dtype='<f8', compressor=Zlib(1),
                  filters=[numcodecs.FixedScaleOffset(offset=10, scale=100, dtype='<f8',
                                                      astype='<i2')])
    a[:] = np.arange(6) / 10.0


def v3_damaged():
    def sharded(name):
        root = os.path.join(DAMAGED, name)
        meta = {'zarr_format': 3, 'node_type': 'array', 'shape': [8], 'data_type': 'int32',
                'chunk_grid': {'name': 'regular', 'configuration': {'chunk_shape': [8]}},
                'chunk_key_encoding': {'name': 'default'}, 'fill_value': 0,
                'codecs': [shard([4], [b()], 'end')]}
        write_json(os.path.join(root, 'zarr.json'), meta)
        body = np.arange(8, dtype='<i4').tobytes()        # inner chunks at 0 and 16
        index = np.array([[0, 16], [16, 16]], dtype='<u8')
        return root, body, index

    root, body, index = sharded('v3_shard_index_past_end.zarr')
    damaged('v3_shard_index_past_end.zarr',
            'v3 int32 [8], one shard [8] of inner chunks [4] (bytes), index at the end with '
            'a valid crc32c; the entry of inner chunk 1 says offset 16, nbytes 4096, past '
            "the shard's 68 bytes.",
            'that shard `c/0` is bad: inner chunk 1 lies past its end (offset 16 + 4096 '
            'bytes > 68).')
    index[1] = (16, 4096)
    idx = index.tobytes()
    os.makedirs(os.path.join(root, 'c'), exist_ok=True)
    with open(os.path.join(root, 'c', '0'), 'wb') as f:
        f.write(body + idx + struct.pack('<I', crc32c(idx)))

    root, body, index = sharded('v3_shard_bad_crc.zarr')
    damaged('v3_shard_bad_crc.zarr',
            'v3 int32 [8], one shard [8] of inner chunks [4] (bytes), index [bytes little, '
            'crc32c] at the end; the stored checksum has its lowest bit flipped.',
            'that the shard index of `c/0` fails its crc32c check (stored and computed '
            'checksums differ); no values.')
    idx = index.tobytes()
    os.makedirs(os.path.join(root, 'c'), exist_ok=True)
    with open(os.path.join(root, 'c', '0'), 'wb') as f:
        f.write(body + idx + struct.pack('<I', crc32c(idx) ^ 1))

    root = damaged('v3_unknown_codec.zarr',
                   'v3 int32 [6] in chunks [3] with codecs [bytes little, {"name": "bz2"}]; the '
                   'chunks are real bz2 streams.',
                   'unsupported codec "bz2", before reading any chunk.')
    meta = {'zarr_format': 3, 'node_type': 'array', 'shape': [6], 'data_type': 'int32',
            'chunk_grid': {'name': 'regular', 'configuration': {'chunk_shape': [3]}},
            'chunk_key_encoding': {'name': 'default'}, 'fill_value': 0,
            'codecs': [b(), {'name': 'bz2', 'configuration': {'level': 1}}]}
    write_json(os.path.join(root, 'zarr.json'), meta)
    os.makedirs(os.path.join(root, 'c'), exist_ok=True)
    for i in range(2):
        with open(os.path.join(root, 'c', str(i)), 'wb') as f:
            f.write(bz2.compress(np.arange(3 * i, 3 * i + 3, dtype='<i4').tobytes(), 1))


def write_damaged_readme():
    text = ['# Damaged Zarr stores', '',
            'Written by make_zarr_fixtures.py. Each store is wrong in one way; a reader must '
            'refuse it with a message that says what is wrong (and never return values, '
            'hang, or allocate what a header claims).', ''] + DAMAGED_README + ['']
    with open(os.path.join(DAMAGED, 'README.md'), 'w') as f:
        f.write('\n'.join(text))


# ---------------------------------------------------------------------------------------------
# checks of the v2 stores through the reference libraries

def check_v2():
    import oracle
    n = 0
    for store in sorted(os.listdir(V2)):
        path = os.path.join(V2, store)
        listing = oracle.list_store(path)
        for entry in listing['arrays']:
            out = oracle.read_zarr(path, entry['path'], None)
            if store == 'zstd_nosize.zarr':
                assert out['source'] == 'npy'
            else:
                z = zarr.open(path, mode='r')
                arr = z if entry['path'] == '' else z[entry['path']]
                assert list(arr.shape) == out['shape']
                if arr.fill_value is not None and arr.dtype.kind != 'c':
                    direct = arr[...]
                    got = np.array(oracle.from_json_values(out['values'], arr.dtype))
                    assert same_bits(direct.reshape(-1).astype(arr.dtype.newbyteorder('=')),
                                     got.astype(arr.dtype.newbyteorder('='))), (store, entry)
            n += 1
    for store in ('era5.zarr', 'era5_zstd.zarr'):
        ds = xr.open_zarr(os.path.join(V2, store), consolidated=True)
        assert ds.t2m.dims == ('time', 'latitude', 'longitude')
        assert ds.time.encoding['units'] == ERA5_UNITS
        assert int(ds.t2m.isnull().sum()) == 5 and int(ds.tp.isnull().sum()) == 1
        assert str(ds.time.values[0])[:19] == '2021-07-01T00:00:00'
        out = oracle.read_xarray(os.path.join(V2, store), 't2m', None)
        assert len(out['values']) == 48 * 21 * 40
    a = xr.open_zarr(os.path.join(V2, 'era5.zarr'))
    c = xr.open_zarr(os.path.join(V2, 'era5_zstd.zarr'))
    assert a.equals(c)
    print('v2: %d arrays read back through zarr; era5 stores through xarray' % n)


def main():
    os.chdir(HERE)
    for d in (V2, V3, DAMAGED, EXPECTED):
        reset(d)
        os.makedirs(d)
    v2_dtypes()
    v2_complex()
    v2_order()
    v2_separators()
    v2_compressors()
    v2_filters()
    v2_edges()
    v2_missing()
    v2_groups('groups.zarr', consolidated=False)
    v2_groups('groups_consolidated.zarr', consolidated=True)
    v2_scalar_empty()
    v2_zstd_nosize()
    v2_era5('era5.zarr', Blosc(cname='lz4', clevel=5, shuffle=1))
    v2_era5('era5_zstd.zarr', Zstd(level=3))
    zero_gzip_mtime(V2)
    v3_spec_examples()
    v3_dtypes()
    v3_chunk_keys()
    v3_edges()
    v3_fills()
    v3_codecs()
    v3_sharding()
    v3_groups()
    v3_era5()
    v2_damaged()
    v3_damaged()
    write_damaged_readme()
    sys.dont_write_bytecode = True
    sys.path.insert(0, HERE)
    check_v2()
    r = subprocess.run([sys.executable, os.path.join(HERE, 'check_v3.py')])
    if r.returncode:
        sys.exit('check_v3.py failed')
    write_listing()


def write_listing():
    """files.txt: every fixture file, for tests that copy the stores out of a jar."""
    out = []
    for d, _, names in os.walk(HERE):
        for n in names:
            rel = os.path.relpath(os.path.join(d, n), HERE)
            if rel != 'files.txt' and not rel.startswith('codecs' + os.sep) \
                    and '__pycache__' not in rel:
                out.append(rel.replace(os.sep, '/'))
    with open(os.path.join(HERE, 'files.txt'), 'w') as f:
        f.write('\n'.join(sorted(out)) + '\n')


if __name__ == '__main__':
    main()
