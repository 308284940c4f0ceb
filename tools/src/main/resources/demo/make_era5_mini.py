#!/usr/bin/python3
"""Writes the small ERA5-like daily series of bin/demo's Spark SQL step (era5-mini/) and
expected.json, the step's query and its answer as netCDF4-python and numpy compute it.

era5-mini/era5_daily_2020MM.nc, one file a month, March to June 2020: what a CDS download of
ERA5 daily statistics over an area (North 70, West 40, South 0, East 180, a 2.5 degree grid)
looks like in NetCDF-4, but made up: smooth formulas (a climate by latitude and season, a
plateau, weather that travels east) and a seeded generator, no ECMWF data.
  - dimensions time (unlimited, one step a day at 00:00), latitude (29, descending 70 -> 0),
    longitude (57, 40 -> 180); coordinates float32; time int32 "hours since 1900-01-01
    00:00:00.0", calendar gregorian;
  - t2m (K) and tp (m of water a day): int16 packed as ERA5 packs, scale_factor and add_offset
    float64 from each file's own range (so they differ from file to file), _FillValue =
    missing_value = -32767; chunked (31, 10, 12) (a chunk a month of a 10 x 12 tile), zlib
    level 4 with the shuffle filter;
  - a few masked elements: t2m over a 2 x 3 patch inside the query's box on 4 days of April,
    tp at 5 points of one latitude row of it on 3 days of May (null in Spark's table, left out
    of avg).

expected.json: the tour's query (`sql`), the same query with its filters written so that no
filter can be pushed to the source (`sql_not_pushed`), and the answer: a row a month with the
count of rows, the mean t2m in degrees C and the mean tp in mm a day, each rounded as Spark's
round() rounds (HALF_UP of the double's shortest decimal form), and unrounded. The answer comes
from netCDF4-python's auto mask and scale (float64) and numpy, over the box the WHERE clause
names, not from our code. `chunks` counts t2m's and tp's stored chunks and their bytes: all, and
those holding an element of the query's box (from h5py's get_chunk_info), which a read of it
needs.

Run with Debian's interpreter from anywhere: /usr/bin/python3 make_era5_mini.py
(python3-netcdf4 1.6.2 on netCDF-C 4.9.0 and HDF5 1.10.8, python3-h5py 3.7.0, cftime 1.6.2,
numpy 1.24.2). Deterministic: two runs write the same bytes (it checks its files' SHA-256
against a second write).
"""
import datetime
import decimal
import hashlib
import json
import os
import shutil
import tempfile

import cftime
import h5py
import netCDF4
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'era5-mini')
MONTHS = [(2020, 3), (2020, 4), (2020, 5), (2020, 6)]
LAT = (70 - 2.5 * np.arange(29)).astype('f4')  # 70 .. 0, descending as ERA5's
LON = (40 + 2.5 * np.arange(57)).astype('f4')  # 40 .. 180
UNITS, CALENDAR = 'hours since 1900-01-01 00:00:00.0', 'gregorian'
CHUNKS = (31, 10, 12)  # the query's box: in one tile (a chunk of latitude, one of longitude)
FILL = np.int16(-32767)

SQL = ("SELECT month(time) AS month, count(*) AS points, "
       "round(avg(t2m) - 273.15, 2) AS t2m_c, round(avg(tp) * 1000, 2) AS tp_mm_day "
       "FROM era5 WHERE {time} BETWEEN TIMESTAMP '2020-03-01 00:00:00' "
       "AND TIMESTAMP '2020-05-31 00:00:00' AND {latitude} BETWEEN 30 AND 45 "
       "AND {longitude} BETWEEN 100 AND 120 GROUP BY 1 ORDER BY 1")
# the same filters on expressions of the columns: Spark hands the source no predicate on a column
NOT_PUSHED = dict(time='time + INTERVAL 0 SECONDS', latitude='latitude + 0',
                  longitude='longitude + 0')
FIRST, LAST = datetime.datetime(2020, 3, 1), datetime.datetime(2020, 5, 31)


def days(year, month):
    first = datetime.date(year, month, 1)
    n = ((first.replace(day=28) + datetime.timedelta(days=4)).replace(day=1) - first).days
    return [datetime.datetime(year, month, d + 1) for d in range(n)]


def fields(times, rng):
    """t2m (K) and tp (m) on the grid for the given days, and their masks."""
    doy = np.array([t.timetuple().tm_yday for t in times], 'f8')[:, None, None]
    lat = LAT.astype('f8')[None, :, None]
    lon = LON.astype('f8')[None, None, :]
    phi = np.deg2rad(lat)
    lam = np.deg2rad(lon)
    # a plateau in the west of the area (4.5 km high at 33 N 88 E), 6.5 K a km colder
    height = 4.5 * np.exp(-((lat - 33) / 5) ** 2 - ((lon - 88) / 10) ** 2)
    season = -25 * np.sin(phi) ** 1.3 * np.cos(2 * np.pi * (doy - 20) / 365.25)
    weather = (3 * np.sin(phi) * np.sin(3 * lam - 2 * np.pi * doy / 6.0 + 1.0)
               + 1.5 * np.sin(5 * lam + 3 * phi - 2 * np.pi * doy / 4.0))
    t2m = (300 - 40 * np.sin(phi) ** 2 + season - 6.5 * height + weather
           + rng.normal(0, 0.02, (len(times), LAT.size, LON.size)))
    # rain: a belt that moves north through spring, falling where the weather is wet
    belt = 1.5 + 8 * np.exp(-((lat - (20 + (doy - 60) / 8)) / 8) ** 2)
    wet = (np.sin(4 * lam + 2 * phi - 2 * np.pi * doy / 5.0)
           + 0.6 * np.sin(7 * lam - 3 * phi + 2 * np.pi * doy / 3.0) - 0.3)
    tp = np.where(wet > 0, belt * wet * 1.5e-3, 0.0)
    tp = np.where(tp > 0, tp + np.abs(rng.normal(0, 2e-6, tp.shape)), 0.0)
    t2m_gone = np.zeros(t2m.shape, bool)
    tp_gone = np.zeros(tp.shape, bool)
    return t2m, tp, t2m_gone, tp_gone


def index(axis, value):
    return int(np.nonzero(axis == np.float32(value))[0][0])


def pack16(values, missing):
    """values packed as ERA5 does: int16 over the valid range, float64 factors, -32767 free."""
    lo, hi = float(values[~missing].min()), float(values[~missing].max())
    scale = (hi - lo) / (2 ** 16 - 4)
    offset = (hi + lo) / 2
    packed = np.round((values - offset) / scale).astype('i2')
    packed[missing] = FILL
    return packed, np.float64(scale), np.float64(offset)


def write(folder):
    """The four files into folder; their names."""
    rng = np.random.default_rng(20200301)
    names = []
    for year, month in MONTHS:
        times = days(year, month)
        t2m, tp, t2m_gone, tp_gone = fields(times, rng)
        if month == 4:  # a gap in t2m inside the box: 10-13 April, 42.5-40 N, 110-115 E
            t2m_gone[9:13, index(LAT, 42.5):index(LAT, 40) + 1,
                     index(LON, 110):index(LON, 115) + 1] = True
        if month == 5:  # tp missing along 35 N from 105 to 115 E, 20-22 May
            tp_gone[19:22, index(LAT, 35), index(LON, 105):index(LON, 115) + 1] = True
        name = 'era5_daily_%04d%02d.nc' % (year, month)
        names.append(name)
        with netCDF4.Dataset(os.path.join(folder, name), 'w', format='NETCDF4') as ds:
            ds.Conventions = 'CF-1.6'
            # the script's folder when the committed files were made (src/test/resources/demo)
            ds.history = ('made up by src/test/resources/demo/make_era5_mini.py in the shape of '
                          'an ERA5 daily download (synthetic values, no ECMWF data)')
            ds.createDimension('longitude', LON.size)
            ds.createDimension('latitude', LAT.size)
            ds.createDimension('time', None)
            lon = ds.createVariable('longitude', 'f4', ('longitude',))
            lon.units, lon.long_name = 'degrees_east', 'longitude'
            lon[:] = LON
            lat = ds.createVariable('latitude', 'f4', ('latitude',))
            lat.units, lat.long_name = 'degrees_north', 'latitude'
            lat[:] = LAT
            time = ds.createVariable('time', 'i4', ('time',))
            time.units, time.long_name, time.calendar = UNITS, 'time', CALENDAR
            time[:] = cftime.date2num(times, UNITS, CALENDAR).astype('i4')
            for vname, values, missing, units, long_name in [
                    ('t2m', t2m, t2m_gone, 'K', '2 metre temperature'),
                    ('tp', tp, tp_gone, 'm', 'Total precipitation')]:
                packed, scale, offset = pack16(values, missing)
                v = ds.createVariable(vname, 'i2', ('time', 'latitude', 'longitude'),
                                      fill_value=FILL, zlib=True, complevel=4, shuffle=True,
                                      chunksizes=CHUNKS)
                v.scale_factor, v.add_offset = scale, offset
                v.missing_value = FILL
                v.units, v.long_name = units, long_name
                v.set_auto_maskandscale(False)
                v[:] = packed
    return names


def spark_round(x, places):
    """Spark's round(double, n): HALF_UP of the double's shortest decimal form."""
    q = decimal.Decimal(repr(float(x))).quantize(decimal.Decimal(1).scaleb(-places),
                                                 rounding=decimal.ROUND_HALF_UP)
    return float(q)


def answer(names):
    """The query's rows, as netCDF4-python decodes the files (auto mask and scale, float64)."""
    by_month = {}
    for name in names:
        with netCDF4.Dataset(os.path.join(OUT, name)) as ds:
            times = cftime.num2date(ds['time'][:], UNITS, CALENDAR,
                                    only_use_cftime_datetimes=False)
            lat, lon = ds['latitude'][:], ds['longitude'][:]
            keep_t = np.array([FIRST <= datetime.datetime(t.year, t.month, t.day, t.hour)
                               <= LAST for t in times])
            keep_y = (lat >= 30) & (lat <= 45)
            keep_x = (lon >= 100) & (lon <= 120)
            if not keep_t.any():
                continue
            t2m = ds['t2m'][:][keep_t][:, keep_y][:, :, keep_x]
            tp = ds['tp'][:][keep_t][:, keep_y][:, :, keep_x]
            assert t2m.dtype == np.float64 and tp.dtype == np.float64
            month = times[np.nonzero(keep_t)[0][0]].month
            by_month[month] = (t2m, tp)
    rows, exact = [], []
    for month in sorted(by_month):
        t2m, tp = by_month[month]
        points = t2m.size  # count(*): every row, masked values or not
        t2m_c = float(t2m.compressed().mean()) - 273.15   # avg leaves nulls out
        tp_mm = float(tp.compressed().mean()) * 1000
        rows.append([month, points, spark_round(t2m_c, 2), spark_round(tp_mm, 2)])
        exact.append([month, points, t2m_c, tp_mm, int(t2m.mask.sum()), int(tp.mask.sum())])
    return rows, exact


def chunks(names):
    """The stored chunks of t2m and tp (count and bytes, from h5py's get_chunk_info): all of
    them, and those holding an element of the query's box, which a read of it needs."""
    out = dict(all=0, all_bytes=0, box=0, box_bytes=0)
    for name in names:
        with netCDF4.Dataset(os.path.join(OUT, name)) as ds:
            times = cftime.num2date(ds['time'][:], UNITS, CALENDAR,
                                    only_use_cftime_datetimes=False)
            keep = [np.array([FIRST <= datetime.datetime(t.year, t.month, t.day) <= LAST
                              for t in times]),
                    (LAT >= 30) & (LAT <= 45), (LON >= 100) & (LON <= 120)]
        with h5py.File(os.path.join(OUT, name), 'r') as h:
            for v in ('t2m', 'tp'):
                d = h[v].id
                for i in range(d.get_num_chunks()):
                    info = d.get_chunk_info(i)
                    hit = all(k[o:o + c].any()
                              for k, o, c in zip(keep, info.chunk_offset, CHUNKS))
                    out['all'] += 1
                    out['all_bytes'] += info.size
                    out['box'] += hit
                    out['box_bytes'] += info.size if hit else 0
    return out


def sha256(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    names = write(OUT)
    again = tempfile.mkdtemp()
    try:  # deterministic: a second write gives the same bytes
        write(again)
        for n in names:
            assert sha256(os.path.join(OUT, n)) == sha256(os.path.join(again, n)), n
    finally:
        shutil.rmtree(again)
    rows, exact = answer(names)
    assert [r[0] for r in rows] == [3, 4, 5], rows
    assert exact[1][4] == 4 * 2 * 3 and exact[2][5] == 3 * 5, exact  # the masked elements
    files = [dict(name=n, bytes=os.path.getsize(os.path.join(OUT, n)),
                  sha256=sha256(os.path.join(OUT, n))) for n in names]
    assert sum(f['bytes'] for f in files) < 1_000_000, files
    doc = dict(
        sql=SQL.format(time='time', latitude='latitude', longitude='longitude'),
        sql_not_pushed=SQL.format(**NOT_PUSHED),
        options={'mrap.pattern.kind': 'netcdf', 'mrap.science.layout': 'table',
                 'mrap.science.variables': 't2m,tp'},
        session={'spark.sql.session.timeZone': 'UTC'},
        columns=['month', 'points', 't2m_c', 'tp_mm_day'],
        rows=rows,
        unrounded={'columns': ['month', 'points', 't2m_c', 'tp_mm_day', 't2m_nulls',
                               'tp_nulls'], 'rows': exact},
        chunks=chunks(names),
        files=files,
        libraries={'netCDF4': netCDF4.__version__, 'netCDF-C': netCDF4.__netcdf4libversion__,
                   'HDF5': netCDF4.__hdf5libversion__, 'h5py': h5py.__version__,
                   'cftime': cftime.__version__,
                   'numpy': np.__version__})
    with open(os.path.join(HERE, 'expected.json'), 'w') as f:
        f.write('{\n' + ',\n'.join(' %s: %s' % (json.dumps(k), json.dumps(v))
                                   for k, v in doc.items()) + '\n}\n')
    for f in files:
        print('%s %7d bytes' % (f['name'], f['bytes']))
    print('%d bytes in all' % sum(f['bytes'] for f in files))
    for r in rows:
        print(r)


if __name__ == '__main__':
    main()
