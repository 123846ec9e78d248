import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from './timestamps';

// node-postgres's own parser, which parseTimestamptz must agree with on every input
const reference = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date | number | null;

const same = (text: string) => {
  const ours = parseTimestamptz(text);
  const theirs = reference(text);
  if (ours instanceof Date && theirs instanceof Date) expect(ours.getTime(), text).toBe(theirs.getTime());
  else expect(ours, text).toEqual(theirs);
};

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** A timestamptz as PostgreSQL writes it in ISO style: fractions without trailing zeros, offsets of hours, minutes or seconds, BC years. */
const postgresText = fc
  .record({
    year: fc.integer({ min: 1, max: 12_000 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    micros: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 999_999 })),
    sign: fc.constantFrom('+', '-'),
    offsetHours: fc.integer({ min: 0, max: 15 }),
    offsetMinutes: fc.constantFrom(0, 30, 45),
    offsetSeconds: fc.constantFrom(0, 0, 0, 15),
    bc: fc.boolean(),
  })
  .map((t) => {
    const fraction = t.micros === 0 ? '' : `.${pad(t.micros, 6)}`.replace(/0+$/, '');
    const offset = `${t.sign}${pad(t.offsetHours, 2)}${t.offsetMinutes || t.offsetSeconds ? `:${pad(t.offsetMinutes, 2)}` : ''}${t.offsetSeconds ? `:${pad(t.offsetSeconds, 2)}` : ''}`;
    return `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)} ${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}${fraction}${offset}${t.bc ? ' BC' : ''}`;
  });

describe('parseTimestamptz', () => {
  it('reads the common forms to the millisecond', () => {
    expect(parseTimestamptz('2026-11-27 09:15:19.123456+00')).toEqual(new Date('2026-11-27T09:15:19.123Z'));
    expect(parseTimestamptz('2026-11-27 09:15:19+05:30')).toEqual(new Date('2026-11-27T03:45:19Z'));
    expect(parseTimestamptz('2026-11-27 09:15:19.5-03')).toEqual(new Date('2026-11-27T12:15:19.500Z'));
  });

  it('agrees with node-postgres on everything PostgreSQL writes', () => {
    fc.assert(fc.property(postgresText, same), { numRuns: 5_000 });
    for (const text of ['infinity', '-infinity', '0099-01-01 00:00:00+00', '0001-01-01 00:00:00+00 BC', '12345-06-07 08:09:10+00', '2026-11-27 09:15:19.+00']) same(text);
  });

  it('agrees with node-postgres on hostile text, falling back to it', () => {
    fc.assert(fc.property(fc.string(), same), { numRuns: 2_000 });
    const mangled = fc.tuple(postgresText, fc.nat(40), fc.string({ maxLength: 3 })).map(([text, at, insert]) => text.slice(0, at) + insert + text.slice(at + insert.length));
    fc.assert(fc.property(mangled, same), { numRuns: 5_000 });
  });
});
