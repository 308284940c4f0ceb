#!/usr/bin/env python3
"""Writes cftime_cases.json: what cftime, the reference implementation of the CF calendars,
makes of time coordinates, for CfTimeTest to check org.opass.mrap.science.CfTime against.

Run from this folder with Debian's Python, which has cftime 1.6.2 and numpy:
    /usr/bin/python3 make_cftime_cases.py
Deterministic: fixed lists and a seeded random.Random. Run it on x86-64: num2date multiplies in
numpy's longdouble, whose precision is the platform's (a 64-bit significand there), and a few
of the random values round to another microsecond with another one.

What it covers, for every calendar name cftime reads (aliases included):
  groups    units strings (days, hours, minutes, seconds, milliseconds, microseconds under
            several of their names; months in 360_day, common_years in noleap) since references
            1850-01-01, 1850-1-1, 1900-01-01 00:00:00.0, 2000-01-01T12:00:00Z, 1582-10-15,
            1582-10-04, 0001-01-01, 1970-01-01 00:00:00 UTC and one with a +05:30 offset. Each
            has "decode": [value, num2date's date as ISO text] for values on and around leap
            days (Feb 28/29/30, Mar 1 of 1900, 2000, 2004, 2100), month and year ends,
            1582-10-04/15, years 1 and 9999, the microsecond rounding's edges (ties, cftime's
            snap to whole seconds, products whose rounding to longdouble's 64-bit significand
            moves the microsecond) and random values; and "encode": [date text, date2num's
            value] for dates read from text. A date outside years 1 to 9999 (CfTime's range;
            cftime goes on to years 0 and -1, whose convention differs by calendar) and
            values cftime refuses are "refused: ..." entries.
  refused   units/calendar pairs cftime refuses (months outside 360_day, years, "us",
            reference dates the calendar lacks, unknown calendars), with cftime's message.
  dates     [text, calendar, the date in UTC or "refused: ..."]: reference-date texts as
            cftime reads them (forms, fractions it truncates, zones, days a calendar lacks).
  instants  [calendar, date, epoch day]: the day of a standard, julian or proleptic_gregorian
            date as cftime's toordinal() (a Julian day number) puts it, minus 2440588.

Texts cftime reads only in part ("1900-01-01 12" is midnight to it: it stops at what its
pattern does not match and ignores the rest) are left out: CfDate refuses them, and
CfTimeTest checks that. Every accepted text here is matched by cftime's pattern to its end
(but a trailing " UTC", which cftime ignores and CfDate reads as Z).
"""
import json
import math
import os
import platform
import random
import warnings
from datetime import timedelta
from fractions import Fraction

import cftime
import numpy as np

warnings.simplefilter('ignore')  # CFWarning for year <= 0 in the real-world calendars
HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20240501)

CALENDARS = ['standard', 'gregorian', 'proleptic_gregorian', 'noleap', '365_day', 'all_leap',
             '366_day', '360_day', 'julian']
REFERENCES = ['1850-01-01', '1900-01-01 00:00:00.0', '2000-01-01T12:00:00Z', '1582-10-15',
              '1582-10-04', '0001-01-01', '1850-1-1', '1970-01-01 00:00:00 UTC',
              '2000-03-01 06:30 +05:30']
# every unit name cftime reads but months and common_years, which come below
UNIT_NAMES = ['days', 'hours', 'seconds', 'minutes', 'milliseconds', 'microseconds', 'Days',
              'hrs', 'd', 'h', 's', 'secs', 'min', 'mins', 'msec', 'ms', 'microsecs', 'hour',
              'day', 'second', 'minute', 'millisecond', 'sec', 'hr', 'msecs', 'millisec',
              'millisecs', 'microsecond', 'microsec']
FACTOR = {'micro': 1, 'milli': 1000, 'sec': 10**6, 'min': 60 * 10**6, 'hour': 3600 * 10**6,
          'day': 86400 * 10**6, 'month': 30 * 86400 * 10**6, 'common': 365 * 86400 * 10**6}


def factor(unit):
    u = unit.lower()
    if u.startswith('micro'):
        return FACTOR['micro']
    if u.startswith('milli') or u.startswith('ms'):
        return FACTOR['milli']
    if u.startswith('min'):
        return FACTOR['min']
    if u.startswith('h'):
        return FACTOR['hour']
    if u.startswith('d'):
        return FACTOR['day']
    if u.startswith('month'):
        return FACTOR['month']
    if u.startswith('common'):
        return FACTOR['common']
    return FACTOR['sec']


def iso(d):
    s = '%04d-%02d-%02dT%02d:%02d:%02d' % (d.year, d.month, d.day, d.hour, d.minute, d.second)
    return s + ('.%06d' % d.microsecond if d.microsecond else '')


def in_range(d):
    return 1 <= d.year <= 9999


def parse(text, calendar):
    """A reference-date text as cftime's _dateparse reads it: the date, then the zone's shift."""
    m = cftime._cftime.ISO8601_REGEX.match(text.strip())
    rest = text.strip()[m.end():] if m else None
    assert rest in ('', ' UTC'), 'cftime reads only part of %r' % text
    y, mo, d, h, mi, s, us, off = cftime._cftime._parse_date(text.strip())
    dt = cftime.datetime(y, mo, d, h, mi, s, us, calendar=calendar)
    if off:
        dt -= timedelta(days=off / 1440.)
    return dt


def decode(value, units, calendar):
    try:
        d = cftime.num2date(np.float64(value), units, calendar)
    except Exception as e:
        return 'refused: cftime: %s' % type(e).__name__
    if not in_range(d):
        return 'refused: cftime gives %s' % iso(d)
    return iso(d)


def encode(text, units, calendar):
    dt = parse(text, calendar)
    if not in_range(dt):
        return 'refused: %s in UTC is outside years 1 to 9999' % iso(dt)
    return float(cftime.date2num(dt, units, calendar))


def targets(calendar):
    """Dates around leap days, month and year ends and the Julian/Gregorian switch."""
    out = []
    for y in (1, 1582, 1900, 2000, 2004, 2100, 9999):
        for md in ('01-01', '01-31', '02-28', '02-29', '02-30', '03-01', '04-30', '12-30',
                   '12-31'):
            out.append('%04d-%s' % (y, md))
    out += ['1582-10-04', '1582-10-05', '1582-10-14', '1582-10-15', '1582-10-04 23:59:59.999999',
            '1582-10-15 00:00:00.000001']
    ok = []
    for t in out:
        try:
            parse(t, calendar)
            ok.append(t)
        except ValueError:
            pass
    return ok


def units_list(calendar, ci):
    units = []
    for ri, ref in enumerate(REFERENCES):
        units.append(('days', 'hours', 'seconds')[ri % 3] + ' since ' + ref)
        units.append(UNIT_NAMES[(ci * 5 + ri * 2) % len(UNIT_NAMES)] + ' since ' + ref)
    if calendar == '360_day':
        units += ['months since 1850-01-01', 'month since 0001-01-01 00:00']
    if calendar in ('noleap', '365_day'):
        units += ['common_years since 1850-01-01', 'common_year since 2000-1-1']
    # cftime reads the words case-insensitively and apart by any blanks
    units.append('Minutes  Since 1900-01-01')
    return units


def half_even(x):
    n, r = divmod(x, 1)
    return n + 1 if r > Fraction(1, 2) or r == Fraction(1, 2) and n % 2 else n


def micros(value, unit, significand):
    """num2date's microseconds, the product held to a significand of so many bits (None: exact)."""
    x = Fraction(value) * unit
    if significand and x:
        e = abs(x.numerator).bit_length() - abs(x.denominator).bit_length() - significand
        while abs(x) / Fraction(2) ** e >= 2 ** significand:
            e += 1
        x = half_even(x / Fraction(2) ** e) * Fraction(2) ** e
    n = half_even(x)
    if unit >= 10**6 and n % 10**6 in (1, 999999):
        n = math.floor(x) if n % 10**6 == 1 else math.ceil(x)
    return n


def longdouble_values(units, calendar):
    """Values whose microsecond depends on the product's rounding to longdouble's 64 bits."""
    unit = factor(units.split()[0])
    if unit < 10**6:
        return []  # the product of a double and 1 or 1000 fits in 64 bits
    found = []
    for _ in range(20000):
        v = rng.uniform(-1, 1) * 10 ** rng.uniform(4, 6.4) * 86400 * 10**6 / unit
        if micros(v, unit, 64) != micros(v, unit, None):
            found.append(v)
            if len(found) == 2:
                break
    return found


def values(units, calendar, points):
    """Values to decode: on and around the target dates, rounding edges, random ones."""
    unit = units.split()[0]
    per_second = 10**6 / factor(unit)
    per_day = 86400 * per_second
    vs = []
    for t in points:
        v = float(cftime.date2num(parse(t, calendar), units, calendar))
        vs += [v, v + rng.choice([-1, -0.5, 0.25, 1, 1.5]) * per_day]
    # microsecond ties, and cftime's snap of 1 microsecond off a whole second to the second
    for seconds in (0.0000005, 0.0000015, 0.0000025, -0.0000005, -0.0000015, 0.0000009,
                    1.0000009, 0.9999991, -1.0000009, 59.9999995, 1.0000015, 86399.9999995):
        vs.append(seconds * per_second)
    for _ in range(6):
        vs.append(rng.uniform(-1, 1) * 10 ** rng.uniform(-3, 6.6) * per_day)
    vs += [float(rng.randrange(-10**6, 10**6)), 1e30 * per_day, -0.0]
    return vs + longdouble_values(units, calendar)


def dates():
    texts = ['2000-01-01', '2000-1-1', '0850-1-1', '850-01-01', '2000-01-01T12:34',
             '2000-01-01 12:34:56', '2000-01-01T1:2:3', '2000-01-01T12:34:56.5',
             '2000-01-01T12:34:56.000249', '2000-01-01T12:34:56.1234567', '2000-01-01T00:00Z',
             '2000-01-01Z', '2000-01-01T00:00:00+01:00', '2000-01-01T00:00:00-0130',
             '2000-01-01 00:00:00 +05', '2000-01-01 00:00:00 UTC', '2000-01-01 -05:00',
             '2000-03-01T00:30:00+01:00', '2001-03-01T00:30:00+01:00',
             '1582-10-15T00:00:00+00:01', '0001-01-01T00:00:00-00:01',
             '0001-01-01T00:00:00+00:01', '9999-12-31T23:59:59.999999',
             '9999-12-31T23:30-01:00', '2019-02-29', '2020-02-29', '2020-02-30', '2100-02-29',
             '1900-02-29', '1500-02-29', '1582-10-04', '1582-10-05', '1582-10-10', '1582-10-14',
             '1582-10-15', '2001-04-31', '2000-01-31', '2000-13-01', '2000-00-10', '2000-01-00',
             '2000-01-01T24:00', '2000-01-01T23:60', '2000-01-01T23:59:60', '0000-01-01']
    out = []
    for calendar in CALENDARS:
        for text in texts:
            try:
                d = parse(text, calendar)
                expected = iso(d) if in_range(d) else \
                    'refused: %s is outside years 1 to 9999' % iso(d)
            except ValueError as e:
                expected = 'refused: cftime: %s' % e
            out.append([text, calendar, expected])
    return out


def refused():
    pairs = [('months since 1850-01-01', c) for c in CALENDARS if c != '360_day']
    pairs += [('common_years since 1850-01-01', c) for c in CALENDARS
              if c not in ('noleap', '365_day')]
    pairs += [('years since 1850-01-01', 'noleap'), ('year since 1850-01-01', '360_day'),
              ('us since 1850-01-01', 'standard'), ('usec since 1850-01-01', 'julian'),
              ('usecs since 1850-01-01', 'proleptic_gregorian'),
              ('fortnights since 1850-01-01', 'standard'), ('days after 1850-01-01', 'standard'),
              ('days', 'standard'), ('days since', 'standard'), ('since 1850-01-01', 'standard'),
              ('days since 1850', 'standard'), ('days since 1850-01', 'noleap'),
              ('days since 1582-10-10', 'standard'), ('days since 1582-10-05', 'gregorian'),
              ('days since 2019-02-29', 'noleap'), ('days since 2019-02-29', '365_day'),
              ('days since 2019-02-29', 'standard'), ('days since 2100-02-29', 'gregorian'),
              ('days since 2100-02-29', 'proleptic_gregorian'),
              ('days since 2020-02-30', 'standard'), ('days since 2020-02-30', 'all_leap'),
              ('days since 2020-01-31', '360_day'), ('days since 2001-04-31', 'julian'),
              ('hours since 2000-01-01 24:00', 'standard'),
              ('days since 1850-01-01', 'lunar'), ('days since 1850-01-01', 'none'),
              ('days since 1850-01-01', 'utc')]
    out = []
    for units, calendar in pairs:
        try:
            cftime.num2date(0, units, calendar)
        except Exception as e:
            out.append([units, calendar, '%s: %s' % (type(e).__name__, e)])
            continue
        raise AssertionError('cftime reads %r in %s' % (units, calendar))
    return out


def instants():
    out = []
    days = ['0001-01-01', '0004-02-29', '0100-02-29', '1000-02-29', '1582-10-04', '1582-10-15',
            '1582-12-31', '1600-02-29', '1700-02-28', '1700-03-01', '1752-09-02', '1752-09-14',
            '1900-02-28', '1900-03-01', '1970-01-01', '2000-02-29', '2024-06-30', '9999-12-31']
    for calendar in ('standard', 'gregorian', 'julian', 'proleptic_gregorian'):
        for t in days:
            try:
                d = cftime.datetime(*map(int, t.split('-')), calendar=calendar)
            except ValueError:
                continue
            out.append([calendar, t, d.toordinal() - 2440588])
    return out


def main():
    groups = []
    for ci, calendar in enumerate(CALENDARS):
        points = targets(calendar)
        for units in units_list(calendar, ci):
            rng.shuffle(points)
            chosen = sorted(points[:6])
            decodes = [[v, decode(v, units, calendar)] for v in values(units, calendar, chosen)]
            days = [p for p in points if len(p) == 10]
            texts = chosen + [rng.choice(days) + rng.choice(
                ['T12:34:56.789012', ' 23:59:59.999999', 'T00:00:01+01:00', 'T06:00Z',
                 ' 00:00:00.5 -02:30']) for _ in range(4)]
            encodes = [[t, encode(t, units, calendar)] for t in texts]
            groups.append({'units': units, 'calendar': calendar, 'decode': decodes,
                           'encode': encodes})
    doc = {
        'made_by': 'make_cftime_cases.py',
        'cftime': cftime.__version__, 'numpy': np.__version__, 'machine': platform.machine(),
        'groups': groups, 'refused': refused(), 'dates': dates(), 'instants': instants()}
    with open(os.path.join(HERE, 'cftime_cases.json'), 'w') as f:
        json.dump(doc, f, separators=(',', ':'))
        f.write('\n')
    n = sum(len(g['decode']) + len(g['encode']) for g in groups)
    print('%d groups, %d decode/encode cases, %d refused units, %d dates, %d instants'
          % (len(groups), n, len(doc['refused']), len(doc['dates']), len(doc['instants'])))


if __name__ == '__main__':
    main()
