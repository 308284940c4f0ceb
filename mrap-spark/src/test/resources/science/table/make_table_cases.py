#!/usr/bin/python3
"""Writes expected_table.json: what the Spark source's table layout of a NetCDF/HDF5 variable must
return for a few SQL queries over the CF fixtures of mrap-core
(mrap-core/src/test/resources/science/cf) and two fixtures it writes itself in its folder, as
xarray computes it. The two fixtures hold several variables on one grid, each stored
differently: grids.nc (NetCDF-4: chunks of three shapes, compressed or not, a contiguous
variable, a variable whose chunks are partly never written) and records.nc (NetCDF-3 classic:
record variables interleaved record by record, a non-record variable among them).

The table layout: one row per grid point; a column per dimension of the variables, named as the
dimension, holding its coordinate value; a column per variable holding its CF-decoded value
(netCDF4-python's auto mask and scale; masked -> null). A CF time in a standard, gregorian,
proleptic_gregorian or julian calendar is a TimestampType (UTC); in noleap, all_leap (365_day,
366_day) or 360_day a string 'YYYY-MM-DDTHH:MM:SS'. Other coordinates keep their stored type; a
dimension without a coordinate variable gives its index as a long.

The oracle: xr.open_dataset (one file) or xr.open_mfdataset(files, combine='by_coords'), then
.sel / boolean masks (isel) for the WHERE clause's conditions on coordinates, then
ds[variables].to_dataframe(dim_order=<the variables' dimensions>).reset_index(), then the
conditions on values on the data frame. Where mrap-core's cf/README.md says we follow
netCDF4-python rather than xarray (ERA5's float64 unpacking, valid_range/valid_min/valid_max),
the values are netCDF4-python's, and the script asserts that xarray's differ only in the
documented way. Every case is then computed a second, independent way: the WHERE clause itself is
parsed and evaluated (SQL three-valued logic) over the whole grid as read with netCDF4-python
(h5py for the HDF5 product), and the rows must be the same.

Run with Debian's interpreter from anywhere: /usr/bin/python3 make_table_cases.py
(python3-xarray 2023.01.0, python3-netcdf4 1.6.2 on netCDF-C 4.9.0, python3-h5py 3.7 on HDF5
1.10.8, h5netcdf 1.1, cftime 1.6.2, pandas 1.5.3, numpy 1.24, dask 2022.12). Deterministic: two
runs write the same bytes.
"""
import datetime
import json
import os
import re
import subprocess
import warnings

import cftime
import dask
import h5netcdf
import h5py
import netCDF4
import numpy as np
import pandas as pd
import xarray as xr

warnings.simplefilter('ignore')  # xarray's remarks on NaN and on open_mfdataset
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, *['..'] * 6))  # the repository
CF = 'mrap-core/src/test/resources/science/cf/'
assert os.path.isfile(os.path.join(ROOT, CF, 'era5.nc')), ROOT

TIMESTAMP_CALENDARS = ('standard', 'gregorian', 'proleptic_gregorian', 'julian')
STRING_CALENDARS = ('noleap', '365_day', 'all_leap', '366_day', '360_day')
SPARK_TYPES = {'float32': 'float', 'float64': 'double', 'int8': 'byte', 'int16': 'short',
               'int32': 'int', 'int64': 'long', 'uint8': 'short', 'uint16': 'int',
               'uint32': 'long'}


def full(f):
    return os.path.join(ROOT, f)


# =============================================================================================
# Formatting of the values as the JSON holds them
def spark_timestamp(ts):
    """A UTC instant as Spark prints cast(ts as string) with spark.sql.session.timeZone=UTC:
    'YYYY-MM-DD HH:MM:SS', then '.' and the fraction without trailing zeros if there is one."""
    ts = pd.Timestamp(ts)
    assert ts.nanosecond == 0, ts
    text = ts.strftime('%Y-%m-%d %H:%M:%S')
    if ts.microsecond:
        text += ('.%06d' % ts.microsecond).rstrip('0')
    return text


def cf_string(d):
    """A date of a non-standard calendar: ISO 'YYYY-MM-DDTHH:MM:SS', '.ffffff' if non-zero."""
    text = '%04d-%02d-%02dT%02d:%02d:%02d' % (d.year, d.month, d.day, d.hour, d.minute, d.second)
    if d.microsecond:
        text += '.%06d' % d.microsecond
    return text


def number(x, dtype):
    """A JSON number: float32 widened exactly to float64; NaN -> null."""
    if dtype.kind == 'f':
        x = float(np.dtype(dtype).type(x))
        return None if x != x else x
    return int(x)


# =============================================================================================
# The fixtures of this folder: several variables on one grid, each stored differently
TABLE = 'mrap-spark/src/test/resources/science/table/'
GRIDS = [TABLE + 'grids.nc']
RECORDS = [TABLE + 'records.nc']
rng = np.random.default_rng(20010101)
# per file and variable, the elements that read back masked: a fill value written, or never
# written (for the checks of the null counts)
MISSING = {'grids': {}, 'records': {}}

# grids.nc: a, b, c, d on (time, lat, lon), 12 x 20 x 30. time is fixed-size: netCDF-C refuses a
# contiguous variable on an unlimited dimension (NC_EINVAL)
NT, NY, NX = 12, 20, 30
GRID_SHAPE = (NT, NY, NX)
D_WRITES = [(slice(0, 3), slice(None), slice(None)),     # d's chunks in time row 0: all
            (slice(3, 6), slice(0, 14), slice(None)),    # row 1: not lat 14..19
            (slice(6, 9), slice(None), slice(0, 22)),    # row 2: not lon 22..29
            (slice(9, 12), slice(0, 7), slice(None)),    # row 3: lat 0..6 only, and
            (slice(10, 12), slice(7, 14), slice(11, 20))]  # a part of one chunk (its rest: fill)
with netCDF4.Dataset(full(GRIDS[0]), 'w', format='NETCDF4') as ds:
    ds.Conventions = 'CF-1.8'
    ds.title = 'four variables on one grid, each stored differently'
    ds.createDimension('time', NT)
    ds.createDimension('lat', NY)
    ds.createDimension('lon', NX)
    time = ds.createVariable('time', 'f8', ('time',))
    time.units, time.calendar, time.standard_name = 'hours since 2001-01-01', 'standard', 'time'
    time[:] = np.arange(NT) * 6.0
    lat = ds.createVariable('lat', 'f4', ('lat',))
    lat.units, lat.standard_name = 'degrees_north', 'latitude'
    lat[:] = 28.5 - 3.0 * np.arange(NY)    # descending
    lon = ds.createVariable('lon', 'f4', ('lon',))
    lon.units, lon.standard_name = 'degrees_east', 'longitude'
    lon[:] = 100.0 + 2.5 * np.arange(NX)
    hh = np.arange(NT)[:, None, None]
    y = np.arange(NY)[None, :, None]
    x = np.arange(NX)[None, None, :]

    # a: float32, chunks (4, 10, 10), zlib without shuffle (netCDF4-python's default is with)
    a = np.round((285 + 8 * np.cos(y / 6.0) + 2 * np.sin(x / 4.0 + hh / 3.0)
                  + rng.normal(0, 0.05, GRID_SHAPE)) * 16) / 16
    a[2:4, 8:11, 9:12] = -999.0   # across a's chunk edges at lat 10 and lon 10 (grids_all)
    a[6, 15, 20] = -999.0         # grids_driver_d
    a[10, 18, 28:30] = -999.0
    a[11, 19, 29] = -999.0        # the last element
    v = ds.createVariable('a', 'f4', ('time', 'lat', 'lon'), fill_value=np.float32(-999),
                          zlib=True, shuffle=False, complevel=4, chunksizes=(4, 10, 10))
    v.units, v.long_name = 'K', 'air temperature'
    v.set_auto_maskandscale(False)
    v[:] = a.astype('f4')
    MISSING['grids']['a'] = a == -999.0

    # b: int16 packed with float32 scale_factor/add_offset, chunks (2, 5, 30), shuffle + zlib
    phys = (12 + 4 * np.sin(y / 5.0 + hh / 4.0) * np.cos(x / 7.0)
            + rng.normal(0, 0.02, GRID_SHAPE))
    b = np.round((phys - 10.0) / 0.01).astype('i2')
    b[0, 0, 0] = -32767
    b[5, 4:6, 7] = -32767         # across b's chunk edge at lat 5 (grids_all)
    b[3, 6, 10:12] = -32767       # grids_b_first
    b[8, 10, 19] = -32767
    v = ds.createVariable('b', 'i2', ('time', 'lat', 'lon'), fill_value=np.int16(-32767),
                          zlib=True, shuffle=True, complevel=4, chunksizes=(2, 5, 30))
    v.scale_factor, v.add_offset = np.float32(0.01), np.float32(10)
    v.units, v.long_name = 'm s-1', 'wind speed'
    v.set_auto_maskandscale(False)
    v[:] = b
    MISSING['grids']['b'] = b == -32767

    # c: float64, contiguous
    c = 1000 + 25 * np.cos(y / 4.0 - x / 9.0) + 0.5 * hh + rng.normal(0, 0.5, GRID_SHAPE)
    c[4, 12, 14:17] = -9999.0     # grids_all
    c[7, 2, 5] = -9999.0          # grids_b_first
    c[0, 19, 19] = -9999.0
    c[9, 2, 25] = -9999.0
    v = ds.createVariable('c', 'f8', ('time', 'lat', 'lon'), fill_value=-9999.0,
                          contiguous=True)
    v.units, v.long_name = 'hPa', 'air pressure'
    v.set_auto_maskandscale(False)
    v[:] = c
    MISSING['grids']['c'] = c == -9999.0

    # d: float32, chunks (3, 7, 11), uncompressed, partly written: 11 of its 36 chunks are
    # never written (HDF5 allocates chunks when written), one chunk only in part
    dd = np.round((0.5 * hh + y - x / 10.0 + rng.normal(0, 0.1, GRID_SHAPE)) * 100) / 100
    dd[2, 3, 5] = -999.0          # written chunks holding the fill value (grids_all)
    dd[7, 10:12, 15] = -999.0     # (grids_all, grids_driver_d)
    dd[10, 9, 12] = -999.0        # inside the part written of the partly written chunk
    v = ds.createVariable('d', 'f4', ('time', 'lat', 'lon'), fill_value=np.float32(-999),
                          chunksizes=(3, 7, 11))
    v.units, v.long_name = 'kg m-2', 'snow amount'
    v.set_auto_maskandscale(False)
    written = np.zeros(GRID_SHAPE, bool)
    for box in D_WRITES:
        v[box] = dd[box].astype('f4')
        written[box] = True
    MISSING['grids']['d'] = ~written | (dd == -999.0)

with h5py.File(full(GRIDS[0]), 'r') as h:
    for name, chunks, comp, shuffle, stored in [('a', (4, 10, 10), 'gzip', False, 18),
                                                ('b', (2, 5, 30), 'gzip', True, 24),
                                                ('c', None, None, False, None),
                                                ('d', (3, 7, 11), None, False, 25)]:
        dset = h[name]
        assert (dset.chunks, dset.compression, dset.shuffle) == (chunks, comp, shuffle), name
        if stored is not None:
            assert dset.id.get_num_chunks() == stored, (name, dset.id.get_num_chunks())
    assert h['c'].id.get_offset() is not None  # contiguous, allocated

# records.nc: NetCDF-3 classic, record variables u (short, packed) and v (float) interleaved
# record by record with time; w, a non-record variable, between them in the header. 7 x 11
# shorts are 154 bytes, padded to 156 in each record
RT, RY, RX = 10, 7, 11
REC_SHAPE = (RT, RY, RX)
with netCDF4.Dataset(full(RECORDS[0]), 'w', format='NETCDF3_CLASSIC') as ds:
    ds.Conventions = 'CF-1.6'
    ds.createDimension('time', None)
    ds.createDimension('lat', RY)
    ds.createDimension('lon', RX)
    time = ds.createVariable('time', 'f8', ('time',))
    time.units, time.calendar = 'days since 2001-01-01 00:00:00', 'gregorian'
    time.standard_name = 'time'
    lat = ds.createVariable('lat', 'f4', ('lat',))
    lat.units, lat.standard_name = 'degrees_north', 'latitude'
    lat[:] = -9.0 + 3.0 * np.arange(RY)
    lon = ds.createVariable('lon', 'f8', ('lon',))
    lon.units, lon.standard_name = 'degrees_east', 'longitude'
    lon[:] = 5.0 * np.arange(RX)
    u = ds.createVariable('u', 'i2', ('time', 'lat', 'lon'), fill_value=np.int16(-32767))
    u.scale_factor = np.float32(0.05)
    u.units, u.long_name = 'm s-1', 'eastward wind'
    w = ds.createVariable('w', 'f8', ('lat', 'lon'))
    w.units, w.long_name = 'm', 'surface altitude'
    v = ds.createVariable('v', 'f4', ('time', 'lat', 'lon'), fill_value=np.float32(-9999))
    v.units, v.long_name = 'm s-1', 'northward wind'
    time[:] = 0.5 * np.arange(RT)   # 12-hourly
    hh = np.arange(RT)[:, None, None]
    y = np.arange(RY)[None, :, None]
    x = np.arange(RX)[None, None, :]
    uu = np.round((6 * np.sin(x / 3.0 + hh / 5.0) * np.cos(y / 4.0)
                   + rng.normal(0, 0.2, REC_SHAPE)) / 0.05).astype('i2')
    uu[3, 2:4, 5] = -32767        # records_uv
    uu[9, 6, 10] = -32767
    u.set_auto_maskandscale(False)
    u[:] = uu
    MISSING['records']['u'] = uu == -32767
    w[:] = np.round(300 + 100 * np.cos(y[0] / 2.0) * np.sin(x[0] / 3.0), 2)
    vv = np.round((3 * np.cos(x / 4.0 - hh / 3.0) + y / 7.0
                   + rng.normal(0, 0.2, REC_SHAPE)) * 64) / 64
    vv[4, 0, 0:3] = -9999.0       # lon 0, 5, 10: one in records_v_only
    vv[6, 3, 7] = -9999.0         # records_v_only
    vv[5, 4, 8] = -9999.0         # records_uv and records_v_only
    v.set_auto_maskandscale(False)
    v[:] = vv.astype('f4')
    MISSING['records']['v'] = vv == -9999.0
assert not h5py.is_hdf5(full(RECORDS[0]))


# =============================================================================================
# The cases
def noleap(*a):
    return cftime.DatetimeNoLeap(*a)


def day360(*a):
    return cftime.Datetime360Day(*a)


T = pd.Timestamp
ERA5 = [CF + 'era5.nc']
CMIP = [CF + 'cmip_0.nc', CF + 'cmip_1.nc', CF + 'cmip_2.nc']
CASES = []


def case(name, files, variables, where, pushable, select, value_filter=None, note=''):
    """select(ds) applies the WHERE clause's conditions on coordinates with xarray;
    value_filter(df) those on values, to the data frame (with the oracle's values)."""
    CASES.append(dict(name=name, files=files, variables=variables, where=where,
                      pushable=pushable, select=select, value_filter=value_filter, note=note))


case('era5_box', ERA5, ['t2m', 'tp'],
     "time BETWEEN TIMESTAMP '2020-06-02 00:00:00' AND TIMESTAMP '2020-06-03 12:00:00' "
     "AND latitude BETWEEN 30 AND 45 AND longitude BETWEEN 100 AND 120", True,
     lambda ds: ds.sel(time=slice(T('2020-06-02 00:00'), T('2020-06-03 12:00')),
                       latitude=slice(45, 30), longitude=slice(100, 120)),
     note="the issue's query: BETWEEN on the three coordinates, ends on the grid and included; "
          "latitude descending in the file; t2m's missing patch and tp's row of missing elements")
case('era5_lon_wrap', ERA5, ['t2m'],
     '(longitude >= 350 OR longitude <= 10) AND latitude >= 60', False,
     lambda ds: ds.sel(latitude=slice(None, 60)).isel(
         longitude=((ds.longitude >= 350) | (ds.longitude <= 10)).values),
     note='across 0 degrees: an OR on longitude, not a conjunction of ranges; the pole patch')
case('era5_strict', ERA5, ['tp'],
     "latitude > 27.5 AND latitude < 37.5 AND time > TIMESTAMP '2020-06-02 12:00:00' "
     "AND longitude > 97.5 AND longitude < 110", True,
     lambda ds: ds.isel(latitude=((ds.latitude > 27.5) & (ds.latitude < 37.5)).values,
                        longitude=((ds.longitude > 97.5) & (ds.longitude < 110)).values,
                        time=(ds.time > np.datetime64('2020-06-02T12:00')).values),
     note='strict inequalities whose ends are grid values (27.5, 37.5, 06-02T12, 97.5, 110: '
          'excluded); no upper end on time; tp missing at latitude 30')
case('era5_in', ERA5, ['t2m', 'tp'],
     "latitude IN (30.0, 32.5, 41.0, 45.0) AND longitude = 100 "
     "AND time = TIMESTAMP '2020-06-02 00:00:00'", True,
     lambda ds: ds.isel(latitude=ds.latitude.isin([30.0, 32.5, 41.0, 45.0]).values).sel(
         longitude=[100.0], time=[T('2020-06-02 00:00')]),
     note='IN on latitude (41.0 is no grid value), equality on longitude and time; tp missing '
          'at latitude 30')
case('era5_value_filter', ERA5, ['t2m', 'tp'],
     't2m > 280 AND latitude BETWEEN 30 AND 45 AND longitude BETWEEN 100 AND 120', False,
     lambda ds: ds.sel(latitude=slice(45, 30), longitude=slice(100, 120)),
     lambda df: df['t2m'] > 280,
     note='a condition on a value: Spark applies it; rows whose t2m is missing (18 in the range) '
          'are absent (null > 280 is not true), rows whose tp is missing stay with tp null')
case('cmip_series', CMIP, ['tas'],
     "time >= '2015-01-17' AND time < '2015-03-03' AND lat BETWEEN -10 AND 10 "
     "AND lon BETWEEN 0 AND 20", True,
     lambda ds: ds.sel(lat=slice(-10, 10), lon=slice(0, 20)).isel(
         time=((ds.time >= noleap(2015, 1, 17)) & (ds.time < noleap(2015, 3, 3))).values),
     note='noleap, a string time column compared as strings: across the three files '
          '(NETCDF4 chunked, NETCDF4_CLASSIC, NETCDF3_64BIT_OFFSET) and 28 Feb -> 1 Mar')
case('day360_feb30', [CF + 'day360.nc'], ['pr', 'hurs'],
     "time BETWEEN '2000-02-28' AND '2000-03-01T00:00:00'", True,
     lambda ds: ds.sel(time=slice(day360(2000, 2, 28), day360(2000, 3, 1))),
     note="360_day: 02-28, 02-29, 02-30, 03-01 as strings; the upper end is written "
          "'2000-03-01T00:00:00' because '2000-03-01T00:00:00' > '2000-03-01' as strings; "
          "values outside valid_range / valid_min..valid_max are null (netCDF4-python)")
case('scales_wrap', [CF + 'scales.h5'], ['temperature'],
     "(lon >= 170 OR lon <= -170) AND lat BETWEEN -10 AND 10 "
     "AND time BETWEEN TIMESTAMP '2000-01-01 02:00:00' AND TIMESTAMP '2000-01-01 09:00:00'", False,
     lambda ds: ds.sel(lat=slice(10, -10), time=slice(T('2000-01-01 02:00'), T('2000-01-01 09:00')))
     .isel(lon=((ds.lon >= 170) | (ds.lon <= -170)).values),
     note='HDF5 dimension scales; across 180 degrees on a -180..177.5 axis; the -999 patch')
case('scales_box', [CF + 'scales.h5'], ['temperature'],
     "lon BETWEEN 160 AND 180 AND lat BETWEEN -5 AND 15 "
     "AND time >= '2000-01-01 04:00:00' AND time < '2000-01-01 11:00:00'", True,
     lambda ds: ds.sel(lon=slice(160, 180), lat=slice(15, -5)).isel(
         time=((ds.time >= np.datetime64('2000-01-01T04:00'))
               & (ds.time < np.datetime64('2000-01-01T11:00'))).values),
     note='a range to the end of the longitude axis (180 is beyond 177.5); a timestamp column '
          'compared with string literals (Spark casts them to timestamps)')
case('era5_lat90', ERA5, ['t2m'], 'latitude = 90', True,
     lambda ds: ds.sel(latitude=[90.0]),
     note='one latitude row: all 20 times and 144 longitudes; the pole patch')
case('cmip_lat_bnds', [CF + 'cmip_0.nc'], ['lat_bnds'],
     'lat BETWEEN -10 AND 10 AND bnds = 1', True,
     lambda ds: ds.sel(lat=slice(-10, 10)).isel(bnds=[1]),
     note='a dimension without a coordinate variable (bnds): its index as a long')
case('grids_all', GRIDS, ['a', 'b', 'c', 'd'],
     "time BETWEEN TIMESTAMP '2001-01-01 12:00:00' AND TIMESTAMP '2001-01-03 00:00:00' "
     "AND lat BETWEEN -16.5 AND 19.5 AND lon BETWEEN 112.5 AND 160", True,
     lambda ds: ds.sel(time=slice(T('2001-01-01 12:00'), T('2001-01-03 00:00')),
                       lat=slice(19.5, -16.5), lon=slice(112.5, 160)),
     note='four variables on one grid, stored differently: a chunks (4, 10, 10) zlib, b int16 '
          'packed chunks (2, 5, 30) shuffle+zlib, c contiguous, d chunks (3, 7, 11) partly '
          'written; the box cuts through chunks of each; d null in its unwritten chunks')
case('grids_driver_d', GRIDS, ['d', 'a'],
     "time > TIMESTAMP '2001-01-02 00:00:00' AND lat <= 13.5 AND lon >= 135", True,
     lambda ds: ds.isel(time=(ds.time > np.datetime64('2001-01-02T00:00')).values).sel(
         lat=slice(13.5, None), lon=slice(135, None)),
     note="d drives (its chunks make the tasks), including chunks never written: there d is "
          "null (the fill value) and a has its values; a partly written chunk; d's fill value "
          "written inside written chunks")
case('grids_b_first', GRIDS, ['b', 'c'],
     'lat IN (22.5, 10.5, 10.0, -1.5, -28.5) AND lon > 110 AND lon < 150', True,
     lambda ds: ds.isel(lat=ds.lat.isin([22.5, 10.5, 10.0, -1.5, -28.5]).values,
                        lon=((ds.lon > 110) & (ds.lon < 150)).values),
     note='the packed chunked b drives, the contiguous c follows; IN on a descending latitude '
          '(10.0 is no grid value), strict bounds on longitude that are grid values, all times')
case('records_uv', RECORDS, ['u', 'v'],
     "time BETWEEN TIMESTAMP '2001-01-02 00:00:00' AND TIMESTAMP '2001-01-04 00:00:00' "
     "AND lat BETWEEN -5 AND 7", True,
     lambda ds: ds.sel(time=slice(T('2001-01-02 00:00'), T('2001-01-04 00:00')),
                       lat=slice(-5, 7)),
     note='NetCDF-3 classic record variables, interleaved record by record with time (u, '
          'short packed with a float scale_factor, padded from 154 to 156 bytes a record; v '
          'float); the non-record w between them in the header')
case('records_v_only', RECORDS, ['v'], 'lon BETWEEN 10 AND 40', True,
     lambda ds: ds.sel(lon=slice(10, 40)),
     note='the second record variable alone, every record (no condition on time)')


# =============================================================================================
# The oracle: xarray
def open_xarray(files):
    engine = 'h5netcdf' if files[0].endswith('.h5') else 'netcdf4'
    if len(files) == 1:
        return xr.open_dataset(full(files[0]), engine=engine)
    return xr.open_mfdataset([full(f) for f in files], combine='by_coords', engine=engine)


def file_info(files, variables):
    """Per file: the variables' dimensions, each dimension's length, and the time attributes;
    read with netCDF4-python."""
    info = []
    for f in files:
        with netCDF4.Dataset(full(f)) as ds:
            dims = list(ds[variables[0]].dimensions)
            for v in variables:
                assert list(ds[v].dimensions) == dims, (f, v)
            attrs = {d: ({a: ds[d].getncattr(a) for a in ds[d].ncattrs()} if d in ds.variables
                         else None) for d in dims}
            info.append({'dims': dims, 'sizes': {d: len(ds.dimensions[d]) for d in dims},
                         'attrs': attrs, 'stored': {d: ds[d].dtype for d in dims
                                                    if d in ds.variables}})
    for i in info[1:]:
        assert i['dims'] == info[0]['dims']
    return info


def column_kind(attrs):
    """'timestamp', 'string' (a CF time), 'number' or 'index' (no coordinate variable)."""
    if attrs is None:
        return 'index'
    if 'since' in str(attrs.get('units', '')):
        cal = str(attrs.get('calendar', 'standard')).lower()
        if cal in TIMESTAMP_CALENDARS:
            return 'timestamp'
        assert cal in STRING_CALENDARS, cal
        return 'string'
    return 'number'


def netcdf4_values(files, variable):
    """The whole variable per file, as netCDF4-python's auto mask and scale decodes it."""
    out = []
    for f in files:
        with netCDF4.Dataset(full(f)) as ds:
            out.append(ds[variable][...])
    return out


def xarray_rows(spec):
    """The case as xarray computes it: a data frame with the dimension columns, the variables
    (the oracle's values), and per dimension `_i_<dim>` (the index in its file) and `_file`."""
    files, variables = spec['files'], spec['variables']
    info = file_info(files, variables)
    dims = info[0]['dims']
    ds = open_xarray(files)
    # positions along each dimension, in the concatenation of the files
    for d in dims:
        ds = ds.assign_coords({'_i_' + d: (d, np.arange(ds.sizes[d]))})
    if len(files) > 1:  # by_coords kept the files' order: their times one after another
        lengths = [i['sizes']['time'] for i in info]
        ds = ds.assign_coords(_file=('time', np.repeat(np.arange(len(files)), lengths)))
        starts = np.repeat(np.cumsum([0] + lengths[:-1]), lengths)
        ds = ds.assign_coords(_i_time=('time', np.arange(sum(lengths)) - starts))
        times = []
        for f in files:
            with netCDF4.Dataset(full(f)) as n:
                t = n['time']
                times += [cf_string(x) for x in cftime.num2date(t[:], t.units, t.calendar)]
        assert [cf_string(x) for x in ds.time.values] == times
    sub = spec['select'](ds)[variables]
    extra = [c for c in sub.coords if c not in sub.dims and not c.startswith('_')]
    sub = sub.reset_coords(extra, drop=True)  # e.g. CMIP's scalar `height`
    df = sub.to_dataframe(dim_order=dims).reset_index()
    if '_file' not in df.columns:
        df['_file'] = 0
    for d in dims:
        if column_kind(info[0]['attrs'][d]) == 'index':
            # a dimension without coordinates: to_dataframe numbers the rows of what is left
            # after isel from 0 (bnds=[1] gives 0); the table's column is the file's index
            df[d] = df['_i_' + d]
    # the values: netCDF4-python's; xarray's must agree except as cf/README.md documents
    oracle, dtypes = {}, {}
    for v in variables:
        nv = netcdf4_values(files, v)
        idx = [df['_i_' + d].to_numpy() for d in dims]
        fi = df['_file'].to_numpy()
        data = np.zeros(len(df), 'f8')
        mask = np.zeros(len(df), bool)
        for k, a in enumerate(nv):
            rows = fi == k
            part = a[tuple(i[rows] for i in idx)]
            data[rows] = np.ma.getdata(part).astype('f8')
            mask[rows] = np.ma.getmaskarray(part)
        ndtype = nv[0].dtype
        assert all(a.dtype == ndtype for a in nv), v
        xd = df[v].to_numpy().astype('f8')
        xm = np.isnan(xd)
        xdtype = sub[v].dtype
        with netCDF4.Dataset(full(files[0])) as n:
            attrs = n[v].ncattrs()
        if any(a in attrs for a in ('valid_range', 'valid_min', 'valid_max')):
            # xarray ignores valid ranges: it masks a subset, and agrees on the rest
            assert not (xm & ~mask).any(), (spec['name'], v)
            assert (xd[~mask] == data[~mask]).all(), (spec['name'], v)
            assert xdtype == ndtype, (spec['name'], v, xdtype, ndtype)
            oracle[v] = 'netCDF4 (valid range)' if (mask & ~xm).any() else 'xarray'
        elif xdtype != ndtype:
            # int16 with a _FillValue and float64 packing: xarray unpacks in float32
            assert (xdtype, ndtype) == (np.dtype('f4'), np.dtype('f8')), (v, xdtype, ndtype)
            assert (xm == mask).all(), (spec['name'], v)
            offset = 0.0
            for f in files:
                with netCDF4.Dataset(full(f)) as n:
                    offset = max(offset, abs(float(getattr(n[v], 'add_offset', 0.0))))
            ok = ~mask
            big = max(float(np.abs(data[ok]).max()), offset) if ok.any() else offset
            assert (np.abs(xd[ok] - data[ok]) <= 4 * float(np.spacing(np.float32(big)))).all()
            oracle[v] = 'netCDF4 (float64 unpacking)'
        else:
            assert (xm == mask).all() and (xd[~mask] == data[~mask]).all(), (spec['name'], v)
            oracle[v] = 'xarray'
        dtypes[v] = ndtype
        df['_x_' + v] = df[v]  # xarray's own values, for the value filter's check
        df[v] = np.where(mask, np.nan, data)
    if spec['value_filter'] is not None:
        keep = spec['value_filter'](df).to_numpy()
        xkeep = spec['value_filter'](df.rename(
            columns={**{v: '_o_' + v for v in variables},
                     **{'_x_' + v: v for v in variables}})).to_numpy()
        assert (keep == xkeep).all(), (spec['name'], 'xarray float32 filter selects other rows')
        df = df[keep]
    return df, dims, info, dtypes, oracle, sub


def to_rows(df, dims, info, dtypes, sub, variables):
    kinds = [column_kind(info[0]['attrs'][d]) for d in dims]
    types, conv = [], []
    for d, kind in zip(dims, kinds):
        if kind == 'timestamp':
            assert np.issubdtype(sub[d].dtype, np.datetime64), (d, sub[d].dtype)
            types.append('timestamp')
            conv.append(spark_timestamp)
        elif kind == 'string':
            assert sub[d].dtype == object, (d, sub[d].dtype)  # cftime objects
            types.append('string')
            conv.append(cf_string)
        elif kind == 'index':
            types.append('long')
            conv.append(int)
        else:
            stored = info[0]['stored'][d]
            assert sub[d].dtype == stored, (d, sub[d].dtype, stored)
            types.append(SPARK_TYPES[str(stored)])
            conv.append(lambda x, t=stored: number(x, t))
    for v in variables:
        types.append(SPARK_TYPES[str(dtypes[v])])
        conv.append(lambda x, t=dtypes[v]: number(x, t))
    cols = dims + variables
    rows = [[c(x) for c, x in zip(conv, r)] for r in df[cols].itertuples(index=False, name=None)]
    return cols, types, rows


def sort_key(row, ndims):
    """Ascending by the dimension columns: numbers numerically, the time strings as strings
    (zero-padded ISO strings sort chronologically)."""
    return tuple(row[:ndims])


# =============================================================================================
# Chunks and index boxes (h5py)
def chunks_and_boxes(df, files, variables, dims):
    """Per file, the stored chunks holding result rows and the index box; and per variable the
    number of chunks holding result rows that are not stored (never written; grids.nc's d)."""
    chunks_by_file, boxes, unwritten = [], [], {}
    for k, f in enumerate(files):
        part = df[df['_file'] == k]
        if len(part) == 0:
            chunks_by_file.append({})
            boxes.append(None)
            continue
        idx = np.stack([part['_i_' + d].to_numpy() for d in dims], axis=1)
        boxes.append({d: [int(idx[:, j].min()), int(idx[:, j].max())] for j, d in enumerate(dims)})
        entry = {}
        if h5py.is_hdf5(full(f)):
            with h5py.File(full(f), 'r') as h:
                for v in variables:
                    dset = h[v]
                    if dset.chunks is None:
                        continue  # contiguous
                    shape = np.array(dset.chunks)
                    wanted = {tuple(x) for x in (idx // shape).tolist()}
                    ranges = []
                    for c in range(dset.id.get_num_chunks()):
                        ci = dset.id.get_chunk_info(c)
                        if tuple((np.array(ci.chunk_offset) // shape).tolist()) in wanted:
                            ranges.append([int(ci.byte_offset), int(ci.size)])
                    missing = len(wanted) - len(ranges)
                    # only grids.nc's d has chunks never written
                    assert missing == 0 or (f, v) == (GRIDS[0], 'd'), (f, v, missing)
                    if missing:
                        unwritten[v] = unwritten.get(v, 0) + missing
                    entry[v] = sorted(ranges)
        chunks_by_file.append(entry)
    return chunks_by_file, boxes, unwritten


# =============================================================================================
# The independent check: the WHERE clause parsed and evaluated over the whole grid
TOKEN = re.compile(r"\s*(?:(?P<str>'[^']*')|(?P<num>[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)"
                   r"|(?P<op><=|>=|<>|!=|=|<|>|\(|\)|,)|(?P<word>[A-Za-z_][A-Za-z_0-9]*))")


def tokenize(text):
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        assert m and m.end() > pos, text[pos:]
        kind = m.lastgroup
        value = m.group(kind)
        if kind == 'word' and value.upper() in ('AND', 'OR', 'NOT', 'BETWEEN', 'IN', 'TIMESTAMP'):
            kind, value = 'kw', value.upper()
        out.append((kind, value))
        pos = m.end()
    return out


class Where:
    """A tiny Spark SQL WHERE evaluator: AND, OR, NOT, parentheses, comparisons, BETWEEN and IN
    on column names and literals (numbers, 'strings', TIMESTAMP 'literals'). A value is a pair
    (array, null mask); a truth value a pair (true, unknown)."""

    def __init__(self, text, columns):
        self.tokens, self.pos, self.columns = tokenize(text), 0, columns

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        assert value is None or tok[1] == value, (tok, value)
        self.pos += 1
        return tok

    def parse(self):
        t = self.disjunction()
        assert self.pos == len(self.tokens), self.tokens[self.pos:]
        return t

    def disjunction(self):
        t, u = self.conjunction()
        while self.peek() == ('kw', 'OR'):
            self.take()
            t2, u2 = self.conjunction()
            t, u = t | t2, (u | u2) & ~(t | t2)
        return t, u

    def conjunction(self):
        t, u = self.negation()
        while self.peek() == ('kw', 'AND'):
            self.take()
            t2, u2 = self.negation()
            false = (~t & ~u) | (~t2 & ~u2)
            t, u = t & t2, ~(t & t2) & ~false
        return t, u

    def negation(self):
        if self.peek() == ('kw', 'NOT'):
            self.take()
            t, u = self.negation()
            return ~t & ~u, u
        return self.predicate()

    def predicate(self):
        if self.peek() == ('op', '('):
            self.take()
            t = self.disjunction()
            self.take(')')
            return t
        left = self.operand()
        kind, value = self.take()
        if (kind, value) == ('kw', 'BETWEEN'):
            lo = self.operand()
            self.take('AND')
            hi = self.operand()
            a = self.compare(left, '>=', lo)
            b = self.compare(left, '<=', hi)
            false = (~a[0] & ~a[1]) | (~b[0] & ~b[1])
            return a[0] & b[0], ~(a[0] & b[0]) & ~false
        if (kind, value) == ('kw', 'IN'):
            self.take('(')
            items = [self.operand()]
            while self.peek() == ('op', ','):
                self.take()
                items.append(self.operand())
            self.take(')')
            t = np.zeros(left[0].shape, bool)
            for item in items:
                t |= self.compare(left, '=', item)[0]
            return t, left[1] & np.ones(t.shape, bool)
        assert kind == 'op', (kind, value)
        return self.compare(left, value, self.operand())

    def operand(self):
        kind, value = self.take()
        if kind == 'word':
            return self.columns[value]
        if kind == 'num':
            return ('number', float(value)), False
        if kind == 'str':
            return ('string', value[1:-1]), False
        assert (kind, value) == ('kw', 'TIMESTAMP')
        return ('timestamp', np.datetime64(self.take()[1][1:-1].replace(' ', 'T'), 'us')), False

    @staticmethod
    def compare(left, op, right):
        (a, na), (b, nb) = left, right
        assert not isinstance(a, tuple), 'a column first'
        kind, b = b if isinstance(b, tuple) else ('column', b)
        if np.issubdtype(a.dtype, np.datetime64) and kind == 'string':
            b = np.datetime64(b.replace(' ', 'T'), 'us')  # Spark casts the string to timestamp
        elif np.issubdtype(a.dtype, np.datetime64):
            assert kind == 'timestamp', kind
        elif a.dtype.kind == 'U':
            assert kind == 'string', kind  # compared as strings, as Spark does
        else:
            assert kind in ('number', 'column'), kind
            a = a.astype('f8')
        r = {'=': a == b, '<': a < b, '>': a > b, '<=': a <= b, '>=': a >= b,
             '<>': a != b, '!=': a != b}[op]
        unknown = na | nb
        return r & ~unknown, unknown & np.ones(r.shape, bool)


def independent_rows(spec, columns, types):
    """The whole grid of each file read with netCDF4-python (h5py for HDF5), the WHERE clause
    evaluated over it, the kept rows formatted and sorted."""
    files, variables = spec['files'], spec['variables']
    ndims = len(columns) - len(variables)
    dims = columns[:ndims]
    grid = {c: [] for c in columns}
    for f in files:
        coords, values = {}, {}
        if f.endswith('.h5'):
            with h5py.File(full(f), 'r') as h:
                for v in variables:
                    raw = h[v][...]
                    fill = h[v].attrs['_FillValue']
                    values[v] = np.ma.masked_array(raw, raw == fill)
                    assert [x[0].name.lstrip('/') for x in h[v].dims] == dims
                for d in dims:
                    raw = h[d][...]
                    units = h[d].attrs['units']
                    if isinstance(units, bytes):
                        units = units.decode()
                    if 'since' in units:
                        m = re.fullmatch(r'seconds since (\d{4}-\d\d-\d\d) 00:00:00', units)
                        assert m and h[d].attrs['calendar'] == 'proleptic_gregorian', units
                        raw = (np.datetime64(m.group(1), 'us')
                               + np.round(raw * 1e6).astype('i8').astype('m8[us]'))
                    coords[d] = raw
        else:
            with netCDF4.Dataset(full(f)) as ds:
                for v in variables:
                    values[v] = ds[v][...]
                    assert list(ds[v].dimensions) == dims
                for d in dims:
                    if d not in ds.variables:
                        coords[d] = np.arange(len(ds.dimensions[d]), dtype='i8')
                        continue
                    c = ds[d]
                    if 'since' in getattr(c, 'units', ''):
                        cal = getattr(c, 'calendar', 'standard')
                        dates = cftime.num2date(c[:], c.units, cal,
                                                only_use_cftime_datetimes=False,
                                                only_use_python_datetimes=
                                                cal in TIMESTAMP_CALENDARS)
                        if cal in TIMESTAMP_CALENDARS:
                            coords[d] = np.array([np.datetime64(x, 'us') for x in dates])
                        else:
                            coords[d] = np.array([cf_string(x) for x in dates])
                    else:
                        coords[d] = np.asarray(c[:])
        mesh = np.meshgrid(*[coords[d] for d in dims], indexing='ij')
        for d, m in zip(dims, mesh):
            grid[d].append(m.ravel())
        for v in variables:
            grid[v].append(values[v].ravel())
    cols = {}
    for c in columns:
        if c in variables:
            a = np.ma.concatenate(grid[c])
            cols[c] = (np.ma.getdata(a), np.ma.getmaskarray(a))
        else:
            a = np.concatenate(grid[c])
            cols[c] = (a, np.zeros(a.shape, bool))
    true, _ = Where(spec['where'], cols).parse() if spec['where'] else (
        np.ones(len(cols[columns[0]][0]), bool), None)
    rows = []
    for i in np.where(true)[0]:
        row = []
        for c, t in zip(columns, types):
            x, null = cols[c][0][i], cols[c][1][i]
            if null:
                row.append(None)
            elif t == 'timestamp':
                row.append(spark_timestamp(x))
            elif t == 'string':
                row.append(str(x))
            else:
                row.append(number(x, np.asarray(cols[c][0]).dtype))
        rows.append(row)
    return sorted(rows, key=lambda r: sort_key(r, ndims))


# =============================================================================================
out_cases = []
for spec in CASES:
    df, dims, info, dtypes, oracle, sub = xarray_rows(spec)
    cols, types, rows = to_rows(df, dims, info, dtypes, sub, spec['variables'])
    order = sorted(range(len(rows)), key=lambda k: sort_key(rows[k], len(dims)))
    rows = [rows[k] for k in order]
    df = df.iloc[order]
    assert len({tuple(r[:len(dims)]) for r in rows}) == len(rows), 'a grid point twice'
    assert 0 < len(rows) <= 3000, (spec['name'], len(rows))
    again = independent_rows(spec, cols, types)
    assert again == rows, (spec["name"], len(again), len(rows), again[:2], rows[:2])
    chunks_by_file, boxes, unwritten = chunks_and_boxes(df, spec['files'], spec['variables'],
                                                        dims)
    nulls = {v: sum(r[len(dims) + j] is None for r in rows)
             for j, v in enumerate(spec['variables'])}
    entry = {
        'name': spec['name'], 'files': spec['files'],
        'kind': 'hdf5' if spec['files'][0].endswith('.h5') else 'netcdf',
        'variables': spec['variables'], 'where': spec['where'], 'pushable': spec['pushable'],
        'columns': cols, 'types': types, 'row_count': len(rows), 'nulls': nulls,
        'oracle': oracle, 'chunks_by_file': chunks_by_file, 'selected_index_box': boxes,
        'note': spec['note'], 'rows': rows}
    if len(spec['files']) == 1:
        entry['chunks'] = chunks_by_file[0]
    if unwritten:
        entry['unwritten_chunks'] = unwritten
    out_cases.append(entry)
    print('%-18s %5d rows, nulls %s, %s' % (spec['name'], len(rows), nulls,
                                              list(zip(cols, types))))


# The checks README.md reports, by hand from the fixtures' construction (make_cf_fixtures.py)
def get(name):
    return next(c for c in out_cases if c['name'] == name)


assert get('era5_box')['row_count'] == 7 * 7 * 9 and get('era5_box')['nulls'] == {'t2m': 18,
                                                                                  'tp': 35}
assert get('era5_lon_wrap')['row_count'] == 20 * 13 * 9 and get('era5_lon_wrap')['nulls'] == {
    't2m': 6}
assert get('era5_strict')['row_count'] == 13 * 3 * 4 and get('era5_strict')['nulls'] == {'tp': 8}
assert [r[1] for r in get('era5_in')['rows']] == [30.0, 32.5, 45.0]
assert get('era5_value_filter')['nulls'] == {'t2m': 0, 'tp': get('era5_value_filter')['nulls'][
    'tp']} and get('era5_value_filter')['nulls']['tp'] > 0
assert all(r[3] > 280 for r in get('era5_value_filter')['rows'])
assert get('cmip_series')['row_count'] == (2 + 40 + 3) * 4 * 5
assert [b is not None for b in get('cmip_series')['selected_index_box']] == [True] * 3
assert sorted({r[0][5:10] for r in get('day360_feb30')['rows']}) == ['02-28', '02-29', '02-30',
                                                                       '03-01']
assert get('scales_wrap')['nulls'] == {'temperature': 62}
assert get('scales_box')['nulls'] == {'temperature': 48}
assert get('era5_lat90')['row_count'] == 20 * 144 and get('era5_lat90')['nulls'] == {'t2m': 3}

# The cases of grids.nc and records.nc: the row counts from the boxes by hand, the null counts
# from what the fixtures' writes left masked, the unwritten chunks of d by hand
for name, fixture, box, row_count in [
        ('grids_all', 'grids', np.s_[2:9, 3:16, 5:25], 7 * 13 * 20),
        ('grids_driver_d', 'grids', np.s_[5:12, 5:20, 14:30], 7 * 15 * 16),
        ('grids_b_first', 'grids', np.ix_(range(12), [2, 6, 10, 19], range(5, 20)), 12 * 4 * 15),
        ('records_uv', 'records', np.s_[2:7, 2:6, :], 5 * 4 * 11),
        ('records_v_only', 'records', np.s_[:, :, 2:9], 10 * 7 * 7)]:
    c = get(name)
    assert c['row_count'] == row_count, (name, c['row_count'])
    want = {v: int(MISSING[fixture][v][box].sum()) for v in c['variables']}
    assert c['nulls'] == want, (name, c['nulls'], want)
    assert all(n > 0 for n in c['nulls'].values()), (name, c['nulls'])
assert get('grids_all')['unwritten_chunks'] == {'d': 6}
assert get('grids_driver_d')['unwritten_chunks'] == {'d': 8}
assert all('unwritten_chunks' not in c for c in out_cases
           if c['name'] not in ('grids_all', 'grids_driver_d'))
assert [c['chunks'] for c in out_cases if c['name'].startswith('records')] == [{}, {}]
assert all('c' not in get(n)['chunks'] for n in ('grids_all', 'grids_b_first'))
# grids_driver_d, row by row: d is null in its chunks never written, and a is netCDF4-python's
UNWRITTEN_ROWS = 0
with h5py.File(full(GRIDS[0]), 'r') as h, netCDF4.Dataset(full(GRIDS[0])) as n:
    hours = n['time'][:]
    lat, lon = n['lat'][:], n['lon'][:]
    a_all = n['a'][...]
    for r in get('grids_driver_d')['rows']:
        t = datetime.datetime.strptime(r[0], '%Y-%m-%d %H:%M:%S')
        i = int(np.where(hours == (t - datetime.datetime(2001, 1, 1)).total_seconds() / 3600)[0][0])
        j = int(np.where(lat == r[1])[0][0])
        k = int(np.where(lon == r[2])[0][0])
        corner = (i // 3 * 3, j // 7 * 7, k // 11 * 11)
        if h['d'].id.get_chunk_info_by_coord(corner).byte_offset is None:
            UNWRITTEN_ROWS += 1
            assert r[3] is None, r
        want = a_all[i, j, k]
        assert (r[4] is None) == (want is np.ma.masked), r
        assert r[4] is None or r[4] == float(want), r
print('grids_driver_d: %d rows in chunks of d never written, %d null d in written chunks'
      % (UNWRITTEN_ROWS, get('grids_driver_d')['nulls']['d'] - UNWRITTEN_ROWS))

# netCDF4-python directly, index by index, for two cases (the rows' values and the chunk of
# the first and last selected element)
with netCDF4.Dataset(full(ERA5[0])) as n:
    lat, lon = n['latitude'][:], n['longitude'][:]
    hours = n['time'][:]
    for r in get('era5_box')['rows']:
        t = datetime.datetime.strptime(r[0], '%Y-%m-%d %H:%M:%S')
        i = int(np.where(hours == (t - datetime.datetime(1900, 1, 1)).total_seconds() / 3600)[0][0])
        j = int(np.where(lat == r[1])[0][0])
        k = int(np.where(lon == r[2])[0][0])
        for v, x in zip(['t2m', 'tp'], r[3:]):
            want = n[v][i, j, k]
            assert (x is None) == (want is np.ma.masked), (r, v)
            assert x is None or x == float(want), (r, v, x, float(want))
for c in out_cases:
    for v, ranges in c.get('chunks', {}).items():
        with h5py.File(full(c['files'][0]), 'r') as h:
            d = h[v]
            box = c['selected_index_box'][0]
            first = tuple(box[x][0] // s for x, s in zip(c['columns'], d.chunks))
            info = d.id.get_chunk_info_by_coord(tuple(f * s for f, s in zip(first, d.chunks)))
            if info.byte_offset is None:  # a chunk never written
                assert c.get('unwritten_chunks', {}).get(v), (c['name'], v)
            elif c['pushable']:  # the box's corner holds a selected element only for boxes
                assert [info.byte_offset, info.size] in ranges, (c['name'], v)

libraries = {
    'xarray': '2023.01.0 (Debian python3-xarray; __version__ says %s)' % xr.__version__,
    'netCDF4': netCDF4.__version__, 'netcdf-c': netCDF4.__netcdf4libversion__,
    'h5py': h5py.__version__, 'hdf5': h5py.version.hdf5_version, 'h5netcdf': h5netcdf.__version__,
    'cftime': cftime.__version__, 'pandas': pd.__version__, 'numpy': np.__version__,
    'dask': dask.__version__}

# one case a block, one row a line; keys sorted, except that rows come last
OUT = os.path.join(HERE, 'expected_table.json')
blocks = []
for c in out_cases:
    head = json.dumps({k: v for k, v in c.items() if k != 'rows'}, sort_keys=True,
                      allow_nan=False)
    blocks.append(head[:-1] + ', "rows": [\n' + ',\n'.join(
        json.dumps(r, allow_nan=False) for r in c['rows']) + ']}')
text = ('{"cases": [\n' + ',\n'.join(blocks) + '],\n"libraries": '
        + json.dumps(libraries, sort_keys=True) + '}\n')
with open(OUT, 'w') as out:
    out.write(text)

# re-read: the file holds what was computed, the floats exactly
with open(OUT) as f:
    back = json.load(f)
assert back == {'cases': out_cases, 'libraries': libraries}
for c in back['cases']:
    for r in c['rows']:
        for x, t in zip(r, c['types']):
            if t == 'float' and x is not None:
                assert float(np.float32(x)) == x, (c['name'], x)
print(len(out_cases), 'cases,', sum(c['row_count'] for c in out_cases), 'rows,',
      os.path.getsize(OUT), 'bytes')
