#!/usr/bin/python3
"""Writes the CF attribute fixtures of org.opass.mrap.science's tests with the reference
libraries, and expected_attrs.json: what those libraries read back from them.

  classic.nc  NetCDF-3 classic (netCDF-C through netCDF4-python): text, numeric and list
              attributes on data and coordinate variables, a record coordinate variable, a
              scalar, a variable named as a dimension that is not its coordinate variable, and
              attributes not kept (a long comment, a global history) to be skipped.
  nc4.nc      the same as NetCDF-4 (HDF5 underneath: text attributes as fixed-length strings,
              a non-ASCII one as a variable-length string), with a dimension-only dimension
              (nv: netCDF-C writes a dimension scale named "This is a netCDF dimension but not a
              netCDF variable"), and a group whose variable uses its parent's dimensions.
  scales.h5   h5py, twice: scales.h5 as h5py writes by default (symbol tables, version 1
              object headers), scales_v108.h5 with libver v108 (link messages, attributes
              stored densely past 8): variable-length string attributes (h5py's str), a
              fixed-length one, a one-element array of strings, numbers of int16, float32 and
              float64 (one big-endian), dimension scales named by make_scale(name), one made
              without a name, one in another group, a dimension without a scale, attributes of
              types that are not read (compound, enumerated, reference) under kept names, and a
              dataset with more than 8 attributes.

expected_attrs.json, per file and variable (as a job names it): its shape, its dimensions'
names, its kept attributes (org.opass.mrap.science.Attributes.KEPT) as the library reads them
(text, or numbers with their NumPy type), the kept names the reader must skip (other types), and
per dimension its coordinate variable (name, shape, values) or null. Dimension names and
coordinates as netCDF4-python reads them for NetCDF; for HDF5 as h5py reads them: each
dimension's first scale and its name (dims[d].keys()), where that name is empty the scale
dataset's own name (as netCDF-C names a dimension), "" where the dimension has no scale.

Run with Debian's interpreter from this folder: /usr/bin/python3 make_attrs.py
(python3-h5py 3.7 on HDF5 1.10.8, python3-netcdf4 1.6.2 on netCDF-C 4.9.0, numpy 1.24).
Deterministic: values come from fixed formulas.
"""
import json
import os

import h5py
import netCDF4
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KEPT = ["_FillValue", "missing_value", "valid_min", "valid_max", "valid_range", "scale_factor",
        "add_offset", "_Unsigned", "units", "calendar", "standard_name", "axis", "positive",
        "coordinates", "bounds"]
LONG = "a comment longer than a page of the header, which the reader skips. " * 150


def netcdf(name, fmt):
    nc4 = fmt == 'NETCDF4'
    with netCDF4.Dataset(os.path.join(HERE, name), 'w', format=fmt) as ds:
        ds.history = LONG
        ds.title = 'CF attributes'
        ds.createDimension('time', None)
        ds.createDimension('lat', 3)
        ds.createDimension('lon', 4)
        ds.createDimension('nv', 2)
        t = ds.createVariable('time', 'f8', ('time',))
        t.units = 'days since 2000-01-01 00:00:00'
        t.calendar = 'noleap'
        t.standard_name = 'time'
        t.axis = 'T'
        t[:] = [0.5, 1.5]
        lat = ds.createVariable('lat', 'f4', ('lat',))
        lat.units = 'degrees_north'
        lat.standard_name = 'latitude'
        lat.axis = 'Y'
        lat.bounds = 'lat_bnds'
        lat.valid_range = np.array([-90, 90], 'f4')
        lat[:] = [-45.0, 0.0, 45.0]
        lon = ds.createVariable('lon', 'f8', ('lon',))
        lon.units = 'degrees_east'
        lon.axis = 'X'
        lon[:] = [0.0, 90.0, 180.0, 270.0]
        bnds = ds.createVariable('lat_bnds', 'f4', ('lat', 'nv'))
        bnds.units = 'degrees_north'
        bnds[:] = [[-90, -22.5], [-22.5, 22.5], [22.5, 90]]
        temp = ds.createVariable('temp', 'i2', ('time', 'lat', 'lon'), fill_value=np.int16(-32767))
        temp.long_name = 'air temperature'
        temp.comment = LONG
        temp.units = 'K'
        temp.standard_name = 'air_temperature'
        temp.scale_factor = np.float32(0.01)
        temp.add_offset = np.float64(273.15)
        temp.missing_value = np.array([-32766, -32765], 'i2')
        temp.valid_min = np.int16(-30000)
        temp.valid_max = np.int16(30000)
        temp.coordinates = 'lat lon'
        temp.set_auto_maskandscale(False)
        temp[:] = (np.arange(24).reshape(2, 3, 4) * 100 - 1000).astype('i2')
        sst = ds.createVariable('sst', 'f4', ('time', 'lat', 'lon'), fill_value=np.float32(1e20))
        sst.units = '\u00b0C'  # not ASCII: NC_STRING in NetCDF-4 (a variable-length string)
        sst.bounds = ''  # empty: netCDF-C writes one NUL
        sst[:] = np.arange(24, dtype='f4').reshape(2, 3, 4) / 4
        flags = ds.createVariable('flags', 'i1', ('lat', 'lon'))
        setattr(flags, '_Unsigned', 'true')
        flags.valid_range = np.array([0, 100], 'i1')
        flags.standard_name = 'status_flag'
        flags[:] = (np.arange(12).reshape(3, 4) * 9).astype('i1')
        height = ds.createVariable('height', 'f4', ())
        height.units = 'm'
        height.axis = 'Z'
        height.positive = 'up'
        height.assignValue(2.0)
        if not nc4:
            # named as a dimension but not its coordinate variable (NetCDF-4 stores such a
            # variable under another name, _nc4_non_coord_nv)
            nv = ds.createVariable('nv', 'i4', ('lat', 'nv'))
            nv[:] = np.arange(6).reshape(3, 2)
        if nc4:
            g = ds.createGroup('sub')
            inner = g.createVariable('inner', 'f4', ('lat', 'nv'))
            inner.units = '1'
            inner.valid_max = np.float32(9.5)
            inner[:] = np.arange(6, dtype='f4').reshape(3, 2)


def numbers_or_text(value):
    """The attribute as the tests compare it, or None for a type the reader skips."""
    if isinstance(value, str):
        return {'text': value.rstrip('\0')}
    if isinstance(value, bytes):
        return {'text': value.decode('utf-8').rstrip('\0')}
    a = np.asarray(value)
    if a.dtype.kind in 'iuf':
        return {'type': a.dtype.name, 'values': [float(x) for x in a.ravel()]}
    if a.dtype.kind in 'SO' and a.size == 1 and isinstance(a.ravel()[0], (str, bytes)):
        return numbers_or_text(a.ravel()[0])
    return None


def netcdf_expected(name):
    out = {}
    with netCDF4.Dataset(os.path.join(HERE, name)) as ds:
        ds.set_auto_maskandscale(False)

        def walk(g, prefix):
            for vname, v in g.variables.items():
                attrs, skipped = {}, []
                for a in v.ncattrs():
                    if a in KEPT:
                        r = numbers_or_text(v.getncattr(a))
                        if r is None:
                            skipped.append(a)
                        else:
                            attrs[a] = r
                coords = []
                for dim in v.dimensions:
                    c, at = None, g
                    while at is not None and c is None:  # the dimension's own group, or up
                        if dim in at.variables and at.variables[dim].dimensions == (dim,):
                            cv = at.variables[dim]
                            c = {'variable': dim if at.parent is None else
                                 at.path.lstrip('/') + '/' + dim,
                                 'shape': list(cv.shape),
                                 'values': [float(x) for x in np.asarray(cv[:]).ravel()]}
                        elif dim in at.dimensions:
                            break
                        at = at.parent
                    coords.append(c)
                out[prefix + vname] = {'shape': list(v.shape), 'dimensions': list(v.dimensions),
                                       'attributes': attrs, 'skipped': skipped,
                                       'coordinates': coords}
            for gname, sub in g.groups.items():
                walk(sub, prefix + gname + '/')

        walk(ds, '')
    return out


netcdf('classic.nc', 'NETCDF3_CLASSIC')
netcdf('nc4.nc', 'NETCDF4')

def scales(name, libver):
    with h5py.File(os.path.join(HERE, name), 'w', libver=libver) as f:
        x = f.create_dataset('x', data=np.arange(4) * 0.5)
        x.make_scale('x')
        x.attrs['units'] = 'm'
        x.attrs['axis'] = 'X'
        y = f.create_dataset('y', data=np.array([10, 20, 30], 'i4'))
        y.make_scale('northing')  # its dimension is named by the scale's name, not the link's
        y.attrs['units'] = np.array(['km'], dtype=h5py.string_dtype())  # a 1-element array
        c = f.create_group('coords')
        t = c.create_dataset('t', data=np.array([100.0, 200.0]))
        t.make_scale()  # no name: the dimension takes the dataset's own name
        t.attrs['units'] = 'days since 1970-01-01'
        t.attrs['calendar'] = np.bytes_(b'standard')  # fixed-length
        values = np.arange(2 * 3 * 4 * 5, dtype='<i2').reshape(2, 3, 4, 5)
        d = f.create_dataset('data', data=values)
        d.dims[0].attach_scale(t)
        d.dims[1].attach_scale(y)
        d.dims[2].attach_scale(x)  # dims[3]: no scale
        d.attrs['long_name'] = 'not kept'
        d.attrs['units'] = 'K'
        d.attrs['standard_name'] = 'air_temperature'
        d.attrs['_FillValue'] = np.int16(-1)
        d.attrs['missing_value'] = np.array([-2], 'i2')
        d.attrs['valid_range'] = np.array([0, 1000], 'i2')
        d.attrs['scale_factor'] = np.float32(0.5)
        d.attrs['add_offset'] = np.array(10.25, '>f8')  # big-endian
        d.attrs['axis'] = np.bytes_(b'Q')
        d.attrs['bounds'] = np.zeros(1, dtype=[('a', '<i4'), ('b', '<f8')])  # compound: skipped
        d.attrs.create('positive', 1, dtype=h5py.enum_dtype({'up': 1, 'down': 0}, basetype='u1'))
        d.attrs['calendar'] = x.ref  # a reference: skipped
        many = f.create_dataset('many', data=np.arange(6, dtype='>f4'))
        for k in range(20):
            many.attrs['extra_%02d' % k] = k
        many.attrs['units'] = 'Pa'
        many.attrs['valid_min'] = np.float64(-1.5)
        many.attrs['_FillValue'] = np.float32(-9)


def h5_expected(name):
    h5 = {}
    with h5py.File(os.path.join(HERE, name)) as f:
        for path in ['/x', '/y', '/coords/t', '/data', '/many']:
            ds = f[path]
            attrs, skipped = {}, []
            for a in ds.attrs:
                if a in KEPT:
                    kind = ds.attrs.get_id(a).get_type().get_class()
                    r = numbers_or_text(ds.attrs[a]) if kind in (
                        h5py.h5t.INTEGER, h5py.h5t.FLOAT, h5py.h5t.STRING) else None
                    if r is None:
                        skipped.append(a)
                    else:
                        attrs[a] = r
            dims, coords = [], []
            for k in range(ds.ndim):
                if h5py.h5ds.is_scale(ds.id) and k == 0 and len(ds.dims[0]) == 0:
                    scale, name = ds, ds.attrs['NAME'].decode()
                elif len(ds.dims[k]) == 0:
                    scale, name = None, ''
                else:
                    scale, name = ds.dims[k][0], ds.dims[k].keys()[0]
                if scale is not None and name == '':
                    name = scale.name.split('/')[-1]
                dims.append(name)
                coords.append(None if scale is None else {
                    'variable': scale.name, 'shape': list(scale.shape),
                    'values': [float(v) for v in scale[:].ravel()]})
            h5[path] = {'shape': list(ds.shape), 'dimensions': dims, 'attributes': attrs,
                        'skipped': skipped, 'coordinates': coords}
    return h5


scales('scales.h5', 'earliest')  # h5py's default: symbol tables, version 1 object headers
scales('scales_v108.h5', 'v108')  # link messages, dense attribute storage past 8

with open(os.path.join(HERE, 'expected_attrs.json'), 'w') as out:
    json.dump({'kept': KEPT,
               'files': {'classic.nc': netcdf_expected('classic.nc'),
                         'nc4.nc': netcdf_expected('nc4.nc'),
                         'scales.h5': h5_expected('scales.h5'),
                         'scales_v108.h5': h5_expected('scales_v108.h5')},
               'libraries': {'netCDF4': netCDF4.__version__,
                             'netcdf-c': netCDF4.__netcdf4libversion__,
                             'h5py': h5py.__version__, 'hdf5': h5py.version.hdf5_version,
                             'numpy': np.__version__}}, out, indent=1)
print('wrote classic.nc, nc4.nc, scales.h5, scales_v108.h5, expected_attrs.json')
