#!/usr/bin/python3
"""The zarr bench's stores, written by the reference libraries (zarr 2.13, numcodecs, xarray).

    /usr/bin/python3 make_zarr_data.py DIR quick|full

DIR/era5-lz4.zarr and DIR/era5-zstd.zarr: the same ERA5-shaped dataset through
xarray.Dataset.to_zarr, t2m(time, latitude, longitude) packed int16 (scale_factor, add_offset,
_FillValue, a tenth of the grid masked as land), time in hours since 1900-01-01, latitude 90 to
-90 and longitude 0 to 359 at 1 degree, chunks of (T, 46, 90): 73 x 4 x 4 = 1,168 chunk files.
Daily for 2021 with T=5 (quick), 6-hourly with T=20 (full). Compressors: numcodecs' default
Blosc (lz4, clevel 5, byte shuffle), and Zstd level 3. DIR/chunks/: one chunk of each store,
as its file holds it, for the decode-speed comparison; DIR/expected.json: the selection the
bench reads, as xarray reads it; DIR/numcodecs.json: numcodecs' own
decode speed of those chunks, one thread.
"""
import json
import os
import shutil
import sys
import timeit

import numcodecs
import numcodecs.blosc
import numpy as np
import pandas as pd
import xarray as xr
from numcodecs import Blosc, Zstd


def main(out, size):
    quick = size == 'quick'
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    if quick:
        times = pd.date_range('2021-01-01', periods=365, freq='D')
        tchunk = 5
    else:
        times = pd.date_range('2021-01-01', periods=1460, freq='6H')
        tchunk = 20
    lat = np.arange(90, -91, -1, dtype='f4')
    lon = np.arange(0, 360, 1, dtype='f4')
    rng = np.random.default_rng(7)
    day = np.asarray((times - times[0]) / pd.Timedelta('1D'), dtype='f8')
    y = np.cos(np.deg2rad(lat))[None, :, None]
    x = np.sin(np.deg2rad(lon))[None, None, :]
    season = np.cos(2 * np.pi * (day - 200) / 365)[:, None, None]
    t2m = (250 + 40 * y + 10 * season * y + 3 * x
           + rng.normal(0, 0.5, (len(times), len(lat), len(lon)))).astype('f4')
    land = rng.random((len(lat), len(lon))) < 0.1
    t2m[:, land] = np.nan
    ds = xr.Dataset({'t2m': (('time', 'latitude', 'longitude'), t2m,
                             {'units': 'K', 'long_name': '2 metre temperature'})},
                    coords={'time': times, 'latitude': ('latitude', lat, {'units': 'degrees_north'}),
                            'longitude': ('longitude', lon, {'units': 'degrees_east'})})
    for name, comp in (('lz4', Blosc('lz4', 5, Blosc.SHUFFLE)), ('zstd', Zstd(3))):
        enc = {'t2m': {'dtype': 'int16', 'scale_factor': 0.002, 'add_offset': 260.0,
                       '_FillValue': -32767, 'chunks': (tchunk, 46, 90), 'compressor': comp},
               'time': {'units': 'hours since 1900-01-01', 'calendar': 'gregorian',
                        'dtype': 'int32'}}
        ds.to_zarr(os.path.join(out, 'era5-%s.zarr' % name), encoding=enc, consolidated=True)
    # the selection the bench reads, as xarray reads it: elements, masked ones, sum of others
    sel = xr.open_zarr(os.path.join(out, 'era5-lz4.zarr')).t2m.sel(
        time=slice('2021-06-01', '2021-08-31T23:00'), latitude=slice(40, 20),
        longitude=slice(100, 120)).values
    with open(os.path.join(out, 'expected.json'), 'w') as f:
        json.dump({'elements': int(sel.size), 'masked': int(np.isnan(sel).sum()),
                   'sum': float(np.nansum(sel.astype('f8')))}, f)
    # a chunk of each, and numcodecs' decode speed of it (one thread, best of runs)
    numcodecs.blosc.use_threads = False
    numcodecs.blosc.set_nthreads(1)
    chunks = os.path.join(out, 'chunks')
    os.makedirs(chunks)
    speeds = {}
    for name, codec in (('lz4', Blosc()), ('zstd', Zstd())):
        raw = open(os.path.join(out, 'era5-%s.zarr' % name, 't2m', '36.1.1'), 'rb').read()
        decoded = codec.decode(raw)
        with open(os.path.join(chunks, name + '.in'), 'wb') as f:
            f.write(raw)
        n = max(1, int(2e8 // len(decoded)))
        best = min(timeit.repeat(lambda: codec.decode(raw), number=n, repeat=8)) / n
        speeds[name] = {'decoded_bytes': len(bytes(decoded)), 'stored_bytes': len(raw),
                        'mb_per_s': len(bytes(decoded)) / best / 1e6}
    with open(os.path.join(out, 'numcodecs.json'), 'w') as f:
        json.dump(speeds, f, indent=1)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
