#!/usr/bin/python3
"""Writes the layout fixtures of org.opass.mrap.science's tests with the reference libraries:
every chunk index HDF5 writes (single chunk, implicit, fixed array plain and paged, extensible
array up to its super blocks, version 2 B-tree, version 1 B-tree), each with chunks never
written among written ones, with and without a user block; NetCDF-4 record variables shorter
than their unlimited dimension; files holding a virtual or external dataset beside ordinary
ones; variables never written; and random chunk subsets of random shapes under each index kind.

expected.json holds, for each case, what HDF5 (h5py) or netCDF-C (netCDF4-python) read back, in
the form of ../expected.json (shape, sum, SHA-256 of the values as little-endian int64 or
float64, C order), plus the elements that are the fill value because their chunk was never
written or they lie past the dataset's extent (`fill`). For each HDF5 dataset it also holds the
chunk index HDF5 itself reports (H5Dget_chunk_info: each stored chunk's offset, address, size
and filter mask) and the index kind the writer chose by HDF5's rules.

Run with Debian's interpreter from this folder: /usr/bin/python3 make_layouts.py
(python3-h5py 3.7 on HDF5 1.10.8, python3-netcdf4 1.6.2 on netCDF-C 4.9.0, numpy 1.24).
Deterministic: data come from fixed formulas and a seeded generator.
"""
import hashlib
import json
import os

import h5py
import netCDF4
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
cases = []
chunks = {}


def canonical(a):
    a = np.asarray(a)
    kind = '<f8' if a.dtype.kind == 'f' else '<i8'
    return np.ascontiguousarray(a.astype(kind))


def case(file, variable, slab, values, fill, note=''):
    c = canonical(values)
    cases.append({
        'file': 'layouts/' + file, 'variable': variable, 'slab': slab, 'shape': list(c.shape),
        'sum': float(c.astype('<f8').sum()), 'sha256': hashlib.sha256(c.tobytes()).hexdigest(),
        'fill': int(fill), 'note': note})


def to_slices(slab, shape):
    """Our slab text (start:stop[:stride] or an index per dimension) as NumPy slices."""
    if slab is None:
        return tuple(slice(None) for _ in shape)
    out = []
    for item in slab.split(','):
        item = item.strip()
        if ':' in item:
            parts = [int(p) if p else None for p in item.split(':')]
            out.append(slice(*parts))
        else:
            out.append(slice(int(item), int(item) + 1))
    return tuple(out)


def chunk_infos(d):
    """HDF5's own list of d's stored chunks, or None where HDF5 1.10.8 lists them wrong: its
    H5Dget_chunk_info misplaces the chunks of an extensible array whose unlimited dimension is
    not the first (offsets past the shape), though H5Dread reads them right."""
    infos = [d.id.get_chunk_info(i) for i in range(d.id.get_num_chunks())]
    for info in infos:
        if any(o >= s or o % c for o, s, c in zip(info.chunk_offset, d.shape, d.chunks)):
            return None
    return infos


def stored_mask(d):
    """True for each element of HDF5 dataset d whose chunk is stored."""
    mask = np.zeros(d.shape, dtype=bool)
    if d.chunks is None:
        mask[...] = d.id.get_storage_size() > 0  # (get_offset adds a user block to 'none')
        return mask
    infos = chunk_infos(d)
    if infos is None:  # the data are never the fill value in the datasets where this happens
        return d[...] != d.fillvalue
    for info in infos:
        box = tuple(slice(o, o + c) for o, c in zip(info.chunk_offset, d.chunks))
        mask[box] = True
    return mask


def record_chunks(file, d, kind):
    infos = [] if d.chunks is None else chunk_infos(d)
    chunks['layouts/' + file + ':' + d.name] = {
        'index': kind, 'chunks': None if infos is None else [
            [list(i.chunk_offset), i.byte_offset, i.size, i.filter_mask] for i in infos]}


def hdf5_cases(file, name, kind, slabs):
    with h5py.File(os.path.join(HERE, file), 'r') as f:
        d = f[name]
        record_chunks(file, d, kind)
        stored = stored_mask(d)
        for slab in slabs:
            sl = to_slices(slab, d.shape)
            case(file, name, slab, d[sl], (~stored[sl]).sum())


def grid(shape, scale=1.0, offset=0.0):
    idx = np.indices(shape)
    v = np.full(shape, offset, dtype='f8')
    for k, i in enumerate(idx):
        v = v + i * scale * (10 ** (len(shape) - 1 - k))
    return v


def write_rows(d, rows):
    for a, b in rows:
        d[a:b] = grid(d.shape, 1.0, 3.0)[a:b].astype(d.dtype)


def early(f, name, shape, chunk, dtype, fill):
    """A dataset with chunks allocated when created (HDF5's implicit index, without filters)."""
    space = h5py.h5s.create_simple(shape, shape)
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_chunk(chunk)
    dcpl.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
    dcpl.set_fill_value(np.array(fill, dtype=dtype))
    h5py.h5d.create(f.id, name.encode(), h5py.h5t.py_create(np.dtype(dtype)), space, dcpl=dcpl)
    return f[name]


GAPS = [(0, 3), (20, 40)]  # rows 0-2 and 20-39 of 40: the chunks between never written
EA_ROWS = [(0, 3), (5, 6), (20, 40), (100, 131), (300, 400), (421, 600)]


def indexes(file, userblock=0):
    """Every HDF5 1.10 chunk index, with chunks never written among written ones."""
    kw = {'userblock_size': userblock} if userblock else {}
    with h5py.File(os.path.join(HERE, file), 'w', libver='latest', **kw) as f:
        d = f.create_dataset('single', shape=(6, 8), chunks=(6, 8), dtype='<i4', fillvalue=-1)
        d[...] = grid((6, 8)).astype('<i4')
        d = f.create_dataset('single_gzip', shape=(6, 8), chunks=(6, 8), dtype='<f4',
                             compression='gzip', fillvalue=-1)
        d[...] = grid((6, 8), 0.5).astype('<f4')
        f.create_dataset('single_unwritten', shape=(6, 8), chunks=(6, 8), dtype='<i2',
                         fillvalue=9)
        d = early(f, 'implicit', (12, 10), (4, 5), '<i4', -3)
        d[0:4, 0:5] = grid((4, 5)).astype('<i4')
        d[8:12, 5:10] = grid((4, 5), 2.0).astype('<i4')
        for name, extra in [('fixed', {}), ('fixed_gzip', {'compression': 'gzip'}),
                            ('fixed_shuffle_gzip', {'compression': 'gzip', 'shuffle': True})]:
            d = f.create_dataset(name, shape=(40, 4), chunks=(1, 4), dtype='<i4', fillvalue=-1,
                                 **extra)
            write_rows(d, GAPS)
        # 2,400 chunks: a paged fixed array (pages of 1,024), its middle page never written
        for name, extra in [('fixed_paged', {}), ('fixed_paged_gzip', {'compression': 'gzip'})]:
            d = f.create_dataset(name, shape=(60, 40), chunks=(1, 1), dtype='<i2', fillvalue=-7,
                                 **extra)
            v = (grid((60, 40)) % 30000).astype('<i2')
            d[0:10] = v[0:10]
            d[20:25, 3:7] = v[20:25, 3:7]
            d[52:60] = v[52:60]
        # a maximum shape larger than the shape: chunks are counted over the maximum
        d = f.create_dataset('fixed_maxshape', shape=(6, 8), maxshape=(10, 12), chunks=(4, 4),
                             dtype='<i4', fillvalue=-1)
        d[...] = grid((6, 8)).astype('<i4')
        d[0:4, 4:8] = -1  # written with the fill value: stored all the same
        # one unlimited dimension: an extensible array, its index block, data blocks and super
        # blocks (the first super block's elements start at chunk 244)
        for name, extra in [('earray', {}), ('earray_gzip', {'compression': 'gzip'})]:
            d = f.create_dataset(name, shape=(600, 3), maxshape=(None, 3), chunks=(1, 3),
                                 dtype='<i4', fillvalue=-1, **extra)
            write_rows(d, EA_ROWS)
        d = f.create_dataset('earray_first_gap', shape=(40, 4), maxshape=(None, 4),
                             chunks=(1, 4), dtype='<i4', fillvalue=-1)
        write_rows(d, GAPS)
        d = f.create_dataset('earray_first_gap_gzip', shape=(40, 4), maxshape=(None, 4),
                             chunks=(1, 4), dtype='<i4', fillvalue=-1, compression='gzip')
        write_rows(d, GAPS)
        # 150,000 chunks of one element: data blocks from chunk 131,060 on (super block 13) hold
        # 2,048 elements in pages of 1,024, each page written or not
        d = f.create_dataset('earray_paged', shape=(150000,), maxshape=(None,), chunks=(1,),
                             dtype='u1', fillvalue=7)
        v = (np.arange(150000) % 251).astype('u1')
        for a, b in [(0, 10), (131000, 131100), (140000, 141500), (149990, 150000)]:
            d[a:b] = v[a:b]
        # the unlimited dimension last: HDF5 indexes chunks with it moved first
        d = f.create_dataset('earray_unlimited_last', shape=(4, 300), maxshape=(6, None),
                             chunks=(2, 1), dtype='<f8', fillvalue=-0.5)
        v = grid((4, 300), 0.25)
        d[:, 0:7] = v[:, 0:7]
        d[0:2, 40:260] = v[0:2, 40:260]
        d[2:4, 280:300] = v[2:4, 280:300]
        # appended as a logger appends: grown, some steps never written
        d = f.create_dataset('earray_appended', shape=(0, 5), maxshape=(None, 5), chunks=(4, 5),
                             dtype='<i8', fillvalue=-1, compression='gzip')
        for start, stop in [(0, 10), (30, 31), (200, 260)]:
            d.resize((stop, 5))
            d[start:stop] = grid((stop - start, 5), 1.0, 1e12 + start).astype('<i8')
        d.resize((270, 5))
        # two unlimited dimensions: a version 2 B-tree, deep enough for internal nodes
        for name, extra in [('btree2', {}), ('btree2_gzip', {'compression': 'gzip'})]:
            d = f.create_dataset(name, shape=(30, 40), maxshape=(None, None), chunks=(1, 1),
                                 dtype='<i2', fillvalue=-2, **extra)
            v = (grid((30, 40)) % 30000).astype('<i2')
            d[0:3] = v[0:3]
            d[10:30, 0:40:3] = v[10:30, 0:40:3]
        d = f.create_dataset('unwritten_chunked', shape=(10, 4), maxshape=(None, 4),
                             chunks=(2, 4), dtype='<f4', fillvalue=5.5)
        f.create_dataset('unwritten_contiguous', shape=(7, 3), dtype='<i4', fillvalue=7)
        f.create_dataset('unwritten_nofill', shape=(3, 3), dtype='<u2')
    slabs = {
        'single': [None, '1:5, 2:7:2'], 'single_gzip': [None], 'single_unwritten': [None, '2, :'],
        'implicit': [None, '2:11:3, 1:9'], 'fixed': [None, '1:25:2, 1:3'],
        'fixed_gzip': [None], 'fixed_shuffle_gzip': ['18:22, :'],
        'fixed_paged': [None, '5:55:7, 2:39:3'], 'fixed_paged_gzip': [None],
        'fixed_maxshape': [None, '3:6, 2:8'], 'earray': [None, '2:599:5, 1'],
        'earray_gzip': [None], 'earray_first_gap': [None, '3:21, 0:4:3'],
        'earray_first_gap_gzip': [None], 'earray_unlimited_last': [None, '1:4, 2:299:4'],
        'earray_paged': [None, '130990:150000:37'],
        'earray_appended': [None, '8:202:3, 1:5'], 'btree2': [None, '1:29:2, 5:40:7'],
        'btree2_gzip': [None], 'unwritten_chunked': [None, '1:9, 2'],
        'unwritten_contiguous': [None], 'unwritten_nofill': [None]}
    kinds = {'single': 'single', 'single_gzip': 'single', 'single_unwritten': 'single',
             'implicit': 'implicit', 'fixed': 'fixed', 'fixed_gzip': 'fixed',
             'fixed_shuffle_gzip': 'fixed', 'fixed_paged': 'fixed', 'fixed_paged_gzip': 'fixed',
             'fixed_maxshape': 'fixed', 'earray': 'extensible', 'earray_gzip': 'extensible',
             'earray_first_gap': 'extensible', 'earray_first_gap_gzip': 'extensible',
             'earray_unlimited_last': 'extensible', 'earray_appended': 'extensible',
             'earray_paged': 'extensible',
             'btree2': 'btree2', 'btree2_gzip': 'btree2', 'unwritten_chunked': 'extensible',
             'unwritten_contiguous': 'contiguous', 'unwritten_nofill': 'contiguous'}
    for name, s in slabs.items():
        hdf5_cases(file, '/' + name, kinds[name], s)


indexes('indexes.h5')
indexes('userblock.h5', userblock=1024)

# HDF5's first chunk index, the version 1 B-tree (files of HDF5 1.8 and earlier formats),
# with more chunks than one node holds
with h5py.File(os.path.join(HERE, 'btree1.h5'), 'w', libver='earliest') as f:
    for name, extra in [('btree1', {}), ('btree1_gzip', {'compression': 'gzip', 'shuffle': True})]:
        d = f.create_dataset(name, shape=(50, 30), chunks=(1, 2), dtype='<f4', fillvalue=-9,
                             maxshape=(None, 30), **extra)
        v = grid((50, 30), 0.5).astype('<f4')
        d[0:12] = v[0:12]
        d[20:50, 6:30] = v[20:50, 6:30]
    f.create_dataset('btree1_unwritten', shape=(5, 5), chunks=(2, 2), dtype='<i4', fillvalue=4)
for name, s in [('btree1', [None, '3:47:4, 1:29:3']), ('btree1_gzip', [None]),
                ('btree1_unwritten', [None])]:
    hdf5_cases('btree1.h5', '/' + name, 'btree1', s)

# One unsupported object beside ordinary ones: a virtual dataset, one in external storage, an
# external link; in a compact new-style group, in a dense one (links in a fractal heap), and in
# an old-style group (a symbol table)
for file, libver in [('mixed.h5', 'latest'), ('mixed_old.h5', 'earliest')]:
    with h5py.File(os.path.join(HERE, file), 'w', libver=libver) as f:
        c = f.create_group('a/b/c')
        c.create_dataset('contig', data=grid((5, 6)).astype('<i4'))
        c['hard'] = c['contig']
        c.create_dataset('chunked', data=grid((9, 4), 0.5), chunks=(2, 4), compression='gzip')
        c.create_dataset('scalar', data=np.float32(2.5))
        layout = h5py.VirtualLayout(shape=(5, 6), dtype='<i4')
        layout[:] = h5py.VirtualSource(file, '/a/b/c/contig', shape=(5, 6))
        c.create_virtual_dataset('virtual', layout, fillvalue=0)
        c.create_dataset('external', shape=(4,), dtype='<i4',
                         external=[('mixed_external.bin', 0, h5py.h5f.UNLIMITED)])
        c['elink'] = h5py.ExternalLink('indexes.h5', '/fixed')
        c['soft'] = h5py.SoftLink('/a/b/c/chunked')
        many = f.create_group('many')
        for k in range(20):
            many.create_dataset('d%02d' % k, data=np.arange(k + 1, dtype='<i2'))
        many.create_dataset('external', shape=(4,), dtype='<i4',
                            external=[('mixed_external.bin', 0, h5py.h5f.UNLIMITED)])
        many.create_virtual_dataset('virtual', layout, fillvalue=0)
    for name, slab in [('/a/b/c/contig', None), ('/a/b/c/hard', '1:4, 2:6'),
                       ('/a/b/c/chunked', '3:8, 1:3'), ('/a/b/c/scalar', None),
                       ('/a/b/c/soft', None), ('/many/d07', None), ('/many/d19', '3:17:4')]:
        with h5py.File(os.path.join(HERE, file), 'r') as f:
            d = f[name]
            vals = d[()] if d.shape == () else d[to_slices(slab, d.shape)]
            if d.shape == ():
                vals = np.array([vals])
            case(file, name, slab, vals, 0)
if os.path.exists(os.path.join(HERE, 'mixed_external.bin')):
    os.remove(os.path.join(HERE, 'mixed_external.bin'))

# NetCDF-4: record variables share the unlimited dimension, which is as long as the longest;
# one written in a first session, the others appended to later, as models and loggers do
nc = os.path.join(HERE, 'appended.nc')
with netCDF4.Dataset(nc, 'w', format='NETCDF4') as ds:
    ds.createDimension('time', None)
    ds.createDimension('x', 7)
    a = ds.createVariable('a', 'f4', ('time', 'x'), chunksizes=(2, 7))
    b = ds.createVariable('b', 'i4', ('time', 'x'), zlib=True, chunksizes=(3, 4))
    c = ds.createVariable('c', 'i2', ('time', 'x'), fill_value=-99)
    for k, (a, v) in enumerate([('units', 'K'), ('long_name', 'a record variable'),
                                ('standard_name', 'air_temperature'), ('valid_min', -50),
                                ('valid_max', 500), ('comment', 'x' * 300), ('source', 'test'),
                                ('history', 'made by make_layouts.py'), ('cell_methods', 'time: mean'),
                                ('institution', 'opass'), ('references', 'none')]):
        c.setncattr(a, v)  # more attributes than an object header holds compactly (8)
    t = ds.createVariable('time', 'f8', ('time',))
    b[0:5] = grid((5, 7), 1.0, 100).astype('i4')
    c[0:3] = grid((3, 7), 1.0).astype('i2')
    t[0:5] = np.arange(5) * 0.5
    g = ds.createGroup('g')
    h = g.createVariable('h', 'f8', ('time', 'x'))
    h[0:2] = grid((2, 7), 0.25)
    ds.createVariable('never', 'f4', ('x',))
with netCDF4.Dataset(nc, 'a') as ds:  # a later session appends to a only
    ds['a'][0:11] = grid((11, 7), 0.5, 20).astype('f4')
nofill = os.path.join(HERE, 'appended_nofill.nc')
with netCDF4.Dataset(nofill, 'w', format='NETCDF4_CLASSIC') as ds:
    ds.set_fill_off()
    ds.createDimension('time', None)
    ds.createDimension('x', 3)
    ds.createVariable('long', 'i4', ('time', 'x'))[0:6] = np.arange(18).reshape(6, 3)
    ds.createVariable('short', 'f8', ('time', 'x'))[0:2] = np.arange(6).reshape(2, 3) * 1.5
for file, var, slabs in [('appended.nc', 'a', [None]), ('appended.nc', 'b', [None, '3:9, 2']),
                         ('appended.nc', 'c', [None, '2:11:4, 1:7:2']),
                         ('appended.nc', 'time', [None]), ('appended.nc', 'g/h', [None, '1:6, 3']),
                         ('appended.nc', 'never', [None]),
                         ('appended_nofill.nc', 'short', [None, '1:5, 0:3:2']),
                         ('appended_nofill.nc', 'long', [None])]:
    with netCDF4.Dataset(os.path.join(HERE, file)) as ds:
        ds.set_auto_maskandscale(False)
        v = ds[var]
        with h5py.File(os.path.join(HERE, file), 'r') as h:
            hv = h[var]
            stored = np.zeros(v.shape, dtype=bool)  # stored and within the HDF5 extent
            inside = tuple(slice(0, n) for n in hv.shape)
            stored[inside] = stored_mask(hv)
            record_chunks(file, hv, 'netcdf4')
        # netCDF-C reads a strided slab that crosses a variable's stored extent wrong (its stored
        # values come back as fill: Unidata/netcdf-c#1380), so slabs are cut from its reading of
        # the whole variable
        whole = v[:]
        for slab in slabs:
            sl = to_slices(slab, v.shape)
            case(file, var, slab, whole[sl], (~stored[sl]).sum(), 'netCDF-C shape ' + str(v.shape))

# Random chunk subsets of random shapes under each index kind: the property test's data
rng = np.random.default_rng(36)
KINDS = [('fixed', 'latest', False), ('fixed_gzip', 'latest', False),
         ('extensible', 'latest', False), ('extensible_gzip', 'latest', False),
         ('btree2', 'latest', False), ('btree2_gzip', 'latest', False),
         ('implicit', 'latest', True), ('btree1', 'earliest', False),
         ('btree1_gzip', 'earliest', False)]
for libver in ['latest', 'earliest']:
    file = 'random_%s.h5' % ('v110' if libver == 'latest' else 'v18')
    made = []
    with h5py.File(os.path.join(HERE, file), 'w', libver=libver) as f:
        for kind, lv, is_early in KINDS:
            if lv != libver:
                continue
            for k in range(6):
                rank = int(rng.integers(1, 4))
                shape = tuple(int(rng.integers(3, 40 if rank == 1 else 14)) for _ in range(rank))
                chunk = tuple(int(rng.integers(1, s + 1)) for s in shape)
                if all(c == s for c, s in zip(chunk, shape)):  # not one chunk
                    chunk = (max(1, chunk[0] // 2),) + chunk[1:]
                dtype = ['<i2', '<i4', '>i4', '<u1', '<f4', '>f8', '<i8'][int(rng.integers(0, 7))]
                fill = int(rng.integers(-50, 50)) if dtype[1] != 'u' else int(rng.integers(0, 50))
                name = '%s_%d' % (kind, k)
                gz = {'compression': 'gzip'} if kind.endswith('gzip') else {}
                if kind.startswith('extensible'):
                    maxshape = (None,) + shape[1:]
                elif kind.startswith('btree2'):
                    maxshape = tuple(None for _ in shape) if rank > 1 else (None,)
                elif kind.startswith('btree1'):
                    maxshape = (None,) + shape[1:]
                else:
                    maxshape = shape
                if kind.startswith('btree2') and rank == 1:
                    shape, chunk, maxshape = shape + (3,), chunk + (2,), (None, None)
                if is_early:
                    d = early(f, name, shape, chunk, dtype, fill)
                else:
                    d = f.create_dataset(name, shape=shape, maxshape=maxshape, chunks=chunk,
                                         dtype=dtype, fillvalue=fill, **gz)
                values = (rng.random(shape) * 200 - 100)
                if np.dtype(dtype).kind in 'iu':
                    values = np.abs(values) if np.dtype(dtype).kind == 'u' else values
                values = values.astype(dtype)
                grid_n = [-(-s // c) for s, c in zip(shape, chunk)]
                for idx in np.ndindex(*grid_n):
                    if rng.random() < 0.45:
                        box = tuple(slice(i * c, min((i + 1) * c, s))
                                    for i, c, s in zip(idx, chunk, shape))
                        d[box] = values[box]
                made.append((name, kind.split('_')[0], shape))
    for name, kind, shape in made:
        slabs = [None]
        for _ in range(3):
            items = []
            for s in shape:
                a = int(rng.integers(0, s))
                b = int(rng.integers(a + 1, s + 1))
                st = int(rng.integers(1, 4))
                items.append('%d:%d:%d' % (a, b, st))
            slabs.append(', '.join(items))
        hdf5_cases(file, '/' + name, kind, slabs)

# The example job's per-step figures (slab-stats: count, mean, min, max per index of the first
# dimension) over variables with chunks never written, as the reference libraries read them
stats = []
for file, variable, kind in [('appended.nc', 'b', 'netcdf'), ('indexes.h5', '/earray_first_gap', 'hdf5'),
                             ('indexes.h5', '/unwritten_chunked', 'hdf5'),
                             ('userblock.h5', '/unwritten_chunked', 'hdf5')]:
    if kind == 'netcdf':
        with netCDF4.Dataset(os.path.join(HERE, file)) as ds:
            ds.set_auto_maskandscale(False)
            a = ds[variable][:].astype('f8')
    else:
        with h5py.File(os.path.join(HERE, file), 'r') as f:
            a = f[variable][...].astype('f8')
    for i in range(a.shape[0]):
        stats.append({'file': file, 'variable': variable, 'kind': kind, 'index': i,
                      'count': int(a[i].size), 'mean': float(a[i].mean()),
                      'min': float(a[i].min()), 'max': float(a[i].max())})

with open(os.path.join(HERE, 'expected.json'), 'w') as out:
    # a case a line, a dataset's chunk index a line: [[offset...], address, size, filter mask]
    out.write('{"cases": [\n' + ',\n'.join(json.dumps(c) for c in cases) + '],\n')
    out.write('"chunks": {\n' + ',\n'.join(json.dumps(k) + ': ' + json.dumps(v)
                                              for k, v in chunks.items()) + '},\n')
    out.write('"stats": [\n' + ',\n'.join(json.dumps(x) for x in stats) + '],\n')
    out.write('"libraries": ' + json.dumps({'netCDF4': netCDF4.__version__,
                                           'netcdf-c': netCDF4.__netcdf4libversion__,
                                           'h5py': h5py.__version__, 'hdf5': h5py.version.hdf5_version,
                                           'numpy': np.__version__}) + '}\n')
print(len(cases), 'cases over', len(chunks), 'datasets')
