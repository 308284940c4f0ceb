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

bin/bench spark-science's series, in the shape of an ERA5 download of single levels (CDS, netCDF)
cut a file a day:

  era5 OUT_DIR FIRST_DAY LAST_DAY STEP HOURS
      a file a day (era5_YYYYMMDD.nc) from FIRST_DAY to LAST_DAY (YYYY-MM-DD, both included),
      those already there kept: t2m and tp, int16 packed with float64 scale_factor/add_offset
      (each file and variable its own, as ERA5's), _FillValue = missing_value = -32767, zlib
      (level 4, no shuffle); time int32 "hours since 1900-01-01 00:00:00.0", gregorian,
      unlimited, HOURS steps a day (00:00 and every 24/HOURS hours); latitude 90 to -90
      (descending, as ERA5's) and longitude 0 to 360-STEP at STEP degrees, float32; every
      variable defined before any is written, as netCDF-C's tools write. Chunks of (HOURS, a
      third of the latitudes, an eighth of the longitudes): 24 chunks a variable, so a box of
      15 x 20 degrees can lie in one (30-45 N, 100-120 E at 1 degree: the first chunk row, the
      third column). t2m has a few missing elements (a patch in that box on each 15th of the
      month, and one at the south pole), tp a row of them every 10th.
  era5_oracle OUT_DIR TIME_FROM TIME_TO LAT_A LAT_B LON_FROM LON_TO
      for the files of OUT_DIR and the selection time in [TIME_FROM, TIME_TO] (ISO), latitude
      between the two values, LON_FROM <= longitude <= LON_TO, as JSON on stdout: what
      netCDF4-python reads (auto mask and scale), grouped by (month, latitude, longitude) as
      groups [month, latitude, longitude, mean t2m, sum tp] (null where every value is masked),
      ordered; the elements and those masked per variable; the files holding any; and, from
      HDF5's own chunk index (h5py's get_chunk_info, not our reader), per selected file and
      variable the bytes of the stored chunks that hold the selection, and every file's bytes.
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


# ---- ERA5-shaped daily files of two variables (bin/bench spark-science) ----
ERA5_UNITS = 'hours since 1900-01-01 00:00:00.0'
ERA5_CALENDAR = 'gregorian'


def pack16(values, missing):
    """ERA5's packing: int16 over the file's range, float64 factors, -32767 for the missing."""
    lo, hi = float(values[~missing].min()), float(values[~missing].max())
    scale = (hi - lo) / (2 ** 16 - 4)
    if scale == 0:
        scale = 1.0
    offset = (hi + lo) / 2
    packed = np.round((values - offset) / scale).astype('i2')
    packed[missing] = FILL
    return packed, np.float64(scale), np.float64(offset)


def era5_day(path, day, step, hours):
    nlat = int(round(180 / step)) + 1
    nlon = int(round(360 / step))
    lat = (90 - np.arange(nlat) * step).astype('f4')
    lon = (np.arange(nlon) * step).astype('f4')
    every = 24 // hours
    times = [datetime.datetime(day.year, day.month, day.day, h) for h in range(0, 24, every)]
    rng = np.random.default_rng(day.toordinal())
    doy = day.timetuple().tm_yday
    h = np.array([t.hour for t in times], dtype='f8')[:, None, None]
    phi = np.deg2rad(lat.astype('f8'))[None, :, None]
    lam = np.deg2rad(lon.astype('f8'))[None, None, :]
    season = np.cos(2 * np.pi * (doy - 200) / 365.25)
    shape = (len(times), nlat, nlon)
    t2m = (300 - 45 * np.sin(phi) ** 2 - 8 * np.sin(phi) * (1 + season)
           + 3 * np.sin(2 * lam) * np.cos(phi)
           + 6 * np.cos(phi) * np.cos(2 * np.pi * h / 24 + lam)
           + rng.normal(0, 0.004, shape))
    gone = np.zeros(shape, dtype=bool)
    if day.day == 15:  # a patch in the box 30-45 N, 100-120 E, for a few hours
        box_lat = (lat >= 38) & (lat <= 41)
        box_lon = (lon >= 110) & (lon <= 113)
        gone[:max(1, len(times) // 4)] |= box_lat[None, :, None] & box_lon[None, None, :]
    gone[-1, -1, 0] = True  # the last step's first element at the south pole
    tp = 0.006 * np.clip(np.sin(4 * lam + h / 12 + 2 * phi + doy) * np.cos(phi) - 0.5, 0,
                         None)
    tp = np.where(tp > 0, tp + np.abs(rng.normal(0, 2e-7, shape)), 0)  # dry two thirds
    tp_gone = np.zeros(shape, dtype=bool)
    if day.day % 10 == 0:  # a row of latitude 40 N from 100 E, every second element
        row = np.nonzero(np.isclose(lat, 40))[0]
        cols = np.nonzero((lon >= 100) & (lon <= 120))[0][::2]
        if len(row):
            tp_gone[0, row[0], cols] = True
    chunks = (len(times), (nlat + 2) // 3, nlon // 8)
    tmp = path + '.tmp'
    with netCDF4.Dataset(tmp, 'w', format='NETCDF4') as ds:
        ds.Conventions = 'CF-1.6'
        ds.history = (day.strftime('%Y-%m-%d') + ' 00:00:00 GMT by grib_to_netcdf-2.16.0: '
                      'grib_to_netcdf /data/era5.grib')
        ds.createDimension('longitude', nlon)
        ds.createDimension('latitude', nlat)
        ds.createDimension('time', None)
        lo_ = ds.createVariable('longitude', 'f4', ('longitude',))
        lo_.units, lo_.long_name = 'degrees_east', 'longitude'
        lo_[:] = lon
        la = ds.createVariable('latitude', 'f4', ('latitude',))
        la.units, la.long_name = 'degrees_north', 'latitude'
        la[:] = lat
        t = ds.createVariable('time', 'i4', ('time',))
        t.units, t.long_name, t.calendar = ERA5_UNITS, 'time', ERA5_CALENDAR
        t[:] = np.array(netCDF4.date2num(times, ERA5_UNITS, ERA5_CALENDAR)).astype('i4')
        written = []
        for name, values, missing, units, long_name in [
                ('t2m', t2m, gone, 'K', '2 metre temperature'),
                ('tp', tp, tp_gone, 'm', 'Total precipitation')]:
            packed, scale, offset = pack16(values, missing)
            v = ds.createVariable(name, 'i2', ('time', 'latitude', 'longitude'), fill_value=FILL,
                                  zlib=True, complevel=4, chunksizes=chunks)
            v.scale_factor, v.add_offset = scale, offset
            v.missing_value = FILL
            v.units, v.long_name = units, long_name
            v.set_auto_maskandscale(False)
            written.append((v, packed))
        for v, packed in written:  # as netCDF-C's tools do: every variable defined, then data
            v[:] = packed
    os.replace(tmp, path)


def era5(out, first, last, step, hours):
    os.makedirs(out, exist_ok=True)
    day = datetime.date.fromisoformat(first)
    end = datetime.date.fromisoformat(last)
    while day <= end:
        path = os.path.join(out, 'era5_%s.nc' % day.strftime('%Y%m%d'))
        if not os.path.exists(path):
            era5_day(path, day, step, hours)
        day += datetime.timedelta(1)


def chunk_bytes(path, name, box):
    """The bytes of the stored chunks of variable name that hold any of box (per dimension a
    first and last index), from HDF5's chunk index through h5py."""
    import h5py
    with h5py.File(path, 'r') as f:
        d = f[name]
        cs = d.chunks
        total = 0
        chunks = 0
        for i in range(d.id.get_num_chunks()):
            info = d.id.get_chunk_info(i)
            o = info.chunk_offset
            if all(o[k] <= box[k][1] and o[k] + cs[k] - 1 >= box[k][0] for k in range(len(cs))):
                total += info.size
                chunks += 1
        return total, chunks


def era5_oracle(out, t0, t1, lat_a, lat_b, lon_from, lon_to):
    lo_t = datetime.datetime.fromisoformat(t0)
    hi_t = datetime.datetime.fromisoformat(t1)
    sums = {}
    counts = {'t2m': [0, 0], 'tp': [0, 0]}  # elements, masked
    files = []
    chunks = {}
    sizes = {}
    for name in sorted(os.listdir(out)):
        if not name.endswith('.nc'):
            continue
        path = os.path.join(out, name)
        sizes[name] = os.path.getsize(path)
        with netCDF4.Dataset(path) as ds:
            times = netCDF4.num2date(ds['time'][:], ds['time'].units, ds['time'].calendar,
                                     only_use_cftime_datetimes=False,
                                     only_use_python_datetimes=True)
            ti = np.nonzero([lo_t <= t <= hi_t for t in times])[0]
            lat = ds['latitude'][:]
            lon = ds['longitude'][:]
            yi = np.nonzero((lat >= min(lat_a, lat_b)) & (lat <= max(lat_a, lat_b)))[0]
            xi = np.nonzero((lon >= lon_from) & (lon <= lon_to))[0]
            if len(ti) == 0 or len(yi) == 0 or len(xi) == 0:
                continue
            files.append(name)
            box = [(int(ti[0]), int(ti[-1])), (int(yi[0]), int(yi[-1])),
                   (int(xi[0]), int(xi[-1]))]
            chunks[name] = {v: chunk_bytes(path, v, box)[0] for v in ('t2m', 'tp')}
            months = {times[k].month for k in ti}
            assert len(months) == 1, name  # a file a day
            acc = sums.setdefault(months.pop(), {'lat': lat[yi], 'lon': lon[xi]})
            for v in ('t2m', 'tp'):  # automatic mask and scale
                part = ds[v][ti[0]:ti[-1] + 1, yi[0]:yi[-1] + 1, xi[0]:xi[-1] + 1]
                counts[v][0] += part.size
                counts[v][1] += int(np.ma.count_masked(part))
                mask = np.ma.getmaskarray(part)
                total = np.where(mask, 0.0, np.ma.getdata(part).astype('f8')).sum(axis=0)
                kept = (~mask).sum(axis=0)
                if v in acc:
                    acc[v] = (acc[v][0] + total, acc[v][1] + kept)
                else:
                    acc[v] = (total, kept)
    groups = []
    for m in sorted(sums):
        acc = sums[m]
        for a, la in enumerate(acc['lat']):
            for b, lo in enumerate(acc['lon']):
                t_sum, t_n = acc['t2m'][0][a, b], acc['t2m'][1][a, b]
                p_sum, p_n = acc['tp'][0][a, b], acc['tp'][1][a, b]
                groups.append([m, float(la), float(lo), float(t_sum / t_n) if t_n else None,
                               float(p_sum) if p_n else None])
    groups.sort(key=lambda g: (g[0], g[1], g[2]))
    json.dump({'groups': groups, 'elements': counts['t2m'][0], 'masked_t2m': counts['t2m'][1],
               'masked_tp': counts['tp'][1], 'files': files, 'chunk_bytes': chunks,
               'file_bytes': sizes}, sys.stdout)


if __name__ == '__main__':
    what = sys.argv[1]
    if what == 'series':
        series(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif what == 'daily':
        daily(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif what == 'oracle':
        oracle(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), float(sys.argv[6]),
               float(sys.argv[7]), float(sys.argv[8]))
    elif what == 'era5':
        era5(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), int(sys.argv[6]))
    elif what == 'era5_oracle':
        era5_oracle(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]),
                    float(sys.argv[6]), float(sys.argv[7]), float(sys.argv[8]))
    else:
        sys.exit('usage: make_science_series.py series|daily|oracle|era5|era5_oracle ...')
