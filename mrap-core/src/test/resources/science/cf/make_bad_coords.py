#!/usr/bin/python3
"""Writes bad_coords.nc, the fixture of the selections by value that must be refused by name:
a coordinate that is not monotonic (x: 0, 10, 5, 20, 30), a 2-D (curvilinear) coordinate
(lat2d and lon2d over (y, x), named by the variable's `coordinates` attribute, as ocean and
regional model output carries them), and a time coordinate in a calendar cftime does not know
("lunar"). The variable `sst(time, y, x)` itself is ordinary float32.

Run with Debian's interpreter from this folder: /usr/bin/python3 make_bad_coords.py
(python3-netcdf4 1.6.2 on netCDF-C 4.9.0). Deterministic.
"""
import os

import netCDF4
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

with netCDF4.Dataset(os.path.join(HERE, "bad_coords.nc"), "w", format="NETCDF4") as d:
    d.createDimension("time", 3)
    d.createDimension("y", 4)
    d.createDimension("x", 5)
    t = d.createVariable("time", "f8", ("time",))
    t.units = "days since 2000-01-01"
    t.calendar = "lunar"
    t[:] = [0, 1, 2]
    y = d.createVariable("y", "f8", ("y",))
    y.units = "m"
    y[:] = [0, 1000, 2000, 3000]
    x = d.createVariable("x", "f8", ("x",))
    x.units = "m"
    x[:] = [0, 10, 5, 20, 30]
    lat = d.createVariable("lat2d", "f8", ("y", "x"))
    lat.units = "degrees_north"
    lat.standard_name = "latitude"
    lat[:] = 40 + np.arange(20).reshape(4, 5) * 0.1
    lon = d.createVariable("lon2d", "f8", ("y", "x"))
    lon.units = "degrees_east"
    lon.standard_name = "longitude"
    lon[:] = -70 + np.arange(20).reshape(4, 5) * 0.2
    v = d.createVariable("sst", "f4", ("time", "y", "x"))
    v.coordinates = "lat2d lon2d"
    v.units = "K"
    v[:] = 280 + np.arange(60, dtype="f4").reshape(3, 4, 5) * 0.5
