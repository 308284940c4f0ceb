#!/usr/bin/python3
"""Decodes every Zarr v3 store under v3/ with a small reader of its own, written from the
spec's text, and compares with expected/v3/<store>/<path>.npy bit for bit; checks that the
v3 stores under damaged/ fail with the reason damaged/README.md gives.

    /usr/bin/python3 check_v3.py

Independent of make_zarr_fixtures.py's encoders: blosc through python-blosc (not numcodecs),
gzip through the gzip module, zstd through the zstd command (which also checks the frames'
checksums), crc32c through crcmod.  Exit status 1 on any difference.
"""
import gzip
import json
import os
import subprocess
import sys

import blosc
import crcmod.predefined
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CRC32C = crcmod.predefined.mkCrcFun('crc-32c')
EMPTY = 2 ** 64 - 1
DTYPES = {'bool': '|b1', 'int8': '|i1', 'uint8': '|u1', 'int16': 'i2', 'uint16': 'u2',
          'int32': 'i4', 'uint32': 'u4', 'int64': 'i8', 'uint64': 'u8',
          'float32': 'f4', 'float64': 'f8'}
ARRAY_TO_BYTES = ('bytes', 'sharding_indexed')


class Bad(Exception):
    pass


def fill_of(data_type, fv):
    dt = np.dtype(DTYPES[data_type]).newbyteorder('<')
    if data_type == 'bool':
        if not isinstance(fv, bool):
            raise Bad('bool fill_value must be true or false')
        return np.array(fv, dtype=dt)
    if dt.kind in 'iu':
        if not isinstance(fv, int) or isinstance(fv, bool):
            raise Bad('integer fill_value must be a JSON integer')
        return np.array(fv, dtype=dt)
    if isinstance(fv, str):
        if fv.startswith('0x'):
            if len(fv) != 2 + 2 * dt.itemsize:
                raise Bad('hex fill_value %r is not %d bytes' % (fv, dt.itemsize))
            return np.frombuffer(int(fv, 16).to_bytes(dt.itemsize, 'little'), dtype=dt)[0]
        return np.array({'NaN': np.nan, 'Infinity': np.inf, '-Infinity': -np.inf}[fv], dtype=dt)
    return np.array(fv, dtype=dt)


def encoded_size(codecs, nbytes):
    for c in codecs:
        if c['name'] == 'crc32c':
            nbytes += 4
        elif c['name'] not in ('bytes', 'transpose'):
            raise Bad('index codec %r has no fixed size' % c['name'])
    return nbytes


def decode(buf, codecs, shape, dt, fill):
    """The spec's decoding procedure, codecs in reverse order."""
    k = [i for i, c in enumerate(codecs) if c['name'] in ARRAY_TO_BYTES]
    known = ARRAY_TO_BYTES + ('transpose', 'gzip', 'zstd', 'blosc', 'crc32c')
    for c in codecs:
        if c['name'] not in known:
            raise Bad('unsupported codec %r' % c['name'])
    if len(k) != 1:
        raise Bad('codecs need exactly one array -> bytes codec')
    k = k[0]
    shapes = [tuple(shape)]
    for c in codecs[:k]:
        order = c['configuration']['order']
        if sorted(order) != list(range(len(shapes[-1]))):
            raise Bad('transpose order %r is no permutation' % order)
        shapes.append(tuple(shapes[-1][o] for o in order))
    for c in reversed(codecs[k + 1:]):
        name, conf = c['name'], c.get('configuration', {})
        if name == 'crc32c':
            if len(buf) < 4:
                raise Bad('crc32c: fewer than 4 bytes')
            stored = int.from_bytes(buf[-4:], 'little')
            if CRC32C(buf[:-4]) != stored:
                raise Bad('crc32c mismatch: stored %08x, computed %08x'
                          % (stored, CRC32C(buf[:-4])))
            buf = buf[:-4]
        elif name == 'gzip':
            buf = gzip.decompress(buf)
        elif name == 'zstd':
            r = subprocess.run(['/usr/bin/zstd', '-d', '-q', '-c'], input=buf,
                               capture_output=True)
            if r.returncode:
                raise Bad('zstd: %s' % r.stderr.decode().strip())
            buf = r.stdout
        elif name == 'blosc':
            buf = blosc.decompress(buf)
        else:
            raise Bad('%r is not a bytes -> bytes codec' % name)
    c = codecs[k]
    conf = c.get('configuration', {})
    s = shapes[-1]
    if c['name'] == 'bytes':
        endian = conf.get('endian')
        if endian is None and dt.itemsize > 1:
            raise Bad('bytes codec needs endian for %s' % dt)
        want = int(np.prod(s, dtype=np.int64)) * dt.itemsize
        if len(buf) != want:
            raise Bad('chunk has %d bytes, %d expected' % (len(buf), want))
        arr = np.frombuffer(buf, dtype=dt.newbyteorder('>' if endian == 'big' else '<'))
        arr = arr.astype(dt.newbyteorder('<')).reshape(s)
    else:
        arr = decode_shard(buf, conf, s, dt, fill)
    for c, s in reversed(list(zip(codecs[:k], shapes[:-1]))):
        arr = np.transpose(arr, np.argsort(c['configuration']['order']))
    return arr


def decode_shard(buf, conf, shape, dt, fill):
    inner = conf['chunk_shape']
    if len(inner) != len(shape) or any(n % i for n, i in zip(shape, inner)):
        raise Bad('inner chunk shape %r does not divide the shard %r' % (inner, shape))
    cps = tuple(n // i for n, i in zip(shape, inner))
    n = int(np.prod(cps, dtype=np.int64))
    isize = encoded_size(conf['index_codecs'], 16 * n)
    if len(buf) < isize:
        raise Bad('shard of %d bytes is smaller than its index (%d)' % (len(buf), isize))
    loc = conf.get('index_location', 'end')
    ibuf = buf[:isize] if loc == 'start' else buf[len(buf) - isize:]
    index = decode(ibuf, conf['index_codecs'], cps + (2,), np.dtype('<u8'), None)
    out = np.empty(shape, dtype=dt.newbyteorder('<'))
    for idx in np.ndindex(*cps):
        off, nb = (int(x) for x in index[idx])
        sl = tuple(slice(i * c, (i + 1) * c) for i, c in zip(idx, inner))
        if off == EMPTY and nb == EMPTY:
            out[sl] = fill
            continue
        if off + nb > len(buf):
            raise Bad('inner chunk %s at offset %d + %d bytes lies past the shard end (%d)'
                      % (idx, off, nb, len(buf)))
        out[sl] = decode(buf[off:off + nb], conf['codecs'], tuple(inner), dt, fill)
    return out


def key_of(idx, cke):
    name = cke['name']
    sep = cke.get('configuration', {}).get('separator', '/' if name == 'default' else '.')
    if sep not in ('/', '.'):
        raise Bad('separator %r' % sep)
    if name == 'default':
        return 'c' + ''.join(sep + str(i) for i in idx)
    if name == 'v2':
        return sep.join(str(i) for i in idx) if idx else '0'
    raise Bad('chunk key encoding %r' % name)


def read_array(root, meta):
    for k in ('zarr_format', 'node_type', 'shape', 'data_type', 'chunk_grid',
              'chunk_key_encoding', 'fill_value', 'codecs'):
        if k not in meta:
            raise Bad('zarr.json lacks %r' % k)
    if meta['zarr_format'] != 3 or meta['node_type'] != 'array':
        raise Bad('not a v3 array')
    if meta['data_type'] not in DTYPES:
        raise Bad('data type %r' % meta['data_type'])
    dt = np.dtype(DTYPES[meta['data_type']]).newbyteorder('<')
    shape = tuple(meta['shape'])
    if meta['chunk_grid']['name'] != 'regular':
        raise Bad('chunk grid %r' % meta['chunk_grid']['name'])
    chunks = tuple(meta['chunk_grid']['configuration']['chunk_shape'])
    if len(chunks) != len(shape) or any(c < 1 for c in chunks):
        raise Bad('chunk shape %r' % (chunks,))
    if meta.get('dimension_names') is not None and len(meta['dimension_names']) != len(shape):
        raise Bad('dimension_names has the wrong length')
    fill = fill_of(meta['data_type'], meta['fill_value'])
    out = np.empty(shape, dtype=dt)
    grid = tuple(-(-n // c) for n, c in zip(shape, chunks))
    for idx in np.ndindex(*grid):
        sl = tuple(slice(i * c, min((i + 1) * c, n)) for i, c, n in zip(idx, chunks, shape))
        path = os.path.join(root, *key_of(idx, meta['chunk_key_encoding']).split('/'))
        if not os.path.isfile(path):
            out[sl] = fill
            continue
        with open(path, 'rb') as f:
            buf = f.read()
        try:
            chunk = decode(buf, meta['codecs'], chunks, dt, fill)
        except Bad as e:
            raise Bad('%s: %s' % (os.path.relpath(path, HERE), e))
        out[sl] = chunk[tuple(slice(0, s.stop - s.start) for s in sl)]
    return out


def same(a, b):
    if a.shape != b.shape or a.dtype.newbyteorder('<') != b.dtype.newbyteorder('<'):
        return False
    if a.dtype.kind == 'f':
        u = 'u%d' % a.dtype.itemsize
        return bool(np.array_equal(np.ascontiguousarray(a).view(u), np.ascontiguousarray(b).view(u)))
    return bool(np.array_equal(a, b))


def nodes(store):
    for dirpath, dirnames, filenames in os.walk(store):
        dirnames.sort()
        if 'zarr.json' in filenames:
            with open(os.path.join(dirpath, 'zarr.json')) as f:
                yield dirpath, json.load(f)


def main():
    failures, arrays = [], 0
    seen = set()
    v3 = os.path.join(HERE, 'v3')
    for store in sorted(os.listdir(v3)):
        sroot = os.path.join(v3, store)
        for dirpath, meta in nodes(sroot):
            rel = os.path.relpath(dirpath, sroot).replace(os.sep, '/')
            rel = '' if rel == '.' else rel
            for part in rel.split('/') if rel else []:
                if part.startswith('__') or part in ('.', '..', 'zarr.json'):
                    failures.append('%s/%s: node name %r' % (store, rel, part))
            if meta.get('node_type') == 'group':
                if meta.get('zarr_format') != 3:
                    failures.append('%s/%s: group without zarr_format 3' % (store, rel))
                continue
            npy = os.path.join(HERE, 'expected', 'v3', store, (rel or '__root__') + '.npy')
            seen.add(os.path.normpath(npy))
            try:
                got = read_array(dirpath, meta)
                want = np.load(npy)
                if not same(got, want):
                    failures.append('%s/%s: values differ from %s' % (store, rel, npy))
                arrays += 1
            except Exception as e:
                failures.append('%s/%s: %s: %s' % (store, rel, type(e).__name__, e))
    exp = os.path.join(HERE, 'expected', 'v3')
    for dirpath, _, filenames in os.walk(exp):
        for f in filenames:
            if os.path.normpath(os.path.join(dirpath, f)) not in seen:
                failures.append('%s has no array' % os.path.join(dirpath, f))
    # the damaged v3 stores must fail, for their reason
    reasons = {'v3_shard_index_past_end.zarr': 'past the shard end',
               'v3_shard_bad_crc.zarr': 'crc32c mismatch',
               'v3_unknown_codec.zarr': "unsupported codec 'bz2'"}
    for store, reason in reasons.items():
        root = os.path.join(HERE, 'damaged', store)
        with open(os.path.join(root, 'zarr.json')) as f:
            meta = json.load(f)
        try:
            read_array(root, meta)
            failures.append('damaged/%s read without error' % store)
        except Bad as e:
            if reason not in str(e):
                failures.append('damaged/%s failed for another reason: %s' % (store, e))
    for f in failures:
        print('FAIL', f)
    print('v3: %d arrays decoded and equal to their .npy; %d damaged stores refused; '
          '%d failures' % (arrays, len(reasons), len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
