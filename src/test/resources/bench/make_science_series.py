#!/usr/bin/env python3
"""bin/bench mrap-science's series for selection by coordinate values, written by netCDF-C
through netCDF4-python, in the shape of ERA5's daily sea surface temperature:

  series OUT_DIR FIRST_YEAR YEARS
      a file a month (sst_YYYYMM.nc) of daily values, FIRST_YEAR-01 to the end of the last
      year: sst(time, latitude, longitude) packed int16 with scale_factor/add_offset (double,
      each file its own, as ERA5's) and _FillValue/missing_value -32767 over land; time
      "days since 2015-01-01 00:00:00" (noon of each day) in the standard calendar, time
      unlimited; latitude 90 to -90 (descending, as ERA5's), longitude 0 to 359.5, 0.5 degree;
      chunks of (8, 73, 144), uncompressed: a month is 4 x 5 x 5 chunks of 164 KiB (8 days
      x 36.5 x 72 degrees), the last 8 days' chunks only partly used.
  daily OUT_DIR FIRST_YEAR FILES
      FILES files of one day each (sst_YYYYMMDD.nc) from FIRST_YEAR-01-01, the same variable on
      a 1 degree grid (181 x 360), chunks of (1, 37, 72): 5 x 5 chunks, each file its own time
      coordinate.
  oracle OUT_DIR TIME_FROM TIME_TO LAT_A LAT_B LON_FROM LON_TO
      what netCDF4-python reads for a selection by value over every file in OUT_DIR (dates
      YYYY-MM-DD[THH:MM], both ends included; latitude between the two values; longitude
      eastward from LON_FROM to LON_TO modulo 360), as JSON on stdout: the sum of the decoded
      values not masked, the elements selected, those masked, and the files holding any.
"""
import datetime
import json
import os
import sys

import netCDF4
import numpy as np

UNITS = 'days since 2015-01-01 00:00:00'
CALENDAR = 'standard'
FILL = np.int16(-32767)


def grid(step):
    lat = np.linspace(90, -90, int(round(180 / step)) + 1).astype('f4')
    lon = (np.arange(int(round(360 / step))) * step).astype('f4')
    return lat, lon


def land(lat, lon):
    """A fixed mask of 'continents': True where sst is missing (about a third of the grid)."""
    la = np.radians(lat)[:, None]
    lo = np.radians(lon)[None, :]
    f = np.sin(2 * lo) * np.cos(3 * la) + 0.6 * np.cos(lo + 1) * np.sin(2 * la)
    return (f > 0.45) | (lat[:, None] < -70)


def sst(days, lat, lon, rng):
    """Daily sea surface temperatures in K: a meridional profile, a season, noise."""
    doy = np.array([d.timetuple().tm_yday for d in days], dtype='f8')
    season = np.cos(2 * np.pi * (doy - 200) / 365.25)[:, None, None]
    base = 271.5 + 30 * np.cos(np.radians(lat))[None, :, None] ** 2
    field = base + 4 * season * np.sin(np.radians(lat))[None, :, None]
    field = field + 0.5 * rng.standard_normal((len(days), len(lat), len(lon)))
    return field + 0 * lon[None, None, :]


def write(path, days, lat, lon, chunks, rng):
    mask = land(lat, lon)
    values = sst(days, lat, lon, rng)
    lo, hi = float(values.min()), float(values.max())
    # ERA5's packing: each file its own, the full int16 range but the fill value
    scale = (hi - lo) / (2 ** 16 - 4)
    offset = (hi + lo) / 2
    with netCDF4.Dataset(path, 'w', format='NETCDF4') as ds:
        ds.Conventions = 'CF-1.6'
        ds.createDimension('time', None)
        ds.createDimension('latitude', len(lat))
        ds.createDimension('longitude', len(lon))
        t = ds.createVariable('time', 'f8', ('time',))
        t.units = UNITS
        t.calendar = CALENDAR
        t.standard_name = 'time'
        la = ds.createVariable('latitude', 'f4', ('latitude',))
        la.units = 'degrees_north'
        la.standard_name = 'latitude'
        la[:] = lat
        lo_ = ds.createVariable('longitude', 'f4', ('longitude',))
        lo_.units = 'degrees_east'
        lo_.standard_name = 'longitude'
        lo_[:] = lon
        v = ds.createVariable('sst', 'i2', ('time', 'latitude', 'longitude'), chunksizes=chunks,
                              fill_value=FILL)
        v.scale_factor = np.float64(scale)
        v.add_offset = np.float64(offset)
        v.missing_value = FILL
        v.units = 'K'
        v.standard_name = 'sea_surface_temperature'
        noon = [datetime.datetime(d.year, d.month, d.day, 12) for d in days]
        t[:] = netCDF4.date2num(noon, UNITS, CALENDAR)
        # packed by netCDF4-python (rounded), land written as _FillValue
        v[:] = np.ma.masked_array(values, np.broadcast_to(mask, values.shape))


def series(out, first, years):
    os.makedirs(out, exist_ok=True)
    lat, lon = grid(0.5)
    for y in range(first, first + years):
        for m in range(1, 13):
            start = datetime.date(y, m, 1)
            end = datetime.date(y + (m == 12), m % 12 + 1, 1)
            days = [start + datetime.timedelta(k) for k in range((end - start).days)]
            rng = np.random.default_rng(y * 100 + m)
            write(os.path.join(out, 'sst_%04d%02d.nc' % (y, m)), days, lat, lon, (8, 73, 144),
                  rng)


def daily(out, first, files):
    os.makedirs(out, exist_ok=True)
    lat, lon = grid(1.0)
    for k in range(files):
        day = datetime.date(first, 1, 1) + datetime.timedelta(k)
        rng = np.random.default_rng(k)
        write(os.path.join(out, 'sst_%s.nc' % day.strftime('%Y%m%d')), [day], lat, lon,
              (1, 37, 72), rng)


def oracle(out, t0, t1, lat_a, lat_b, lon_from, lon_to):
    lo_t = datetime.datetime.fromisoformat(t0)
    hi_t = datetime.datetime.fromisoformat(t1)
    width = (lon_to - lon_from) % 360
    total = 0.0
    elements = 0
    masked = 0
    files = []
    for name in sorted(os.listdir(out)):
        if not name.endswith('.nc'):
            continue
        with netCDF4.Dataset(os.path.join(out, name)) as ds:
            times = netCDF4.num2date(ds['time'][:], ds['time'].units, ds['time'].calendar,
                                     only_use_cftime_datetimes=False,
                                     only_use_python_datetimes=True)
            ti = np.nonzero([lo_t <= t <= hi_t for t in times])[0]
            if len(ti) == 0:
                continue
            lat = ds['latitude'][:]
            lon = ds['longitude'][:]
            yi = np.nonzero((lat >= min(lat_a, lat_b)) & (lat <= max(lat_a, lat_b)))[0]
            xi = np.nonzero((lon - lon_from) % 360 <= width)[0]
            if len(yi) == 0 or len(xi) == 0:
                continue
            v = ds['sst']  # automatic mask and scale, as netCDF4-python reads by default
            part = v[ti[0]:ti[-1] + 1, yi[0]:yi[-1] + 1, :][:, :, xi]
            files.append(name)
            elements += part.size
            masked += int(np.ma.count_masked(part))
            total += float(np.sum(part.astype('f8')))
    json.dump({'sum': total, 'elements': elements, 'masked': masked, 'files': files},
              sys.stdout)


if __name__ == '__main__':
    what = sys.argv[1]
    if what == 'series':
        series(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif what == 'daily':
        daily(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif what == 'oracle':
        oracle(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), float(sys.argv[6]),
               float(sys.argv[7]), float(sys.argv[8]))
    else:
        sys.exit('usage: make_science_series.py series|daily|oracle ...')
