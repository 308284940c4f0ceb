#!/usr/bin/python3
"""Writes the fixtures of org.opass.mrap.format.zarr.ZarrCodecsTest: bytes encoded by numcodecs
(the codecs Zarr v2 stores chunks with) and what numcodecs decodes them to.

Run from this folder with Debian's interpreter (numcodecs 0.11, its Blosc the system's c-blosc
1.21.3, numpy 1.24, zstd 1.5.4):   /usr/bin/python3 make_codecs.py

Each case is <name>.in, the encoded bytes, and an expected output: the bytes numcodecs' decode
gives back (oracle "numcodecs"), or, where numcodecs 0.11 cannot decode a valid input (a zstd
frame without a content size, several frames, an empty chunk), the bytes that were encoded
(oracle "source"). Cases of one sample share the sample's .out file (<sample>.out, or
<name>.out where a case's output is its own), which keeps the folder small; cases.json lists
name, codec, arguments, in, out and oracle, or "error" where numcodecs refuses the input.
Deterministic: the data come from fixed formulas and a seeded generator.
"""
import ctypes
import gzip
import json
import os
import subprocess
import zlib

import numcodecs
import numcodecs.blosc
import numpy as np
from numcodecs import GZip, LZ4, Blosc, Delta, Shuffle, Zlib, Zstd

HERE = os.path.dirname(os.path.abspath(__file__))
numcodecs.blosc.set_nthreads(1)
numcodecs.blosc.use_threads = False
rng = np.random.default_rng(20240611)
cases = []
outs = {}
for old in os.listdir(HERE):  # the cases of an earlier run
    if old.endswith(('.in', '.out')) or old == 'cases.json':
        os.remove(os.path.join(HERE, old))


def write(name, data):
    with open(os.path.join(HERE, name), 'wb') as f:
        f.write(bytes(data))


def sample(name, arr):
    """A sample's bytes, written once as <name>.out."""
    b = bytes(arr) if isinstance(arr, bytes) else np.ascontiguousarray(arr).tobytes()
    outs[name] = b
    write(name + '.out', b)
    return arr


def case(name, codec, args, encoded, out, oracle='numcodecs', decoded=None):
    """One case: encoded bytes, and the sample (out) numcodecs must decode them to."""
    encoded = bytes(encoded)
    write(name + '.in', encoded)
    if oracle == 'numcodecs':
        got = bytes(np.ascontiguousarray(decoded).view('u1').reshape(-1))
        if out not in outs or outs[out] != got:
            out = name
            outs[out] = got
            write(out + '.out', got)
    cases.append(dict(name=name, codec=codec, args=args, oracle=oracle,
                      **{'in': name + '.in', 'out': out + '.out'}))


def error_case(name, codec, args, encoded, why):
    write(name + '.in', bytes(encoded))
    cases.append(dict(name=name, codec=codec, args=args, oracle='numcodecs', error=why,
                      **{'in': name + '.in'}))


def numcodecs_case(name, codec, args, c, arr, out):
    enc = c.encode(arr)
    if codec == 'gzip':
        enc = enc[:4] + bytes(4) + enc[8:]  # no time in the header: the same bytes each run
    case(name, codec, args, enc, out, decoded=c.decode(enc))


# samples: sizes not multiples of the block sizes, several element sizes
i = np.arange(16500)
f4big = sample('f4big', (np.round(np.sin(i * 0.002) * 60) / 4).astype('<f4'))    # 66000 B
f4 = sample('f4', (np.round(np.sin(np.arange(513) * 0.013) * 1000) / 16).astype('<f4'))  # 2052 B
i2 = sample('i2', ((np.arange(1501) % 577) * 3 - 700).astype('<i2'))               # 3002 B
f8 = sample('f8', np.cumsum(rng.integers(-50, 50, size=400)) / 32)                   # 3200 B
u1 = sample('u1', ((np.arange(1500) // 7) % 251).astype('u1'))                      # 1500 B
rand = sample('rand', rng.integers(0, 2**32, size=750, dtype='<u4'))                # 3000 B
mixed = sample('mixed', np.concatenate([f4big[:700], rng.random(500).astype('<f4')]))
i8 = sample('i8', (np.arange(300, dtype='<i8') ** 2 - 70000))                      # 2400 B
empty = sample('empty', np.zeros(0, dtype='<f4'))

CNAMES = ['blosclz', 'lz4', 'lz4hc', 'zlib', 'zstd']
SHUFFLES = {'noshuffle': Blosc.NOSHUFFLE, 'shuffle': Blosc.SHUFFLE,
            'bitshuffle': Blosc.BITSHUFFLE, 'autoshuffle': Blosc.AUTOSHUFFLE}
# AUTOSHUFFLE is SHUFFLE for float32 (the same bytes): it is tried on bytes (bitshuffle) below


def blosc(name, arr, out, cname, shuffle, clevel=9, blocksize=0):
    c = Blosc(cname=cname, clevel=clevel, shuffle=SHUFFLES[shuffle], blocksize=blocksize)
    numcodecs_case(name, 'blosc', dict(cname=cname, shuffle=shuffle, clevel=clevel,
                                       blocksize=blocksize), c, arr, out)


# every compressor x shuffle: a small chunk (one block, split into streams but for zstd),
# small forced blocks (256 B: 64 float32, too few to split, many blocks and a leftover)
for cname in CNAMES:
    for shuffle in ['noshuffle', 'shuffle', 'bitshuffle']:
        blosc(f'blosc_{cname}_{shuffle}_f4', f4, 'f4', cname, shuffle)
        blosc(f'blosc_{cname}_{shuffle}_bs256_f4', f4, 'f4', cname, shuffle, blocksize=256)
    # blocks of 64 KiB split into streams, then a leftover block (bitshuffle leaves its
    # 116 elements, not a multiple of 8, as they are); zstd blocks of 4096 B
    for shuffle in ['shuffle', 'bitshuffle']:
        blosc(f'blosc_{cname}_{shuffle}_bs4096_f4big', f4big, 'f4big', cname, shuffle,
              blocksize=4096)
    blosc(f'blosc_{cname}_shuffle_i2', i2, 'i2', cname, 'shuffle', clevel=5, blocksize=1024)
    blosc(f'blosc_{cname}_bitshuffle_f8', f8, 'f8', cname, 'bitshuffle', clevel=3)
    blosc(f'blosc_{cname}_autoshuffle_u1', u1, 'u1', cname, 'autoshuffle', clevel=1,
          blocksize=512)
    # incompressible: the whole chunk copied (memcpyed); half random: streams stored raw
    blosc(f'blosc_{cname}_shuffle_rand', rand, 'rand', cname, 'shuffle')
    blosc(f'blosc_{cname}_shuffle_bs1024_mixed', mixed, 'mixed', cname, 'shuffle',
          blocksize=1024)
blosc('blosc_lz4_autoshuffle_f4', f4, 'f4', 'lz4', 'autoshuffle')
blosc('blosc_blosclz_clevel0_f4', f4, 'f4', 'blosclz', 'shuffle', clevel=0)
blosc('blosc_zstd_clevel0_f4', f4, 'f4', 'zstd', 'shuffle', clevel=0)
blosc('blosc_lz4_shuffle_default_f4big', f4big, 'f4big', 'lz4', 'shuffle', clevel=5)
blosc('blosc_zstd_bitshuffle_default_i8', i8, 'i8', 'zstd', 'bitshuffle', clevel=5)
# numcodecs 0.11 refuses to decode an empty chunk (c-blosc returns 0 bytes, taken as an error)
case('blosc_lz4_shuffle_empty', 'blosc', dict(cname='lz4', shuffle='shuffle', clevel=5),
     Blosc(cname='lz4').encode(empty), 'empty', oracle='source')

# c-blosc's own API (the library numcodecs is built on), for what numpy's arrays cannot ask:
# a typesize that does not divide the buffer, typesizes past 16 (never split), blocks of
# element counts not a multiple of 8
lib = ctypes.CDLL('libblosc.so.1')  # the library numcodecs' Blosc is linked to
for f in ('blosc_compress', 'blosc_decompress', 'blosc_set_compressor',
          'blosc_set_blocksize', 'blosc_set_nthreads'):
    getattr(lib, f)
lib.blosc_set_nthreads(1)


def blosc_raw(name, data, out, typesize, cname, shuffle, clevel=9, blocksize=0):
    data = bytes(data)
    dest = ctypes.create_string_buffer(len(data) + 16)
    lib.blosc_set_compressor(cname.encode())
    lib.blosc_set_blocksize(ctypes.c_size_t(blocksize))
    n = lib.blosc_compress(clevel, SHUFFLES[shuffle], ctypes.c_size_t(typesize),
                           ctypes.c_size_t(len(data)), data, dest, ctypes.c_size_t(len(dest)))
    lib.blosc_set_blocksize(ctypes.c_size_t(0))
    assert n > 0, name
    enc = dest.raw[:n]
    dec = ctypes.create_string_buffer(len(data))
    m = lib.blosc_decompress(enc, dec, ctypes.c_size_t(len(data)))
    assert m == len(data), name
    decoded = np.frombuffer(dec.raw[:m], dtype='u1')
    assert decoded.tobytes() == data, name
    case(name, 'blosc', dict(cname=cname, shuffle=shuffle, clevel=clevel, typesize=typesize,
                             blocksize=blocksize), enc, out, decoded=decoded)


tail = sample('f4_2051', f4.tobytes()[:2051])
for cname in ['blosclz', 'lz4', 'zstd']:
    for shuffle in ['shuffle', 'bitshuffle']:
        blosc_raw(f'blosc_{cname}_{shuffle}_ts4_2051', tail, 'f4_2051', 4, cname, shuffle)
        blosc_raw(f'blosc_{cname}_{shuffle}_ts4_bs300_2051', tail, 'f4_2051', 4, cname, shuffle,
                  blocksize=300)
        blosc_raw(f'blosc_{cname}_{shuffle}_ts3_2051', tail, 'f4_2051', 3, cname, shuffle)
        blosc_raw(f'blosc_{cname}_{shuffle}_ts20_2051', tail, 'f4_2051', 20, cname, shuffle)
blosc_raw('blosc_lz4_shuffle_ts255_2051', tail, 'f4_2051', 255, 'lz4', 'shuffle')
blosc_raw('blosc_blosclz_shuffle_ts16_2051', tail, 'f4_2051', 16, 'blosclz', 'shuffle')
blosc_raw('blosc_lz4_shuffle_short', b'abc', 'abc', 4, 'lz4', 'shuffle')
runs = sample('runs', bytes(1000) + b'\x01' * 2000 + bytes(range(256)) * 2)
blosc_raw('blosc_blosclz_noshuffle_runs', runs, 'runs', 1, 'blosclz', 'noshuffle')
# snappy: refused by name
enc = Blosc(cname='snappy', clevel=5, shuffle=Blosc.SHUFFLE).encode(f4)
error_case('blosc_snappy_shuffle_f4', 'blosc', dict(cname='snappy'), enc,
           'snappy is not decoded')

# Zstd: levels; frames without a content size (the CLI reading a pipe); several frames
for level in [-5, 1, 3, 9, 22]:
    numcodecs_case(f'zstd_l{level}_f4', 'zstd', dict(level=level), Zstd(level=level), f4, 'f4')
numcodecs_case('zstd_l5_f4big', 'zstd', dict(level=5), Zstd(level=5), f4big, 'f4big')
numcodecs_case('zstd_l1_rand', 'zstd', dict(level=1), Zstd(level=1), rand, 'rand')


def zstd_cli(name, data, out, *flags):
    enc = subprocess.run(['/usr/bin/zstd', '-q', '-c', *flags], input=data,
                         stdout=subprocess.PIPE, check=True).stdout
    assert enc[4] & 0xC0 == 0 and enc[4] & 0x20 == 0, 'a content size in ' + name
    case(name, 'zstd', dict(cli=' '.join(flags), content_size=False), enc, out,
         oracle='source')
    return enc


stdin_f4 = zstd_cli('zstd_cli_stdin_f4', f4.tobytes(), 'f4')
zstd_cli('zstd_cli_stdin_nocheck_f4big', f4big.tobytes(), 'f4big', '--no-check', '-19')
# windows of 1 KiB: blocks of at most 1 KiB, many of them
zstd_cli('zstd_cli_stdin_wlog10_f4', f4.tobytes(), 'f4', '--zstd=wlog=10')
zstd_cli('zstd_cli_stdin_rand', rand.tobytes(), 'rand')
two = Zstd(level=3).encode(f4[:500]) + Zstd(level=3).encode(f4[500:])
case('zstd_two_frames_f4', 'zstd', dict(frames=2), two, 'f4', oracle='source')
skippable = (0x184D2A53).to_bytes(4, 'little') + (5).to_bytes(4, 'little') + b'hello'
mixed_frames = (zstd_cli('zstd_cli_stdin_i2_part', i2.tobytes()[:2002], 'i2')
                + skippable + Zstd(level=1).encode(i2.tobytes()[2002:]))
cases.pop()
os.remove(os.path.join(HERE, 'zstd_cli_stdin_i2_part.in'))
case('zstd_cli_skippable_frame_i2', 'zstd', dict(frames=3), mixed_frames, 'i2',
     oracle='source')
case('zstd_empty', 'zstd', dict(level=1), Zstd(level=1).encode(empty), 'empty', oracle='source')

# LZ4 (numcodecs' format: a 4-byte little-endian size, then an LZ4 block)
for acc in [1, 10]:
    numcodecs_case(f'lz4_a{acc}_f4', 'lz4', dict(acceleration=acc), LZ4(acc), f4, 'f4')
numcodecs_case('lz4_a1_f4big', 'lz4', dict(acceleration=1), LZ4(1), f4big, 'f4big')
numcodecs_case('lz4_a1_rand', 'lz4', dict(acceleration=1), LZ4(1), rand, 'rand')

# Zlib and GZip (one member and several; gzip's zero padding after a member)
for level in [0, 1, 9]:
    numcodecs_case(f'zlib_l{level}_f4', 'zlib', dict(level=level), Zlib(level), f4, 'f4')
    numcodecs_case(f'gzip_l{level}_i2', 'gzip', dict(level=level), GZip(level), i2, 'i2')
numcodecs_case('zlib_l6_f4big', 'zlib', dict(level=6), Zlib(6), f4big, 'f4big')
members = (gzip.compress(f8.tobytes()[:1000], 6, mtime=0)
           + gzip.compress(f8.tobytes()[1000:], 1, mtime=0))
case('gzip_two_members_f8', 'gzip', dict(members=2), members, 'f8',
     decoded=np.frombuffer(GZip().decode(members), 'u1'))
padded = gzip.compress(u1.tobytes(), 9, mtime=0) + bytes(7)
case('gzip_zero_padding_u1', 'gzip', dict(padding=7), padded, 'u1',
     decoded=np.frombuffer(GZip().decode(padded), 'u1'))
raw = zlib.compressobj(5, zlib.DEFLATED, 31)   # a gzip member with a name and extra field
named = bytearray(raw.compress(rand.tobytes()) + raw.flush())
hdr = bytearray(named[:10])
hdr[3] |= 0x04 | 0x08 | 0x10
named = bytes(hdr) + b'\x03\x00abc' + b'name.bin\x00' + b'a comment\x00' + bytes(named[10:])
case('gzip_header_fields_rand', 'gzip', dict(fields='extra,name,comment'), named, 'rand',
     decoded=np.frombuffer(GZip().decode(named), 'u1'))

# Shuffle
for arr, out, es in [(f4, 'f4', 4), (i2, 'i2', 2), (f8, 'f8', 8), (u1, 'u1', 1),
                     (u1, 'u1', 3), (i8, 'i8', 8)]:
    numcodecs_case(f'shuffle_e{es}_{out}', 'shuffle', dict(elementsize=es), Shuffle(es),
                   arr, out)
error_case('shuffle_e4_1001', 'shuffle', dict(elementsize=4), i2.tobytes()[:1001],
           'Shuffle buffer is not an integer multiple of elementsize')
try:
    Shuffle(4).decode(i2.tobytes()[:1001])
    raise AssertionError('numcodecs now shuffles a partial element')
except ValueError:
    pass

# Delta: decoded as numcodecs does (np.cumsum(enc, out=dec): summed in the type numpy promotes
# dtype and astype to, then cast to dtype)
deltas = [
    ('<i4', '<i4', (np.arange(2000) * 37 % 1001 - 500).astype('<i4')),
    ('<i4', '<i1', (np.arange(2000) * 3 % 200 - 100).astype('<i4')),
    ('<i2', '<i1', np.cumsum(np.tile([100, -7, 3, 120], 400)).astype('<i2')),
    ('<u2', '<u1', np.cumsum(np.tile([250, 3, 9], 500)).astype('<u2')),
    ('<u1', '<u1', ((np.arange(1000) * 7) % 256).astype('u1')),
    ('<i8', '<i4', (np.arange(1000, dtype='<i8') * 123456789)),
    ('>i4', '>i4', (np.arange(1500) * 91 % 3000 - 1500).astype('>i4')),
    ('>u2', '<i2', (np.arange(1500) * 913 % 60000).astype('>u2')),
    ('<u4', '<i8', (np.arange(1500, dtype='<u4') * 2654435761)),
    ('<f8', '<f8', f8),
    ('<f4', '<f4', f4),
    ('>f8', '>f8', f8.astype('>f8')),
    ('<f8', '<f4', rng.normal(size=200).astype('<f8')),     # summed in float64, not float32
    ('<f4', '<f8', f4),
    ('<i4', '<f4', (np.arange(1000) * 5 - 2000).astype('<i4')),
    ('<f4', '<i2', np.arange(1000).astype('<f4') * 1.5),
    ('|u1', '|i1', u1),
]
for dtype, astype, arr in deltas:
    name = 'delta_{}_{}'.format(dtype.replace('<', 'l').replace('>', 'b').replace('|', 'x'),
                                astype.replace('<', 'l').replace('>', 'b').replace('|', 'x'))
    numcodecs_case(name, 'delta', dict(dtype=dtype, astype=astype), Delta(dtype, astype),
                   arr if len(arr) <= 300 else arr[:200], name)

# summed in float32 (uint16 and float32 promote to it): past 2^24, adding 1 changes nothing
enc = np.array([65535] * 258 + [1] * 22, dtype='<u2')
case('delta_lf4_lu2', 'delta', dict(dtype='<f4', astype='<u2'), enc.tobytes(), 'delta_lf4_lu2',
     decoded=Delta('<f4', '<u2').decode(enc))
assert not np.array_equal(Delta('<f4', '<u2').decode(enc),
                          np.cumsum(enc.astype('f8')).astype('<f4'))

# uint64 and int64 promote to float64: a sum past 2^53 is rounded
enc = rng.integers(2**57, 2**58, size=30, dtype='<u8')
case('delta_li8_lu8', 'delta', dict(dtype='<i8', astype='<u8'), enc.tobytes(), 'delta_li8_lu8',
     decoded=Delta('<i8', '<u8').decode(enc))
assert not np.array_equal(Delta('<i8', '<u8').decode(enc), np.cumsum(enc.astype('<i8')))
enc = Delta('<f8', '<f4').encode(rng.normal(size=200))
assert not np.array_equal(Delta('<f8', '<f4').decode(enc), np.cumsum(enc).astype('<f8'))

with open(os.path.join(HERE, 'cases.json'), 'w') as f:
    f.write('{"numcodecs": %s, "blosc": %s, "cases": [\n' % (
        json.dumps(numcodecs.__version__), json.dumps(numcodecs.blosc.VERSION_STRING)))
    f.write(',\n'.join(json.dumps(c) for c in cases))
    f.write('\n]}\n')
print(len(cases), 'cases,', sum(os.path.getsize(os.path.join(HERE, n))
                                for n in os.listdir(HERE)), 'bytes')
