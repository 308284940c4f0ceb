#!/usr/bin/python3
"""Reads one variable of a NetCDF file as netCDF4-python's automatic mask and scale decodes it,
and prints it as JSON for ScienceOutputTest
(src/test/java/org/opass/e2e/mrap/ScienceOutputTest.java): the oracle is netCDF4-python
(Debian's, /usr/bin/python3), never our reader.

    read_netcdf4.py PATH VARIABLE

Prints {"dtype": the decoded dtype, "dims": [...], "values": C order, null where masked}.
netCDF4-python unpacks an int16 with a float64 scale_factor to float64, as VariableInputFormat
does; xarray unpacks it to float32 (mrap-core/src/test/resources/science/cf/README.md).
"""
import json
import sys

import netCDF4
import numpy as np


def main():
    path, name = sys.argv[1], sys.argv[2]
    with netCDF4.Dataset(path) as nc:
        v = nc.variables[name]
        a = np.ma.asarray(v[:])
        mask = np.ma.getmaskarray(a).ravel()
        data = np.asarray(a.data, dtype=np.float64).ravel()
        values = [None if m else float(x) for x, m in zip(data.tolist(), mask.tolist())]
        print(json.dumps({"dtype": str(a.dtype), "dims": list(v.dimensions),
                          "values": values}))


main()
