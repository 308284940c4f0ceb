#!/usr/bin/env python3
"""Writes the NetCDF and HDF5 fixtures of org.opass.mrap.science's tests with the reference
libraries (netCDF-C through netCDF4-python, HDF5 through h5py, NetCDF-3 also through scipy),
and expected.json: for each case, what those libraries read back (shape, sum, SHA-256 of the
values as little-endian int64 for integer types or float64 for floating ones, C order).

Run from this folder: python3 make_fixtures.py   (netCDF4 1.7.4, h5py 3.16, numpy 2.4, scipy 1.17)
Deterministic: the data come from fixed formulas; only the libraries' own metadata may differ
between library versions, and the tests compare values, not file bytes.
"""
import hashlib
import json
import os

import h5py
import netCDF4
import numpy as np
import scipy.io

HERE = os.path.dirname(os.path.abspath(__file__))
cases = []


def canonical(a):
    a = np.asarray(a)
    kind = '<f8' if a.dtype.kind == 'f' else '<i8'
    return np.ascontiguousarray(a.astype(kind))


def case(file, variable, slab, values, note=''):
    c = canonical(values)
    cases.append({
        'file': file, 'variable': variable, 'slab': slab, 'shape': list(c.shape),
        'sum': float(c.astype('<f8').sum()),
        'sha256': hashlib.sha256(c.tobytes()).hexdigest(), 'note': note})


def grid(shape, scale=1.0, offset=0.0):
    idx = np.indices(shape)
    v = offset
    for d, i in enumerate(idx):
        v = v + i * scale * (10 ** (len(shape) - 1 - d))
    return v


def netcdf3(name, fmt, t=5, nlat=6, nlon=8):
    path = os.path.join(HERE, name)
    with netCDF4.Dataset(path, 'w', format=fmt) as ds:
        ds.set_fill_off()
        ds.createDimension('time', None)
        ds.createDimension('lat', nlat)
        ds.createDimension('lon', nlon)
        lat = ds.createVariable('lat', 'f4', ('lat',))
        lat[:] = np.linspace(-50, 50, nlat)
        elev = ds.createVariable('elevation', 'f8', ('lat', 'lon'))
        elev[:] = grid((nlat, nlon), 0.5, -3.0)
        temp = ds.createVariable('temperature', 'f4', ('time', 'lat', 'lon'))
        temp[:] = grid((t, nlat, nlon), 0.25, 270.0)
        pres = ds.createVariable('pressure', 'i2', ('time', 'lat', 'lon'))
        pres[:] = (grid((t, nlat, nlon), 1.0, 900.0) % 30000).astype('i2')
        if fmt == 'NETCDF3_64BIT_DATA':
            cnt = ds.createVariable('counts', 'i8', ('time', 'lat'))
            cnt[:] = (grid((t, nlat), 1.0) * 1_000_000_007).astype('i8')
            u = ds.createVariable('flags', 'u2', ('lat', 'lon'))
            u[:] = (grid((nlat, nlon), 7.0) % 65535).astype('u2')
    with netCDF4.Dataset(path) as ds:
        ds.set_auto_maskandscale(False)
        for var, slab, sl in [
                ('temperature', None, np.s_[:]),
                ('temperature', '1:4, 2:5, 0:8:3', np.s_[1:4, 2:5, 0:8:3]),
                ('temperature', '2, :, 3', np.s_[2:3, :, 3:4]),
                ('pressure', '0:5:2, 1:6, 2:7', np.s_[0:5:2, 1:6, 2:7]),
                ('elevation', None, np.s_[:]),
                ('elevation', '1:5, 2:6', np.s_[1:5, 2:6]),
                ('lat', '::2', np.s_[::2])]:
            case(name, var, slab, ds[var][sl])
        if fmt == 'NETCDF3_64BIT_DATA':
            case(name, 'counts', None, ds['counts'][:])
            case(name, 'flags', '0:6:5, 1:8:2', ds['flags'][0:6:5, 1:8:2])


netcdf3('classic.nc', 'NETCDF3_CLASSIC')
netcdf3('offset64.nc', 'NETCDF3_64BIT_OFFSET')
netcdf3('cdf5.nc', 'NETCDF3_64BIT_DATA')

# NetCDF-3 written by another writer than netCDF-C: scipy's, with one record variable only
# (a record of one variable is not padded to 4 bytes in that case, per the format spec)
with scipy.io.netcdf_file(os.path.join(HERE, 'scipy.nc'), 'w', version=1) as f:
    f.createDimension('time', None)
    f.createDimension('x', 3)
    v = f.createVariable('code', 'b', ('time', 'x'))
    v[:] = (grid((7, 3), 1.0) % 100).astype('b')
case('scipy.nc', 'code', None, (grid((7, 3), 1.0) % 100).astype('b'))
case('scipy.nc', 'code', '1:7:3, 1', (grid((7, 3), 1.0) % 100).astype('b')[1:7:3, 1:2])

# HDF5: contiguous and chunked datasets, a snapshot-like layout
n = 1000
coords = np.stack([np.arange(n) * 0.5, np.arange(n) * -0.25, np.arange(n) % 17], axis=1)
vel = (coords * 3 + 1).astype('f4')
with h5py.File(os.path.join(HERE, 'snapshot.h5'), 'w') as f:
    g = f.create_group('PartType1')
    g.create_dataset('Coordinates', data=coords)  # contiguous float64
    g.create_dataset('Velocities', data=vel, chunks=(128, 3))  # chunked, no filter
    g.create_dataset('ParticleIDs', data=np.arange(n, dtype='>u8') * 3,
                     chunks=(100,), compression='gzip', shuffle=True)  # big-endian, filtered
    d = f.create_group('grid')
    dens = grid((9, 20, 30), 0.125, 1.0).astype('f4')
    d.create_dataset('density', data=dens, chunks=(4, 8, 8), compression='gzip',
                     compression_opts=4, shuffle=True)  # partial edge chunks
    d.create_dataset('mask', data=(grid((9, 20, 30), 1.0) % 7).astype('i1'), chunks=(9, 5, 30))
    f.create_dataset('names', data=np.array([b'a', b'bc'], dtype=h5py.string_dtype()))
    f.create_dataset('compound', data=np.zeros(4, dtype=[('a', 'i4'), ('b', 'f8')]))
    f.create_dataset('scaled', data=np.arange(100, dtype='i4'), chunks=(10,), scaleoffset=0)
    # chunks never written: HDF5 reads them as the fill value
    part = d.create_dataset('partial', shape=(20, 24), dtype='<f4', chunks=(5, 6),
                            fillvalue=-7.5, compression='gzip')
    part[0:10, 0:12] = grid((10, 12), 1.0, 0.5)
    part[15:20, 18:24] = grid((5, 6), 2.0)
    d.create_dataset('untouched', shape=(8, 8), dtype='<i2', chunks=(4, 4))
with h5py.File(os.path.join(HERE, 'snapshot.h5')) as f:
    for var, slab, sl in [
            ('/PartType1/Coordinates', None, np.s_[:]),
            ('/PartType1/Coordinates', '100:400, 0:2', np.s_[100:400, 0:2]),
            ('/PartType1/Coordinates', '7:990:13, 2', np.s_[7:990:13, 2:3]),
            ('/PartType1/Velocities', None, np.s_[:]),
            ('/PartType1/Velocities', '120:700:3, 1:3', np.s_[120:700:3, 1:3]),
            ('/PartType1/ParticleIDs', '250:777', np.s_[250:777]),
            ('/grid/density', None, np.s_[:]),
            ('/grid/density', '2:7, 5:19:2, 3:29', np.s_[2:7, 5:19:2, 3:29]),
            ('/grid/mask', '4, 0:20:4, :', np.s_[4:5, 0:20:4, :]),
            ('/grid/partial', None, np.s_[:]),
            ('/grid/partial', '3:18:2, 5:23', np.s_[3:18:2, 5:23])]:
        case('snapshot.h5', var, slab, f[var][sl])
    # the HDF5 hyperslab form, selected by HDF5 itself (H5Sselect_hyperslab)
    dset = f['/grid/density']
    start, stride, count, block = (1, 0, 4), (3, 1, 10), (2, 20, 3), (2, 1, 1)
    space = dset.id.get_space()
    space.select_hyperslab(start, count, stride, block)
    shape = tuple(c * b for c, b in zip(count, block))
    out = np.empty(shape, dtype=dset.dtype)
    dset.id.read(h5py.h5s.create_simple(shape), space, out)
    case('snapshot.h5', '/grid/density', '1/3/2/2, 0/1/20/1, 4/10/3/1', out,
         'HDF5 hyperslab start/stride/count/block')

# the newer HDF5 layouts (superblock v3, chunk indexes by fixed and extensible arrays), as
# HDF5 1.10 to 1.14 write them with libver='latest'
with h5py.File(os.path.join(HERE, 'latest.h5'), 'w', libver=('v112', 'v112')) as f:
    f.create_dataset('fixed', data=grid((30, 40), 1.0).astype('<i4'), chunks=(8, 16))
    ext = f.create_dataset('growing', data=grid((25, 6), 0.5), chunks=(4, 6), maxshape=(None, 6),
                           compression='gzip')
with h5py.File(os.path.join(HERE, 'latest.h5')) as f:
    case('latest.h5', 'fixed', '3:29, 5:37:4', f['fixed'][3:29, 5:37:4])
    case('latest.h5', 'growing', None, f['growing'][:])

# HDF5 2.0's own layout message (version 5), which is not read (versions 1 to 4 are): refused by name
with h5py.File(os.path.join(HERE, 'hdf5v2.h5'), 'w', libver='latest') as f:
    f.create_dataset('values', data=np.arange(10, dtype='<i4'), chunks=(5,), maxshape=(None,),
                     compression='gzip')

# NetCDF-4 (HDF5 underneath): a chunked, deflated record variable and a contiguous one
with netCDF4.Dataset(os.path.join(HERE, 'nc4.nc'), 'w', format='NETCDF4') as ds:
    ds.createDimension('time', None)
    ds.createDimension('lat', 12)
    ds.createDimension('lon', 16)
    t = ds.createVariable('temperature', 'f4', ('time', 'lat', 'lon'), zlib=True, shuffle=True,
                          chunksizes=(2, 6, 8))
    t[:] = grid((5, 12, 16), 0.25, 270.0)
    e = ds.createVariable('elevation', 'f8', ('lat', 'lon'), contiguous=True)
    e[:] = grid((12, 16), 0.5)
    g = ds.createGroup('surface')
    g.createDimension('n', 10)
    w = g.createVariable('wind', 'i4', ('n',))
    w[:] = np.arange(10) * 11
with netCDF4.Dataset(os.path.join(HERE, 'nc4.nc')) as ds:
    ds.set_auto_maskandscale(False)
    case('nc4.nc', 'temperature', None, ds['temperature'][:])
    case('nc4.nc', 'temperature', '1:4, 3:10, 0:16:5', ds['temperature'][1:4, 3:10, 0:16:5])
    case('nc4.nc', 'elevation', '2:11, 1:15', ds['elevation'][2:11, 1:15])
    case('nc4.nc', 'surface/wind', '2:9', ds['surface']['wind'][2:9])

# A time series over files (the example job's input): per time step mean, min and max of a
# region of temperature, as the reference library computes them.
series = []
os.makedirs(os.path.join(HERE, 'series'), exist_ok=True)
for k, fmt in enumerate(['NETCDF3_CLASSIC', 'NETCDF3_64BIT_OFFSET', 'NETCDF4', 'NETCDF3_CLASSIC']):
    path = os.path.join(HERE, 'series', 'run_%02d.nc' % k)
    with netCDF4.Dataset(path, 'w', format=fmt) as ds:
        ds.set_fill_off()
        ds.createDimension('time', None)
        ds.createDimension('lat', 40)
        ds.createDimension('lon', 60)
        tv = ds.createVariable('time', 'i4', ('time',))
        tv[:] = np.arange(6) + 6 * k
        kw = dict(zlib=True, chunksizes=(1, 20, 30)) if fmt == 'NETCDF4' else {}
        t = ds.createVariable('temperature', 'f4', ('time', 'lat', 'lon'), **kw)
        rng = np.random.default_rng(1000 + k)
        t[:] = (250 + 40 * rng.random((6, 40, 60))).astype('f4')
        s = ds.createVariable('salinity', 'f8', ('time', 'lat', 'lon'), **kw)
        s[:] = rng.random((6, 40, 60))
    with netCDF4.Dataset(path) as ds:
        ds.set_auto_maskandscale(False)
        box = ds['temperature'][:, 10:30, 5:45].astype('f8')
        for i in range(6):
            series.append({'file': 'run_%02d.nc' % k, 'time_index': i,
                           'mean': float(box[i].mean()), 'min': float(box[i].min()),
                           'max': float(box[i].max()), 'count': int(box[i].size)})

with open(os.path.join(HERE, 'expected.json'), 'w') as out:
    json.dump({'cases': cases, 'series': {'variable': 'temperature', 'slab': ':, 10:30, 5:45',
                                          'steps': series},
               'libraries': {'netCDF4': netCDF4.__version__,
                             'netcdf-c': netCDF4.__netcdf4libversion__,
                             'h5py': h5py.__version__, 'hdf5': h5py.version.hdf5_version,
                             'numpy': np.__version__, 'scipy': scipy.__version__}},
              out, indent=1)
print(len(cases), 'cases,', len(series), 'series steps')

# A 64-bit offset file over 4 GiB whose last variable starts past 2^32: written by netCDF-C
# without fill (sparse on disk), then kept as its two stretches of data, the header and the
# last variable, which the test writes back at their offsets into a sparse file.
big = os.path.join(HERE, 'big.tmp.nc')
with netCDF4.Dataset(big, 'w', format='NETCDF3_64BIT_OFFSET') as ds:
    ds.set_fill_off()
    ds.createDimension('a', 3_000_000_000)
    ds.createDimension('b', 2_000_000_000)
    ds.createDimension('n', 64)
    ds.createVariable('first', 'i1', ('a',))
    ds.createVariable('second', 'i1', ('b',))
    tail = ds.createVariable('tail', 'f4', ('n',))
    tail[:] = np.arange(64, dtype='f4') * 1.5 - 7
size = os.path.getsize(big)
with open(big, 'rb') as f:
    header = f.read(1024)
    f.seek(size - 256)
    tail_bytes = f.read(256)
with netCDF4.Dataset(big) as ds:
    tail_values = ds['tail'][10:50:4]
os.remove(big)
with open(os.path.join(HERE, 'big.json'), 'w') as out:
    json.dump({'length': size, 'header': header.hex(), 'tail_offset': size - 256,
               'tail': tail_bytes.hex()}, out, indent=1)
case('big.json', 'tail', '10:50:4', tail_values, 'a sparse 64-bit offset file of ' + str(size)
     + ' bytes, rebuilt by the test from big.json')
with open(os.path.join(HERE, 'expected.json'), 'w') as out:
    json.dump({'cases': cases, 'series': {'variable': 'temperature', 'slab': ':, 10:30, 5:45',
                                          'steps': series},
               'libraries': {'netCDF4': netCDF4.__version__,
                             'netcdf-c': netCDF4.__netcdf4libversion__,
                             'h5py': h5py.__version__, 'hdf5': h5py.version.hdf5_version,
                             'numpy': np.__version__, 'scipy': scipy.__version__}},
              out, indent=1)
