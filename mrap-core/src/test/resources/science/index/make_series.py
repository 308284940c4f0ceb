#!/usr/bin/env python3
"""Writes the series the index tests join, with netCDF4-python (netCDF-C), Debian's
/usr/bin/python3 -m pip-free: python3-netcdf4.

  joins/era_{0,1,2}.nc   NetCDF-4, t2m(time, latitude, longitude) int16 packed (one scale and
                         offset for all), chunks of 6 hours, shuffle+zlib; 12 + 12 + 7 hours
                         (a shorter last file); the third file's time units differ
                         ("hours since 2020-01-02"), so its times are re-encoded in the first's.
  joins/rec_{0,1}.nc     NetCDF-3 classic, sst(time, lat, lon) float32 record variable, 3 + 2
                         records.
  refuse/scale_{0,1}.nc  NetCDF-4 with per-file scale_factor: not joined.
  refuse/chunk_{0,1}.nc  NetCDF-4 whose chunk shapes differ: not joined.
  refuse/mid_{0,1}.nc    NetCDF-4, 5 records in chunks of 2 then 4: the first ends mid-chunk.

Run from this folder: /usr/bin/python3 make_series.py
"""
import os
import netCDF4
import numpy as np

rng = np.random.default_rng(50)


def era(path, hours, start, units, chunk=6, scale=0.002, offset=273.0, lat=9, lon=12):
    with netCDF4.Dataset(path, "w", format="NETCDF4") as d:
        d.createDimension("time", None)
        d.createDimension("latitude", lat)
        d.createDimension("longitude", lon)
        t = d.createVariable("time", "i4", ("time",))
        t.units = units
        t.calendar = "gregorian"
        t.standard_name = "time"
        la = d.createVariable("latitude", "f4", ("latitude",))
        la.units = "degrees_north"
        la[:] = np.linspace(60, 20, lat, dtype="f4")  # descending, as ERA5
        lo = d.createVariable("longitude", "f4", ("longitude",))
        lo.units = "degrees_east"
        lo[:] = np.linspace(0, 33, lon, dtype="f4")
        v = d.createVariable("t2m", "i2", ("time", "latitude", "longitude"),
                             zlib=True, shuffle=True, chunksizes=(chunk, 5, 6),
                             fill_value=np.int16(-32767))
        v.scale_factor = np.float64(scale)
        v.add_offset = np.float64(offset)
        v.units = "K"
        t[:] = np.arange(start, start + hours, dtype="i4")
        data = 273.0 + 20 * rng.random((hours, lat, lon))
        data[0, 0, 0] = np.nan  # a masked value
        v[:] = np.ma.masked_invalid(data)


def rec(path, n, start):
    with netCDF4.Dataset(path, "w", format="NETCDF3_CLASSIC") as d:
        d.createDimension("time", None)
        d.createDimension("lat", 4)
        d.createDimension("lon", 5)
        t = d.createVariable("time", "f8", ("time",))
        t.units = "days since 2000-01-01"
        la = d.createVariable("lat", "f4", ("lat",))
        la[:] = [10, 20, 30, 40]
        lo = d.createVariable("lon", "f4", ("lon",))
        lo[:] = [0, 1, 2, 3, 4]
        v = d.createVariable("sst", "f4", ("time", "lat", "lon"), fill_value=np.float32(-999))
        t[:] = np.arange(start, start + n)
        v[:] = rng.random((n, 4, 5)).astype("f4")


os.makedirs("joins", exist_ok=True)
os.makedirs("refuse", exist_ok=True)
era("joins/era_0.nc", 12, 0, "hours since 2020-01-01 00:00:00")
era("joins/era_1.nc", 12, 12, "hours since 2020-01-01 00:00:00")
era("joins/era_2.nc", 7, 0, "hours since 2020-01-02 00:00:00")
rec("joins/rec_0.nc", 3, 0)
rec("joins/rec_1.nc", 2, 3)
era("refuse/scale_0.nc", 6, 0, "hours since 2020-01-01", scale=0.002)
era("refuse/scale_1.nc", 6, 6, "hours since 2020-01-01", scale=0.003)
era("refuse/chunk_0.nc", 6, 0, "hours since 2020-01-01", chunk=6)
era("refuse/chunk_1.nc", 6, 6, "hours since 2020-01-01", chunk=3)
era("refuse/mid_0.nc", 5, 0, "hours since 2020-01-01", chunk=2)
era("refuse/mid_1.nc", 4, 5, "hours since 2020-01-01", chunk=2)
