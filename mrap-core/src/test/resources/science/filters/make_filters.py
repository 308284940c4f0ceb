#!/usr/bin/python3
"""Writes the filter fixtures of org.opass.mrap's tests with HDF5's own filter plugins: datasets
compressed by bitshuffle (32008: with LZ4, and without compression; the default block and a
block of 256 elements), LZ4 (32004) and LZF (32000), for elements of 1, 2, 4 and 8 bytes, with
chunks smaller than bitshuffle's default block of 8 KiB (one short block, the common case for
small chunks) and larger than it (full blocks, then a last short block and elements left over
that bitshuffle stores as they are), and partial edge chunks.

expected.json holds, for each case, what HDF5 (h5py) reads back, in the form of ../expected.json
(shape, sum, SHA-256 of the values as little-endian int64 or float64, C order).

Run with Debian's interpreter from this folder, with the plugins of Debian's packages bitshuffle
(libh5bshuf: 32008), hdf5-filter-plugin (libh5lz4: 32004) and hdf5-plugin-lzf (32000):
  HDF5_PLUGIN_PATH=/usr/lib/x86_64-linux-gnu/hdf5/serial/plugins /usr/bin/python3 make_filters.py
(python3-h5py 3.7 on HDF5 1.10.8, bitshuffle 0.3.5, numpy 1.24). Deterministic: data come from
fixed formulas and a seeded generator.
"""
import hashlib
import json
import os

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FILE = 'filters.h5'
BITSHUFFLE, LZ4, LZF = 32008, 32004, 32000

# element types of 1, 2, 4 and 8 bytes, in both byte orders
TYPES = ['i1', '>i2', '<i4', '>f4', '<f8']
# (name, shape, chunks): a chunk of 192 elements is under bitshuffle's default block for every
# element size (8 KiB, at least 128 elements); one of 130 x 67 = 8,710 elements over it for
# every element size (8,192 elements for one byte), not a multiple of 8, and edge chunks
SHAPES = [('small', (30, 40), (12, 16)), ('large', (140, 70), (130, 67))]
# (name, h5py's compression and options)
FILTERS = [('bitshuffle_lz4', dict(compression=BITSHUFFLE, compression_opts=(0, 2))),
           ('bitshuffle_raw', dict(compression=BITSHUFFLE, compression_opts=(0, 0))),
           ('bitshuffle_lz4_block256', dict(compression=BITSHUFFLE, compression_opts=(256, 2))),
           ('lz4', dict(compression=LZ4)),
           ('lzf', dict(compression='lzf'))]


def canonical(a):
    a = np.asarray(a)
    kind = '<f8' if a.dtype.kind == 'f' else '<i8'
    return np.ascontiguousarray(a.astype(kind))


def values(shape, dtype, seed):
    """Smooth rows with noise in the low bits: compressible, never constant."""
    rng = np.random.default_rng(seed)
    i, j = np.indices(shape)
    t = np.dtype(dtype)
    if t.kind == 'f':
        return (np.round(np.sin(i / 7.0) * 100 + j * 0.25, 1) + rng.integers(0, 2, shape) * 0.5).astype(dtype)
    top = min(np.iinfo(t).max, 1 << 20)
    low = max(np.iinfo(t).min, -(1 << 20))
    v = (i * 37 + j * 3) % (top - max(low, 0)) + max(low, 0) + rng.integers(0, 4, shape)
    return np.clip(v, low, top).astype(dtype)


cases = []
with h5py.File(os.path.join(HERE, FILE), 'w') as f:
    seed = 0
    for shape_name, shape, chunks in SHAPES:
        for dtype in TYPES:
            for filter_name, options in FILTERS:
                name = '/%s_%s_%s' % (filter_name, shape_name,
                                      dtype.replace('<', 'le_').replace('>', 'be_'))
                seed += 1
                f.create_dataset(name, data=values(shape, dtype, seed), chunks=chunks, **options)

with h5py.File(os.path.join(HERE, FILE), 'r') as f:
    for name in sorted(f):
        d = f[name]
        slabs = [None]
        if d.shape[0] > 100:
            slabs.append('125:140, 60:70')  # across chunk edges: parts of four chunks
        for slab in slabs:
            if slab is None:
                a = d[...]
            else:
                a = d[125:140, 60:70]
            c = canonical(a)
            cases.append({'file': 'filters/' + FILE, 'variable': '/' + name, 'slab': slab,
                          'shape': list(c.shape), 'sum': float(c.astype('<f8').sum()),
                          'sha256': hashlib.sha256(c.tobytes()).hexdigest(), 'fill': 0,
                          'note': str(d._filters)})

with open(os.path.join(HERE, 'expected.json'), 'w') as out:
    out.write('{"cases": [\n' + ',\n'.join(json.dumps(c) for c in cases) + '],\n')
    out.write('"libraries": ' + json.dumps({'h5py': h5py.__version__,
                                           'hdf5': h5py.version.hdf5_version,
                                           'numpy': np.__version__}) + '}\n')
print(len(cases), 'cases')
