#!/usr/bin/python3
"""Writes the CF fixtures of org.opass.mrap.science's tests with the reference libraries: files in
the shapes of real archives whose variables are packed, masked, unsigned or time-stamped in the
ways CF decoding and selection by coordinate value must handle, and expected_cf.json, what
xarray and netCDF4-python read back from them.

  era5.nc           an ERA5 download (CDS, netCDF): t2m and tp int16 packed with float64
                    scale_factor/add_offset, _FillValue = missing_value = -32767, a patch of
                    missing elements; time int32 "hours since 1900-01-01 00:00:00.0", gregorian,
                    6-hourly and unlimited; latitude descending 90..-90, longitude 0..357.5
  cmip_0.nc         a CMIP6 daily tas series split over three files: float32 with _FillValue =
  cmip_1.nc         missing_value = 1e20f, calendar noleap, time at noon with time_bnds, lat_bnds,
  cmip_2.nc         lon_bnds; 2014-12-10..2015-03-11 across a year end and 28 Feb -> 1 Mar, each
                    file in another storage: NETCDF4 chunked, NETCDF4_CLASSIC, NETCDF3_64BIT_OFFSET
  day360.nc         a climate model's 360_day output (30 February): pr with valid_range and hurs
                    with valid_min and valid_max, some values outside them
  unsigned.nc       a NetCDF-3 file of satellite-style unsigned data: ub byte _Unsigned with a
                    byte _FillValue and float32 packing, us short _Unsigned with a missing_value
                    list
  scale_a.nc        two consecutive files of one SST series whose int16 packing (float32
  scale_b.nc        scale_factor/add_offset) differs from file to file
  scales.h5         a plain HDF5 product written with h5py: CF attributes as variable-length
                    strings and a float32 _FillValue, dimensions as HDF5 dimension scales,
                    latitude descending, longitude -180..177.5, time in seconds

expected_cf.json holds the cases (a selection in mrap.science.select's syntax over one file or a
series, decoded or raw): the index runs per file the selection stands for, the shape, the values
(or, for large results, their sum and SHA-256), the dtype and the selected coordinates, as xarray
(sel) and netCDF4-python (auto mask and scale) read them; the script checks that the two agree
and fails where they differ otherwise than README.md documents. It also holds each file's
attributes as netCDF4-python (h5py for scales.h5) reads them, and the oracles' behaviours that
README.md's "Observed oracle behaviour" reports, checked afresh on every run.

Run with Debian's interpreter from this folder: /usr/bin/python3 make_cf_fixtures.py
(python3-netcdf4 1.6.2 on netCDF-C 4.9.0, python3-h5py 3.7 on HDF5 1.10.8, xarray 2023.01,
cftime 1.6.2, h5netcdf 1.1, pandas 1.5, numpy 1.24). Deterministic: data come from fixed formulas
and a seeded generator.
"""
import hashlib
import json
import os
import re
import shutil
import tempfile
import warnings

import cftime
import h5netcdf
import h5py
import netCDF4
import numpy as np
import pandas as pd
import xarray as xr

warnings.simplefilter('ignore')  # xarray's and numpy's remarks on NaN and masked elements
HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20200601)
LISTED = 5000  # results up to this many elements carry their values; larger ones sum and hash


def path(name):
    return os.path.join(HERE, name)


def pack16(values, missing):
    """values packed as ERA5 does: int16 over the valid range, float64 factors, -32767 free."""
    lo, hi = float(values[~missing].min()), float(values[~missing].max())
    scale = (hi - lo) / (2 ** 16 - 4)
    offset = (hi + lo) / 2
    packed = np.round((values - offset) / scale).astype('i2')
    packed[missing] = -32767
    return packed, np.float64(scale), np.float64(offset)


# ---------------------------------------------------------------------------------------------
# ERA5: 20 six-hourly steps of a 2.5 degree grid, int16 packed
ERA5_TIMES = [cftime.DatetimeGregorian(2020, 6, 1 + h // 24, h % 24) for h in range(0, 120, 6)]
with netCDF4.Dataset(path('era5.nc'), 'w', format='NETCDF4') as ds:
    ds.Conventions = 'CF-1.6'
    ds.history = '2020-07-01 00:00:00 GMT by grib_to_netcdf-2.16.0: grib_to_netcdf /data/era5.grib'
    ds.createDimension('longitude', 144)
    ds.createDimension('latitude', 73)
    ds.createDimension('time', None)
    lon = ds.createVariable('longitude', 'f4', ('longitude',))
    lon.units, lon.long_name = 'degrees_east', 'longitude'
    lon[:] = np.arange(144) * 2.5
    lat = ds.createVariable('latitude', 'f4', ('latitude',))
    lat.units, lat.long_name = 'degrees_north', 'latitude'
    lat[:] = 90 - np.arange(73) * 2.5
    time = ds.createVariable('time', 'i4', ('time',))
    time.units, time.long_name = 'hours since 1900-01-01 00:00:00.0', 'time'
    time.calendar = 'gregorian'
    time[:] = cftime.date2num(ERA5_TIMES, time.units, time.calendar).astype('i4')
    h = np.arange(20)[:, None, None] * 6.0
    phi = np.deg2rad(90 - np.arange(73) * 2.5)[None, :, None]
    lam = np.deg2rad(np.arange(144) * 2.5)[None, None, :]
    t2m = (300 - 45 * np.sin(phi) ** 2 - 8 * np.sin(phi) + 3 * np.sin(2 * lam) * np.cos(phi)
           + 6 * np.cos(phi) * np.cos(2 * np.pi * h / 24 + lam)
           + rng.normal(0, 0.004, (20, 73, 144)))
    gone = np.zeros(t2m.shape, dtype=bool)
    gone[6:9, 19:21, 44:47] = True   # in the box case: 06-02T12..06-03T00, 42.5..40 N, 110..115 E
    gone[0, 0:2, 141:144] = True     # at the pole, inside the longitude wrap case
    gone[19, 72, 0] = True           # the last element of the last step
    tp = 0.006 * np.clip(np.sin(4 * lam + h / 12 + 2 * phi) * np.cos(phi) - 0.5, 0, None)
    tp = np.where(tp > 0, tp + np.abs(rng.normal(0, 2e-7, tp.shape)), 0)  # dry two thirds
    tp_gone = np.zeros(tp.shape, dtype=bool)
    tp_gone[4:11, 24, 40:49:2] = True  # every second element of a row of the selection case
    for name, values, missing, units, long_name in [
            ('t2m', t2m, gone, 'K', '2 metre temperature'),
            ('tp', tp, tp_gone, 'm', 'Total precipitation')]:
        packed, scale, offset = pack16(values, missing)
        v = ds.createVariable(name, 'i2', ('time', 'latitude', 'longitude'),
                              fill_value=np.int16(-32767), zlib=True, complevel=4,
                              chunksizes=(5, 25, 48))
        v.scale_factor, v.add_offset = scale, offset
        v.missing_value = np.int16(-32767)
        v.units, v.long_name = units, long_name
        v.set_auto_maskandscale(False)
        v[:] = packed

# ---------------------------------------------------------------------------------------------
# CMIP6 daily tas, noleap, over three files in three storages
CMIP_UNITS, CMIP_CAL = 'days since 1850-01-01', 'noleap'
CMIP_START = cftime.date2num(cftime.datetime(2014, 12, 10, calendar=CMIP_CAL), CMIP_UNITS, CMIP_CAL)
CMIP_FILES = [('cmip_0.nc', 'NETCDF4', 0, 40), ('cmip_1.nc', 'NETCDF4_CLASSIC', 40, 40),
              ('cmip_2.nc', 'NETCDF3_64BIT_OFFSET', 80, 12)]
CMIP_LAT = -87.5 + np.arange(36) * 5.0
CMIP_LON = np.arange(72) * 5.0
for name, fmt, first, n in CMIP_FILES:
    with netCDF4.Dataset(path(name), 'w', format=fmt) as ds:
        ds.Conventions = 'CF-1.7 CMIP-6.2'
        ds.frequency, ds.table_id, ds.variable_id = 'day', 'day', 'tas'
        ds.experiment_id, ds.source_id = 'ssp245', 'OPASS-CM1'
        ds.createDimension('time', None)
        ds.createDimension('bnds', 2)
        ds.createDimension('lat', 36)
        ds.createDimension('lon', 72)
        time = ds.createVariable('time', 'f8', ('time',))
        time.bounds, time.units, time.calendar = 'time_bnds', CMIP_UNITS, CMIP_CAL
        time.axis, time.long_name, time.standard_name = 'T', 'time', 'time'
        days = CMIP_START + first + np.arange(n)
        time[:] = days + 0.5
        tb = ds.createVariable('time_bnds', 'f8', ('time', 'bnds'))
        tb[:] = np.stack([days, days + 1], axis=1)
        for dim, values, units, std in [('lat', CMIP_LAT, 'degrees_north', 'latitude'),
                                        ('lon', CMIP_LON, 'degrees_east', 'longitude')]:
            c = ds.createVariable(dim, 'f8', (dim,))
            c.bounds, c.units, c.axis = dim + '_bnds', units, 'Y' if dim == 'lat' else 'X'
            c.long_name, c.standard_name = std.capitalize(), std
            c[:] = values
            b = ds.createVariable(dim + '_bnds', 'f8', (dim, 'bnds'))
            b[:] = np.stack([values - 2.5, values + 2.5], axis=1)
        height = ds.createVariable('height', 'f8', ())
        height.units, height.axis, height.positive = 'm', 'Z', 'up'
        height.long_name, height.standard_name = 'height', 'height'
        height[...] = 2.0
        kw = {}
        if fmt == 'NETCDF4':
            kw = {'zlib': True, 'shuffle': True, 'complevel': 4, 'chunksizes': (10, 36, 72)}
        elif fmt == 'NETCDF4_CLASSIC':
            kw = {'zlib': True, 'complevel': 4}  # netCDF-C's default chunks
        tas = ds.createVariable('tas', 'f4', ('time', 'lat', 'lon'), fill_value=np.float32(1e20),
                                **kw)
        tas.standard_name, tas.long_name = 'air_temperature', 'Near-Surface Air Temperature'
        tas.comment = 'near-surface (usually, 2 meter) air temperature'
        tas.units, tas.cell_methods = 'K', 'area: time: mean'
        tas.cell_measures, tas.coordinates = 'area: areacella', 'height'
        tas.missing_value = np.float32(1e20)
        d = (first + np.arange(n))[:, None, None]
        phi = np.deg2rad(CMIP_LAT)[None, :, None]
        lam = np.deg2rad(CMIP_LON)[None, None, :]
        v = (250 + 50 * np.cos(phi) ** 2 - 12 * np.sin(phi) * np.cos(2 * np.pi * (d - 25) / 365)
             + 4 * np.sin(2 * lam + d / 9.0) * np.cos(phi) + rng.normal(0, 0.03, (n, 36, 72)))
        v = np.round(v * 8) / 8  # 1/8 K: as a model's output after lossy compression
        if name == 'cmip_0.nc':
            v[30:40, 30:33, 10:14] = 1e20   # over the tie case's day and the file's end
        elif name == 'cmip_1.nc':
            v[38:40, 17, 0:3] = 1e20        # inside the cross-file selection case
        else:
            v[1, 16:18, 2] = 1e20
            v[11, 35, 71] = 1e20
        tas.set_auto_maskandscale(False)
        tas[:] = v.astype('f4')

# ---------------------------------------------------------------------------------------------
# 360_day output: pr with valid_range, hurs with valid_min and valid_max
with netCDF4.Dataset(path('day360.nc'), 'w', format='NETCDF4') as ds:
    ds.Conventions = 'CF-1.6'
    ds.createDimension('time', None)
    ds.createDimension('lat', 10)
    ds.createDimension('lon', 12)
    time = ds.createVariable('time', 'f8', ('time',))
    time.units, time.calendar, time.standard_name = 'days since 2000-01-01', '360_day', 'time'
    time[:] = np.arange(70.0)
    lat = ds.createVariable('lat', 'f8', ('lat',))
    lat.units, lat.standard_name = 'degrees_north', 'latitude'
    lat[:] = -67.5 + np.arange(10) * 15.0
    lon = ds.createVariable('lon', 'f8', ('lon',))
    lon.units, lon.standard_name = 'degrees_east', 'longitude'
    lon[:] = np.arange(12) * 30.0
    d = np.arange(70)[:, None, None]
    y = np.arange(10)[None, :, None]
    x = np.arange(12)[None, None, :]
    pr = np.round(np.clip(12 * np.sin(d / 7.0 + x / 2.0) * np.cos(y / 3.0) + 8
                          + rng.normal(0, 0.3, (70, 10, 12)), 0, 48), 1)
    pr[57, 0, 0:4] = [-0.5, 0.0, 50.0, 50.25]     # outside, both ends (valid), outside
    pr[58, 3, 5], pr[59, 9, 11], pr[60, 5, 6] = 73.0, -2.0, 1e20
    pr[10, 2, 2], pr[69, 9, 11] = 51.0, -0.001
    v = ds.createVariable('pr', 'f8', ('time', 'lat', 'lon'), fill_value=1e20, zlib=True,
                          chunksizes=(10, 10, 12))
    v.units, v.standard_name = 'mm day-1', 'precipitation_flux'
    v.valid_range = np.array([0.0, 50.0])
    v.set_auto_maskandscale(False)
    v[:] = pr
    hurs = np.round(np.clip(70 + 25 * np.sin(d / 5.0 + y) * np.cos(x / 4.0)
                            + rng.normal(0, 0.5, (70, 10, 12)), 1, 99), 1)
    hurs[57, 1, 0:4] = [-1.5, 0.0, 100.0, 100.5]
    hurs[58, 4, 4], hurs[59, 8, 10], hurs[60, 0, 0] = 104.0, -0.25, 250.0
    hurs[0, 0, 0] = 101.0
    v = ds.createVariable('hurs', 'f4', ('time', 'lat', 'lon'), zlib=True, chunksizes=(35, 5, 12))
    v.units, v.standard_name = '%', 'relative_humidity'
    v.valid_min, v.valid_max = np.float32(0), np.float32(100)
    v.set_auto_maskandscale(False)
    v[:] = hurs.astype('f4')

# ---------------------------------------------------------------------------------------------
# NetCDF-3 unsigned data
with netCDF4.Dataset(path('unsigned.nc'), 'w', format='NETCDF3_CLASSIC') as ds:
    ds.Conventions = 'CF-1.6'
    ds.createDimension('y', 6)
    ds.createDimension('x', 8)
    for dim, n, std in [('y', 6, 'projection_y_coordinate'), ('x', 8, 'projection_x_coordinate')]:
        c = ds.createVariable(dim, 'f8', (dim,))
        c.units, c.standard_name = 'm', std
        c[:] = 500.0 + np.arange(n) * 1000.0
    ub = ds.createVariable('ub', 'i1', ('y', 'x'), fill_value=np.int8(-1))
    ub._Unsigned = 'true'
    ub.scale_factor, ub.add_offset = np.float32(0.5), np.float32(10)
    ub.long_name = 'brightness count'
    ub.set_auto_maskandscale(False)
    raw = ((np.arange(48) * 37 + 11) % 256).astype('u1').view('i1').reshape(6, 8)
    raw[0, 0:4] = [-1, -127, -128, 127]   # fill; the default byte fill; the extremes
    raw[2, 3], raw[3, 5], raw[5, 7] = -1, -1, 0
    ub[:] = raw
    us = ds.createVariable('us', 'i2', ('y', 'x'))
    us._Unsigned = 'true'
    us.missing_value = np.array([-1, -2], dtype='i2')
    us.units, us.long_name = '1', 'radiance count'
    us.set_auto_maskandscale(False)
    raw = ((np.arange(48) * 4099 + 77) % 65536).astype('u2').view('i2').reshape(6, 8)
    raw[0, 0:5] = [-1, -2, -32767, -32768, 32767]  # missing, missing, default short fill, extremes
    raw[1, 6], raw[3, 2], raw[4, 4] = -2, -1, -3
    us[:] = raw

# ---------------------------------------------------------------------------------------------
# an SST series whose packing changes between files
for name, first, scale, offset in [('scale_a.nc', 0, 0.01, 20.0), ('scale_b.nc', 10, 0.005, 15.0)]:
    with netCDF4.Dataset(path(name), 'w', format='NETCDF4') as ds:
        ds.Conventions = 'CF-1.6'
        ds.createDimension('time', None)
        ds.createDimension('lat', 20)
        ds.createDimension('lon', 30)
        time = ds.createVariable('time', 'f8', ('time',))
        time.units, time.calendar, time.standard_name = 'days since 2000-01-01', 'standard', 'time'
        time[:] = first + np.arange(10.0)
        lat = ds.createVariable('lat', 'f4', ('lat',))
        lat.units, lat.standard_name = 'degrees_north', 'latitude'
        lat[:] = -47.5 + np.arange(20) * 5.0
        lon = ds.createVariable('lon', 'f4', ('lon',))
        lon.units, lon.standard_name = 'degrees_east', 'longitude'
        lon[:] = -177 + np.arange(30) * 12.0
        d = (first + np.arange(10))[:, None, None]
        y = np.arange(20)[None, :, None]
        x = np.arange(30)[None, None, :]
        sst = (15 + 12 * np.cos((y - 9.5) / 7.0) + 1.5 * np.sin(x / 3.0 + d / 4.0)
               + rng.normal(0, 0.05, (10, 20, 30)))
        packed = np.round((sst - offset) / scale).astype('i2')
        packed[:, 3:6, 10:14] = -32767    # land
        packed[first % 3, 15, 20] = -32767
        v = ds.createVariable('sst', 'i2', ('time', 'lat', 'lon'), fill_value=np.int16(-32767),
                              zlib=True, chunksizes=(5, 20, 30))
        v.scale_factor, v.add_offset = np.float32(scale), np.float32(offset)
        v.units, v.standard_name = 'degC', 'sea_surface_temperature'
        v.set_auto_maskandscale(False)
        v[:] = packed

# ---------------------------------------------------------------------------------------------
# a plain HDF5 product with dimension scales (h5py; no netCDF attributes)
with h5py.File(path('scales.h5'), 'w') as f:
    f.attrs['title'] = 'hourly surface temperature'
    f.attrs['Conventions'] = 'CF-1.8'
    t = f.create_dataset('time', data=np.arange(30) * 3600.0)
    t.make_scale('time')
    t.attrs['units'] = 'seconds since 2000-01-01 00:00:00'
    t.attrs['calendar'] = 'proleptic_gregorian'
    t.attrs['standard_name'] = 'time'
    la = f.create_dataset('lat', data=45.0 - np.arange(19) * 5.0)
    la.make_scale('lat')
    la.attrs['units'] = 'degrees_north'
    la.attrs['standard_name'] = 'latitude'
    lo = f.create_dataset('lon', data=-180.0 + np.arange(144) * 2.5)
    lo.make_scale('lon')
    lo.attrs['units'] = 'degrees_east'
    lo.attrs['standard_name'] = 'longitude'
    hh = np.arange(30)[:, None, None]
    phi = np.deg2rad(45.0 - np.arange(19) * 5.0)[None, :, None]
    lam = np.deg2rad(-180.0 + np.arange(144) * 2.5)[None, None, :]
    temp = (295 - 20 * np.sin(phi) ** 2 + 5 * np.cos(phi) * np.cos(2 * np.pi * hh / 24 + lam)
            + rng.normal(0, 0.1, (30, 19, 144)))
    temp = np.round(temp * 16) / 16
    temp[3:8, 7:10, 140:144] = -999    # inside the wrap and lat cases
    temp[5, 8, 0:2] = -999
    temp[29, 18, 143] = -999
    d = f.create_dataset('temperature', data=temp.astype('f4'), chunks=(6, 19, 48),
                         compression='gzip', shuffle=True, fillvalue=np.float32(-999))
    d.attrs['_FillValue'] = np.float32(-999)
    d.attrs['units'] = 'K'
    d.attrs['long_name'] = 'surface temperature'
    d.attrs['standard_name'] = 'surface_temperature'
    for k, scale in enumerate([t, la, lo]):
        d.dims[k].attach_scale(scale)


# =============================================================================================
# The oracle: selections through xarray, values through xarray and netCDF4-python
DATE = r'\d{4}-\d{2}-\d{2}(?:T\d{2}(?::\d{2}(?::\d{2})?)?)?'
NUM = r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?'
END = '(?:%s|%s)' % (DATE, NUM)


def parse_select(text):
    """Our syntax: comma-separated dim=lo:hi (either end empty) or dim=value."""
    items = []
    for item in [s.strip() for s in text.split(',') if s.strip()]:
        dim, spec = [s.strip() for s in item.split('=', 1)]
        if re.fullmatch(END, spec):
            items.append((dim, 'nearest', spec, None))
            continue
        m = re.fullmatch('(%s|):(%s|)' % (END, END), spec)
        if not m:
            raise ValueError('bad select item ' + item)
        items.append((dim, 'range', m.group(1) or None, m.group(2) or None))
    return items


def time_key(index, text, calendar):
    """A date of our syntax as the instant it names (midnight for a bare day), in the type of
    xarray's time index: not pandas' partial-string indexing, which would take a whole day."""
    if re.fullmatch(NUM, text):
        raise ValueError('numbers on a time axis are not among the cases')
    parts = [int(p) for p in re.split('[-T:]', text)]
    parts += [0] * (6 - len(parts))
    if isinstance(index, pd.DatetimeIndex):
        return pd.Timestamp(*parts)
    return cftime.datetime(*parts, calendar=calendar)


def is_longitude(attrs):
    return (attrs.get('units') in ('degrees_east', 'degree_east', 'degrees_E', 'degree_E')
            or attrs.get('standard_name') == 'longitude')


def open_series(files, variable, decode):
    """The variable over the files, concatenated along time, with each dimension's positions as
    coordinates `_i_<dim>` so that what xarray selects can be read back as indices."""
    parts = []
    for f in files:
        engine = 'h5netcdf' if f.endswith('.h5') else 'netcdf4'
        ds = xr.open_dataset(path(f), engine=engine, mask_and_scale=decode, decode_times=True)
        parts.append(ds[variable].load())
        ds.close()
    da = parts[0] if len(parts) == 1 else xr.concat(parts, dim='time', coords='minimal',
                                                   compat='override')
    for dim in da.dims:
        da = da.assign_coords({'_i_' + dim: (dim, np.arange(da.sizes[dim]))})
    return da


def nc_attrs(ncvar):
    return {a: ncvar.getncattr(a) for a in ncvar.ncattrs()}


def xarray_select(files, variable, select):
    """The positions (in the concatenation) per dimension that the selection keeps, found with
    xarray's sel (isel with np.where for a longitude range, which wraps modulo 360)."""
    da = open_series(files, variable, True)
    with netCDF4.Dataset(path(files[0])) as ds:
        attrs = {dim: nc_attrs(ds[dim]) for dim in da.dims}
    for dim, kind, a, b in parse_select(select):
        index = da.indexes[dim]
        is_time = 'since' in attrs[dim].get('units', '')
        cal = attrs[dim].get('calendar', 'standard')
        key = (lambda s: None if s is None else time_key(index, s, cal)) if is_time else \
            (lambda s: None if s is None else float(s))
        before = da['_i_' + dim].values
        if kind == 'nearest':
            da = da.sel({dim: [key(a)]}, method='nearest')
            continue
        lo, hi = key(a), key(b)
        if lo is not None and hi is not None and hi < lo and not is_longitude(attrs[dim]):
            lo, hi = hi, lo  # a closed range whatever the order of its ends
        x = da[dim].values
        if is_longitude(attrs[dim]) and lo is not None and hi is not None:
            keep = np.where((x - lo) % 360 <= (hi - lo) % 360)[0]
            if lo <= hi and x.min() <= lo and hi <= x.max():  # no wrap: sel must agree
                up = index.is_monotonic_increasing
                plain = da.sel({dim: slice(lo, hi) if up else slice(hi, lo)})
                assert list(plain['_i_' + dim].values) == list(before[keep]), (select, dim)
            da = da.isel({dim: keep})
        else:
            da = da.sel({dim: slice(lo, hi) if index.is_monotonic_increasing else slice(hi, lo)})
            if not is_time:  # the same closed range by comparison
                ok = np.ones(len(x), bool)
                ok &= True if lo is None else x >= lo
                ok &= True if hi is None else x <= hi
                assert list(da['_i_' + dim].values) == list(before[np.where(ok)[0]]), (select, dim)
    return {dim: np.asarray(da['_i_' + dim].values) for dim in da.dims}


def runs(indices):
    """Sorted indices as inclusive [first, last] runs."""
    out = []
    for i in indices:
        if out and i == out[-1][1] + 1:
            out[-1][1] = int(i)
        else:
            out.append([int(i), int(i)])
    return out


def file_lengths(files, variable):
    lengths = []
    for f in files:
        with netCDF4.Dataset(path(f)) as ds:
            lengths.append(ds[variable].shape[0])
    return lengths


def netcdf4_read(files, variable, positions, dims, decode):
    """The selection read with netCDF4-python, file by file, and per-file index runs."""
    series = 'time' in dims and len(files) > 1
    lengths = file_lengths(files, variable) if series else [None]
    out, slabs, coords = [], [], {d: [] for d in dims}
    start = 0
    for f, n in zip(files, lengths):
        local = dict(positions)
        if series:
            t = positions['time']
            local['time'] = t[(t >= start) & (t < start + n)] - start
            start += n
        if any(len(local[d]) == 0 for d in dims):
            slabs.append(None)
            continue
        slabs.append([runs(local[d]) for d in dims])
        with netCDF4.Dataset(path(f)) as ds:
            v = ds[variable]
            v.set_auto_maskandscale(decode)
            out.append(v[tuple(list(local[d]) for d in dims)])
            for d in dims:
                if coords[d] and not (series and d == 'time'):
                    continue  # the same in every file of a series
                c = ds[d]
                c.set_auto_maskandscale(False)
                raw = np.asarray(c[:])[local[d]]
                if 'since' in getattr(c, 'units', ''):
                    dates = cftime.num2date(raw, c.units, getattr(c, 'calendar', 'standard'))
                    coords[d] += [x.strftime('%Y-%m-%dT%H:%M:%S') for x in np.atleast_1d(dates)]
                else:
                    coords[d] += [float(x) for x in raw]
    if not out:
        return None, slabs, coords
    axis = dims.index('time') if series else 0
    return np.ma.concatenate(out, axis=axis) if len(out) > 1 else out[0], slabs, coords


def xr_iso(values):
    out = []
    for x in values:
        if isinstance(x, np.datetime64):
            x = pd.Timestamp(x)
        out.append(x.strftime('%Y-%m-%dT%H:%M:%S'))
    return out


def masked_float64(a):
    """a as float64 with NaN where masked (netCDF4-python's masked array or xarray's NaN)."""
    f = np.ma.getdata(a).astype('f8')
    f[np.ma.getmaskarray(a)] = np.nan
    return f


def canonical(a, decode):
    if decode or np.asarray(a).dtype.kind == 'f':
        return np.ascontiguousarray(masked_float64(a).astype('<f8'))
    return np.ascontiguousarray(np.asarray(a).astype('<i8'))


cases = []


def case(name, files, variable, select, decode, differences=(), note=''):
    """One case. differences: the documented ways xarray may depart from netCDF4-python here,
    which make netCDF4-python the oracle: 'dtype' (xarray gives another dtype than the one CF and
    netCDF4-python give), 'float32' (xarray computes in float32 what netCDF4-python computes in
    float64: an int16 variable with a _FillValue becomes float32 before it is unpacked, even with
    float64 scale_factor/add_offset), 'valid' (xarray ignores valid_range/valid_min/valid_max),
    'unsigned_missing' (xarray does not reinterpret missing_value under _Unsigned)."""
    positions = xarray_select(files, variable, select)
    da = open_series(files, variable, decode)
    dims = list(da.dims)
    xv = da.isel({d: positions[d] for d in dims})
    nv, slabs, coords = netcdf4_read(files, variable, positions, dims, decode)
    shape = [len(positions[d]) for d in dims]
    # the coordinates as xarray decoded them must be those netCDF4-python and cftime give
    for d in dims:
        xc = list(xv[d].values)
        if xv[d].dtype.kind in 'Mm' or xv[d].dtype == object:  # decoded times
            assert xr_iso(xc) == coords[d], (name, d, xr_iso(xc), coords[d])
        else:
            assert [float(x) for x in xc] == coords[d], (name, d)
    oracle = 'xarray'
    if nv is not None:
        assert list(nv.shape) == shape == list(xv.shape), (name, nv.shape, shape, xv.shape)
        xm = np.isnan(xv.values) if xv.dtype.kind == 'f' else np.zeros(xv.shape, bool)
        nm = np.ma.getmaskarray(nv)
        nd = np.ma.getdata(nv).astype('f8')
        xd = xv.values.astype('f8')
        if 'valid' in differences or 'unsigned_missing' in differences:
            assert not (xm & ~nm).any(), name  # xarray masks no more than netCDF4-python
            same = ~nm
        else:
            assert (xm == nm).all(), (name, 'masks differ', int((xm != nm).sum()))
            same = ~nm
        if 'float32' in differences and same.any():
            # within float32 rounding of the largest of the values and add_offset (xarray's
            # float32 sum cancels where the value is small beside the offset)
            offset = 0.0
            for f in files:
                with netCDF4.Dataset(path(f)) as ds:
                    offset = max(offset, abs(float(getattr(ds[variable], 'add_offset', 0.0))))
            big = max(float(np.abs(nd[same]).max()), offset)
            assert np.abs(xd[same] - nd[same]).max() <= 4 * float(np.spacing(np.float32(big))), name
        else:
            assert (xd[same] == nd[same]).all(), (name, 'values differ')
        if 'dtype' not in differences and 'unsigned_missing' not in differences:
            assert str(xv.dtype) == str(nv.dtype), (name, xv.dtype, nv.dtype)
        if differences:
            oracle = 'netCDF4'
    values = nv if oracle == 'netCDF4' else (xv.values if nv is None else
                                             np.ma.masked_array(xv.values, np.ma.getmaskarray(nv)))
    dtype = str(nv.dtype if oracle == 'netCDF4' else xv.dtype)
    c = canonical(values if nv is not None else np.zeros(shape), decode)
    mask = np.isnan(c) if c.dtype.kind == 'f' and decode else np.zeros(c.shape, bool)
    ok = c[~mask]
    entry = {
        'name': name, 'files': files, 'variable': variable, 'dims': dims, 'select': select,
        'decode': decode,
        'index_slabs': slabs, 'shape': shape, 'dtype': dtype,
        'dtypes': {'xarray': str(xv.dtype), 'netCDF4': str(nv.dtype if nv is not None else xv.dtype)},
        'oracle': oracle, 'masked': int(mask.sum()),
        'sum': float(ok.astype('f8').sum()), 'min': None if ok.size == 0 else float(ok.min()),
        'max': None if ok.size == 0 else float(ok.max()),
        'sha256': hashlib.sha256(c.tobytes()).hexdigest(), 'coords': coords, 'values': None}
    if c.size <= LISTED:
        if c.dtype.kind == 'f':
            entry['values'] = [None if np.isnan(x) else float(x) for x in c.ravel()]
        else:
            entry['values'] = [int(x) for x in c.ravel()]
    if note:
        entry['note'] = note
    cases.append(entry)


ERA5, CMIP = ['era5.nc'], [f for f, _, _, _ in CMIP_FILES]
XR32 = ('dtype', 'float32')  # xarray: int16 with a _FillValue unpacked in float32
for variable in ['t2m', 'tp']:
    case('era5_%s_whole' % variable, ERA5, variable, '', True, XR32)
    case('era5_%s_raw' % variable, ERA5, variable, '', False)
BOX = 'time=2020-06-02:2020-06-03T12:00, latitude=30:45, longitude=100:120'
case('era5_box', ERA5, 't2m', BOX, True, XR32,
     note='a descending latitude axis, the ends on the grid and included; the missing patch')
case('era5_box_raw', ERA5, 't2m', BOX, False)
case('era5_tp_box', ERA5, 'tp', BOX, True, XR32)
case('era5_lat_reversed', ERA5, 't2m', 'latitude=45:30', True, XR32,
     note='the same rows as latitude=30:45')
case('era5_lat_ordered', ERA5, 't2m', 'latitude=30:45', True, XR32)
case('era5_nearest', ERA5, 't2m', 'time=2020-06-02T05:00, latitude=31.1, longitude=101.4', True,
     XR32, note='nearest: 2020-06-02T06:00, 30.0, 102.5 (no ties); each dimension kept, length 1')
case('era5_wrap', ERA5, 't2m', 'longitude=350:10', True, XR32,
     note='lo > hi: across 0, two runs; elements in file order (0..10 first, then 350..357.5)')
case('era5_wrap_negative', ERA5, 't2m', 'longitude=-10:10', True, XR32,
     note='the set of longitude=350:10')
case('era5_wrap_small', ERA5, 't2m', 'time=2020-06-01T00:00, latitude=90:85, longitude=350:10',
     True, XR32, note='the wrap case cut to list its values; the pole patch')
case('era5_wrap_small_negative', ERA5, 't2m', 'time=2020-06-01, latitude=85:90, longitude=-10:10',
     True, XR32)
for f, _, _, _ in CMIP_FILES:
    case('%s_whole' % f[:-3], [f], 'tas', '', True)
    case('%s_raw' % f[:-3], [f], 'tas', '', False)
case('cmip_series_whole', CMIP, 'tas', '', True)
case('cmip_series_raw', CMIP, 'tas', '', False)
case('cmip_series_box', CMIP, 'tas', 'time=2015-02-25:2015-03-03, lat=-10:10, lon=0:20', True,
     note='across cmip_1/cmip_2 and 28 Feb -> 1 Mar (noleap); cmip_0 empty; 2015-03-03 is '
          'midnight, so 2015-03-03T12:00 is not included')
case('cmip_series_box_raw', CMIP, 'tas', 'time=2015-02-25:2015-03-03, lat=-10:10, lon=0:20', False)
case('cmip_nearest_tie', CMIP, 'tas', 'time=2015-01-15', True,
     note='midnight lies halfway between 01-14T12 and 01-15T12: xarray takes the larger time')
case('cmip_nearest', CMIP, 'tas', 'time=2015-01-14T23', True, note='01-14T12, 11 h away')
case('cmip_nearest_across_files', CMIP, 'tas', 'time=2015-01-19T01, lat=80:90, lon=0:20', True,
     note='between the last step of cmip_0 (13 h) and the first of cmip_1 (11 h)')
case('cmip_year_end', CMIP, 'tas', 'time=2014-12-30:2015-01-02, lat=-2.5:2.5, lon=355:5', True,
     note='across the year end; lon wraps: 0 and 5 then 355')
case('cmip_open_ends', CMIP, 'tas', 'time=2015-03-08:, lat=80:, lon=0:10', True,
     note='open upper ends: to the end of the series and the top of the axis')
for variable in ['pr', 'hurs']:
    case('day360_%s_whole' % variable, ['day360.nc'], variable, '', True, ('valid',))
    case('day360_%s_raw' % variable, ['day360.nc'], variable, '', False)
    case('day360_%s_feb30' % variable, ['day360.nc'], variable, 'time=2000-02-28:2000-03-01', True,
         ('valid',), note='2000-02-28, 29, 30, 03-01 (360_day); values outside the valid range '
                          'masked, the range ends included')
case('day360_pr_feb30_raw', ['day360.nc'], 'pr', 'time=2000-02-28:2000-03-01', False)
case('unsigned_ub_whole', ['unsigned.nc'], 'ub', '', True,
     note='_Unsigned byte: raw -1 is the _FillValue (255 unsigned); unpacked 10 + 0.5 * u, float32')
case('unsigned_ub_raw', ['unsigned.nc'], 'ub', '', False,
     note='the stored bytes, _Unsigned not applied')
case('unsigned_us_whole', ['unsigned.nc'], 'us', '', True, ('unsigned_missing',),
     note='_Unsigned short: missing_value [-1, -2] masks 65535 and 65534; -32767 (32769) stays')
case('unsigned_us_raw', ['unsigned.nc'], 'us', '', False)
case('unsigned_ub_rows', ['unsigned.nc'], 'ub', 'y=1500:3500', True)
case('unsigned_us_rows', ['unsigned.nc'], 'us', 'y=3500:1500, x=2400', True, ('unsigned_missing',),
     note='x=2400: the nearest x, 2500')
case('scale_series_whole', ['scale_a.nc', 'scale_b.nc'], 'sst', '', True,
     note='each file unpacked with its own float32 scale_factor/add_offset, in float32 arithmetic')
case('scale_series_raw', ['scale_a.nc', 'scale_b.nc'], 'sst', '', False)
case('scale_series_box', ['scale_a.nc', 'scale_b.nc'], 'sst',
     'time=2000-01-09:2000-01-12, lat=-35:-20, lon=170:-160', True,
     note='across the two packings; lon wraps 171 .. -165')
case('scales_whole', ['scales.h5'], 'temperature', '', True)
case('scales_raw', ['scales.h5'], 'temperature', '', False)
case('scales_wrap', ['scales.h5'], 'temperature', 'lon=170:-170', True,
     note='across 180 on a -180..180 axis: -180..-170 first, then 170..177.5')
case('scales_lat', ['scales.h5'], 'temperature', 'lat=10:-10', True, note='a descending axis')
case('scales_time', ['scales.h5'], 'temperature', 'time=2000-01-01T03:00:2000-01-01T07:00', True,
     note='dates with colons on both ends')
case('scales_box', ['scales.h5'], 'temperature',
     'time=2000-01-01T03:00:2000-01-01T07:00, lat=10:-10, lon=170:-170', True)
case('scales_open', ['scales.h5'], 'temperature', 'time=:2000-01-01T01, lat=:-30, lon=-5:5', True,
     note='open lower ends; lat=:-30 on a descending axis is its last rows')


# ---------------------------------------------------------------------------------------------
# Each file's attributes, as netCDF4-python reads them (h5py for scales.h5)
def plain(value):
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, str):
        return value
    return [x.item() if hasattr(x, 'item') else x for x in np.atleast_1d(value)]


def type_name(value):
    if isinstance(value, str):
        return 'string'
    return str(np.asarray(value).dtype)


attributes, attribute_types, dimensions = {}, {}, {}
formats = {'scales.h5': 'HDF5 (h5py, dimension scales)'}
for f in ['era5.nc'] + CMIP + ['day360.nc', 'unsigned.nc', 'scale_a.nc', 'scale_b.nc']:
    with netCDF4.Dataset(path(f)) as ds:
        ds.set_auto_maskandscale(False)
        objs = [('/', ds)] + list(ds.variables.items())
        attributes[f] = {n: {a: plain(o.getncattr(a)) for a in o.ncattrs()} for n, o in objs}
        attribute_types[f] = {n: {a: type_name(o.getncattr(a)) for a in o.ncattrs()} for n, o in objs}
        formats[f] = ds.data_model
        dimensions[f] = {n: list(v.dimensions) for n, v in ds.variables.items()}
with h5py.File(path('scales.h5'), 'r') as h:
    attributes['scales.h5'], attribute_types['scales.h5'] = {}, {}
    for n, o in [('/', h)] + [(k, h[k]) for k in h]:
        attributes['scales.h5'][n], attribute_types['scales.h5'][n] = {}, {}
        for a in o.attrs:
            if a in ('DIMENSION_LIST', 'REFERENCE_LIST'):
                continue  # object references: the dimension scales' bookkeeping
            t = o.attrs.get_id(a).get_type()
            attributes['scales.h5'][n][a] = plain(o.attrs[a])
            if isinstance(t, h5py.h5t.TypeStringID):
                attribute_types['scales.h5'][n][a] = ('vlen_string' if t.is_variable_str()
                                                      else 'fixed_string')
            else:
                attribute_types['scales.h5'][n][a] = str(o.attrs[a].dtype) + (
                    ' scalar' if o.attrs.get_id(a).shape == () else '')
        if isinstance(o, h5py.Dataset):  # the dimension scales attached, by name
            dimensions.setdefault('scales.h5', {})[n] = [
                d[0].name.lstrip('/') if len(d) else n for d in o.dims]


# ---------------------------------------------------------------------------------------------
# The oracles' behaviours README.md reports, checked on small files made and removed here
def observe():
    tmp = tempfile.mkdtemp()
    seen = {}

    def both(fn, name):
        with netCDF4.Dataset(fn) as ds:
            n = ds[name][:]
        with xr.open_dataset(fn) as ds:
            x = ds[name].load()
        return n, x

    def show(n):
        return [None if m else x.item() for x, m in zip(np.ma.getdata(n), np.ma.getmaskarray(n))]

    fn = os.path.join(tmp, 'o.nc')
    with netCDF4.Dataset(fn, 'w', format='NETCDF4') as ds:
        ds.createDimension('x', 4)

        def var(name, t, raw, fill=None, **attrs):
            v = ds.createVariable(name, t, ('x',), fill_value=fill)
            for k, a in attrs.items():
                v.setncattr(k, a)
            v.set_auto_maskandscale(False)
            v[:] = raw
        var('sf32_ao64', 'i2', [1, 2, 3, 4], scale_factor=np.float32(0.1), add_offset=np.float64(5))
        var('sf64_ao32', 'i2', [1, 2, 3, 4], scale_factor=np.float64(0.1), add_offset=np.float32(5))
        var('sf32_ao32', 'i2', [1, 2, 3, 4], scale_factor=np.float32(0.1), add_offset=np.float32(5))
        var('sf32', 'i2', [1, 2, 3, 4], scale_factor=np.float32(0.1))
        var('fill_sf64_ao64', 'i2', [1, 2, 3, 4], np.int16(-32767), scale_factor=np.float64(0.1),
            add_offset=np.float64(5))
        var('fill_sf32_ao32', 'i2', [1, 2, 3, 4], np.int16(-32767), scale_factor=np.float32(0.1),
            add_offset=np.float32(5))
        var('fill_f4', 'f4', [-1000, -999, 0, 5], np.float32(-999))
        var('fill_i2', 'i2', [99, 100, 101, -5], np.int16(100))
        var('missing_list', 'i2', [-1, -2, -3, 4], missing_value=np.array([-1, -2], 'i2'))
        var('default_f4', 'f4', [9.969209968386869e36, 1, 2, 3])
        var('default_i4', 'i4', [-2147483647, 1, 2, 3])
        var('default_i1', 'i1', [-127, 1, 2, 3])
        var('default_u1', 'u1', [255, 1, 2, 3])
        var('valid_packed', 'i2', [99, 100, 101, 0], valid_max=np.int16(100),
            scale_factor=np.float32(0.5))
        var('u_fill', 'i2', [-1, -2, -32767, 5], np.int16(-32767), _Unsigned='true')
        var('u_default', 'i2', [-1, -2, -32767, 5], _Unsigned='true')
        var('u_missing', 'i2', [-1, -2, -32767, 5], _Unsigned='true',
            missing_value=np.array([-1, -2], 'i2'))
        var('u_byte_fill', 'i1', [-1, -127, 127, 5], np.int8(-1), _Unsigned='true')
        var('u_valid_max', 'i1', [-1, -127, 100, 101], _Unsigned='true', valid_max=np.int8(100))
        var('u_valid_range', 'i1', [-1, -127, -56, -55], _Unsigned='true',
            valid_range=np.array([0, -56], 'i1'))  # 0..200 read as unsigned
    for name in ['sf32_ao64', 'sf64_ao32', 'sf32_ao32', 'sf32', 'fill_sf64_ao64', 'fill_sf32_ao32']:
        n, x = both(fn, name)
        seen['mixed_scale_dtype:' + name] = {'netCDF4': str(n.dtype), 'xarray': str(x.dtype)}
    for name in ['fill_f4', 'fill_i2', 'missing_list', 'default_f4', 'default_i4', 'default_i1',
                 'default_u1', 'valid_packed', 'u_fill', 'u_default', 'u_missing', 'u_byte_fill',
                 'u_valid_max', 'u_valid_range']:
        n, x = both(fn, name)
        seen[name] = {'netCDF4': show(n), 'xarray': [None if v != v else v for v in x.values.tolist()]}
    # bytes: the default fill with fill mode off (a NetCDF-4 variable stores it; NetCDF-3 does not)
    for fmt in ['NETCDF4', 'NETCDF3_CLASSIC']:
        for fill_on in [True, False]:
            fb = os.path.join(tmp, 'b.nc')
            with netCDF4.Dataset(fb, 'w', format=fmt) as ds:
                if not fill_on:
                    ds.set_fill_off()
                ds.createDimension('x', 3)
                ds.createVariable('b', 'i1', ('x',))[:] = [-127, 0, 1]
                ds.createVariable('s', 'i2', ('x',))[:] = [-32767, 0, 1]
            with netCDF4.Dataset(fb) as ds:
                seen['default_byte:%s:%s' % (fmt, 'fill' if fill_on else 'nofill')] = {
                    'netCDF4': {'b': show(ds['b'][:]), 's': show(ds['s'][:])}}
    # nearest: ties
    asc = xr.DataArray(np.arange(4), dims='x', coords={'x': [0.0, 1.0, 2.0, 3.0]})
    desc = xr.DataArray(np.arange(4), dims='x', coords={'x': [3.0, 2.0, 1.0, 0.0]})
    seen['nearest_tie'] = {
        'ascending 0,1,2,3 sel 1.5': float(asc.sel(x=[1.5], method='nearest').x[0]),
        'descending 3,2,1,0 sel 1.5': float(desc.sel(x=[1.5], method='nearest').x[0])}
    shutil.rmtree(tmp)
    expect = {
        'mixed_scale_dtype:sf32_ao64': {'netCDF4': 'float32', 'xarray': 'float64'},
        'mixed_scale_dtype:sf64_ao32': {'netCDF4': 'float64', 'xarray': 'float64'},
        'mixed_scale_dtype:sf32_ao32': {'netCDF4': 'float32', 'xarray': 'float64'},
        'mixed_scale_dtype:sf32': {'netCDF4': 'float32', 'xarray': 'float32'},
        'mixed_scale_dtype:fill_sf64_ao64': {'netCDF4': 'float64', 'xarray': 'float32'},
        'mixed_scale_dtype:fill_sf32_ao32': {'netCDF4': 'float32', 'xarray': 'float32'},
        'fill_f4': [-1000.0, None, 0.0, 5.0], 'fill_i2': [99, None, 101, -5],
        'missing_list': [None, None, -3, 4], 'default_f4': [None, 1.0, 2.0, 3.0],
        'default_i4': [None, 1, 2, 3], 'default_i1': [None, 1, 2, 3], 'default_u1': [None, 1, 2, 3],
        'valid_packed': [49.5, 50.0, None, 0.0],
        'u_fill': [65535, 65534, None, 5], 'u_default': [65535, 65534, 32769, 5],
        'u_missing': [None, None, 32769, 5], 'u_byte_fill': [None, 129, 127, 5],
        'u_valid_max': [None, None, 100, None], 'u_valid_range': [None, 129, 200, None],
        'default_byte:NETCDF4:fill': {'b': [None, 0, 1], 's': [None, 0, 1]},
        'default_byte:NETCDF4:nofill': {'b': [-127, 0, 1], 's': [None, 0, 1]},
        'default_byte:NETCDF3_CLASSIC:fill': {'b': [None, 0, 1], 's': [None, 0, 1]},
        'default_byte:NETCDF3_CLASSIC:nofill': {'b': [None, 0, 1], 's': [None, 0, 1]},
        'xarray:default_f4': [9.969209968386869e36, 1.0, 2.0, 3.0],
        'xarray:default_i4': [-2147483647, 1, 2, 3],
        'xarray:u_missing': [65535.0, 65534.0, 32769.0, 5.0],
        'xarray:u_byte_fill': [None, 129.0, 127.0, 5.0],
        'xarray:valid_packed': [49.5, 50.0, 50.5, 0.0],
        'nearest_tie': {'ascending 0,1,2,3 sel 1.5': 2.0, 'descending 3,2,1,0 sel 1.5': 2.0}}
    for k, want in expect.items():
        if k.startswith('xarray:'):
            got = seen[k[7:]]['xarray']
            got = [float(g) if g is not None and isinstance(want[0], float) else g for g in got]
            if k == 'xarray:default_f4':
                got = [float(np.float32(g)) for g in got]
                want = [float(np.float32(w)) for w in want]
        elif k.startswith('mixed') or k == 'nearest_tie':
            got = seen[k]
        elif k.startswith('default_byte'):
            got = seen[k]['netCDF4']
        else:
            got = seen[k]['netCDF4']
        assert got == want, 'the oracle changed: %s gave %s, README says %s' % (k, got, want)
    return seen


observed = observe()

with open(path('expected_cf.json'), 'w') as out:
    # a case a line; the attributes a file a line
    out.write('{"cases": [\n' + ',\n'.join(json.dumps(c) for c in cases) + '],\n')
    out.write('"attributes": {\n' + ',\n'.join(json.dumps(k) + ': ' + json.dumps(v)
                                                for k, v in attributes.items()) + '},\n')
    out.write('"attribute_types": {\n' + ',\n'.join(json.dumps(k) + ': ' + json.dumps(v)
                                                     for k, v in attribute_types.items()) + '},\n')
    out.write('"formats": ' + json.dumps(formats) + ',\n')
    out.write('"dimensions": ' + json.dumps(dimensions) + ',\n')
    out.write('"observed": {\n' + ',\n'.join(json.dumps(k) + ': ' + json.dumps(v)
                                              for k, v in observed.items()) + '},\n')
    out.write('"libraries": ' + json.dumps({
        'netCDF4': netCDF4.__version__, 'netcdf-c': netCDF4.__netcdf4libversion__,
        'h5py': h5py.__version__, 'hdf5': h5py.version.hdf5_version,
        'xarray': '2023.01.0 (Debian python3-xarray)',
        'cftime': cftime.__version__, 'h5netcdf': h5netcdf.__version__, 'pandas': pd.__version__,
        'numpy': np.__version__}) + '}\n')
print(len(cases), 'cases;', ', '.join('%s %d' % (f, os.path.getsize(path(f))) for f in sorted(
    os.listdir(HERE)) if f.endswith(('.nc', '.h5', '.json'))))
