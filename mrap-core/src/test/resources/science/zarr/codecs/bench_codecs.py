#!/usr/bin/python3
"""Decode throughput of numcodecs' C decoders (one thread), beside CodecThroughput's Java.

    /usr/bin/python3 bench_codecs.py DIR     writes DIR/<name>.in and .out, prints MB/s
    java -cp ... org.opass.mrap.format.zarr.CodecThroughput DIR

Chunks of 4 MiB of float32 (1024 x 1024): a smooth field with noise in its last bits (as
measured data are), and the same quantized to 1/64 (as packed or rounded data are), each as
numcodecs' default Blosc (lz4, clevel 5, byte shuffle), the same with bit shuffle, Blosc
zstd, and Zstd at level 1.
MB/s are of decoded bytes, 10^6 bytes a second, the best of several runs.
"""
import os
import sys
import timeit

import numcodecs
import numcodecs.blosc
import numpy as np
from numcodecs import Blosc, Zstd

numcodecs.blosc.use_threads = False
numcodecs.blosc.set_nthreads(1)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(1)
y, x = np.mgrid[0:1024, 0:1024] / 1024.0
field = 280 + 20 * np.sin(6 * x) * np.cos(4 * y)
data = {'noisy': (field + rng.normal(0, 0.01, field.shape)).astype('<f4'),
        'smooth': (np.round(field * 64) / 64).astype('<f4')}
codecs = {'blosc-lz4-shuffle': Blosc('lz4', 5, Blosc.SHUFFLE),
          'blosc-lz4-bitshuffle': Blosc('lz4', 5, Blosc.BITSHUFFLE),
          'blosc-zstd-shuffle': Blosc('zstd', 5, Blosc.SHUFFLE),
          'zstd-1': Zstd(1)}
for dname, arr in data.items():
    for cname, codec in codecs.items():
        enc = codec.encode(arr)
        name = cname + '_' + dname
        with open(os.path.join(out, name + '.in'), 'wb') as f:
            f.write(enc)
        with open(os.path.join(out, name + '.out'), 'wb') as f:
            f.write(arr.tobytes())
        assert bytes(codec.decode(enc)) == arr.tobytes()
        n = 20
        best = min(timeit.repeat(lambda: codec.decode(enc), number=n, repeat=5)) / n
        print('%-28s ratio %5.2f  numcodecs %7.0f MB/s' % (name, arr.nbytes / len(enc),
                                                          arr.nbytes / best / 1e6))
