#!/usr/bin/env python3
"""bin/bench mrap-science's data set, written by the reference libraries: FILES NetCDF-3
(64-bit offset, netCDF-C) and FILES HDF5 (h5py, chunked) files of five float32 variables
(time, lat, lon), RECORDS time steps each.

usage: make_science_data.py OUT_DIR FILES RECORDS
"""
import os
import sys

import h5py
import netCDF4
import numpy as np

VARIABLES = ['temperature', 'pressure', 'humidity', 'wind_u', 'wind_v']
LAT, LON = 256, 512
CHUNKS = (8, 64, 128)


def field(rng, records, k):
    base = np.linspace(0, 1, LAT * LON, dtype='f4').reshape(LAT, LON) * (k + 1)
    return (base[None, :, :] + rng.random((records, LAT, LON), dtype='f4')).astype('f4')


def main(out, files, records):
    os.makedirs(os.path.join(out, 'nc'), exist_ok=True)
    os.makedirs(os.path.join(out, 'h5'), exist_ok=True)
    for i in range(files):
        rng = np.random.default_rng(i)
        data = {v: field(rng, records, k) for k, v in enumerate(VARIABLES)}
        with netCDF4.Dataset(os.path.join(out, 'nc', 'run_%03d.nc' % i), 'w',
                             format='NETCDF3_64BIT_OFFSET') as ds:
            ds.set_fill_off()
            ds.createDimension('time', None)
            ds.createDimension('lat', LAT)
            ds.createDimension('lon', LON)
            for v in VARIABLES:
                ds.createVariable(v, 'f4', ('time', 'lat', 'lon'))[:] = data[v]
        with h5py.File(os.path.join(out, 'h5', 'run_%03d.h5' % i), 'w') as f:
            for v in VARIABLES:
                # a chunk no longer than the file's time steps (bin/bench mrap-pack's have one)
                f.create_dataset(v, data=data[v], chunks=(min(CHUNKS[0], records),) + CHUNKS[1:])


if __name__ == '__main__':
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
