import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyIp, formatIp, parseIpLiteral, type IpAddress } from './ipAddress';
import { NOTHING_ALLOWED, decideHost, parseAllowList, systemLookup, type AllowList, type Lookup } from './netPolicy';

const allow = (text: string): AllowList => {
  const parsed = parseAllowList(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.list;
};

const noDns: Lookup = (host) => Promise.reject(new Error(`no DNS in this test (asked for ${host})`));
const dnsAnswers =
  (answers: Record<string, string[]>): Lookup =>
  (host) =>
    answers[host] ? Promise.resolve(answers[host].map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))) : Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));

// Every spelling inet_aton accepts for a 32-bit value: 1 to 4 parts, each decimal, octal or hex.
const v4Spelling = (value: number) =>
  fc
    .record({
      parts: fc.integer({ min: 1, max: 4 }),
      radixes: fc.array(fc.constantFrom('dec', 'oct', 'hex', 'HEX'), { minLength: 4, maxLength: 4 }),
      zeros: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
      trailingDots: fc.integer({ min: 0, max: 2 }),
      brackets: fc.boolean(),
    })
    .map(({ parts, radixes, zeros, trailingDots, brackets }) => {
      const bytes = [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
      const numbers = [...bytes.slice(0, parts - 1), bytes.slice(parts - 1).reduce((acc, b) => acc * 256 + b, 0)];
      const text = numbers
        .map((n, i) => {
          const radix = radixes[i]!;
          if (radix === 'dec') return String(n);
          if (radix === 'oct') return `0${'0'.repeat(zeros[i]!)}${n.toString(8)}`;
          return `${radix === 'hex' ? '0x' : '0X'}${'0'.repeat(zeros[i]!)}${n.toString(16)}`;
        })
        .join('.');
      const dotted = `${text}${'.'.repeat(trailingDots)}`;
      return brackets ? `[${dotted}]` : dotted;
    });

const uint32 = (min: number, max: number) => fc.integer({ min, max });
const LOOPBACK = uint32(0x7f000000, 0x7fffffff);
const PRIVATE_V4 = fc.oneof(uint32(0x0a000000, 0x0affffff), uint32(0xac100000, 0xac1fffff), uint32(0xc0a80000, 0xc0a8ffff), uint32(0x64400000, 0x647fffff));
const LINK_LOCAL_V4 = uint32(0xa9fe0000, 0xa9feffff);
const v4 = (value: number): IpAddress => ({ family: 4, value: BigInt(value) });
const hex16 = (n: number) => n.toString(16);

// The IPv6 forms that lead to an IPv4 address.
const v6Carrying = (value: number) =>
  fc.constantFrom(
    `::ffff:${formatIp(v4(value))}`,
    `::ffff:${hex16(value >>> 16)}:${hex16(value & 0xffff)}`,
    `0:0:0:0:0:FFFF:${hex16(value >>> 16).padStart(4, '0')}:${hex16(value & 0xffff).padStart(4, '0')}`,
    `::${formatIp(v4(value))}`,
    `::ffff:0:${formatIp(v4(value))}`,
    `64:ff9b::${formatIp(v4(value))}`,
    `2002:${hex16(value >>> 16)}:${hex16(value & 0xffff)}::1`,
    `[::ffff:${formatIp(v4(value))}]`,
    `::ffff:${formatIp(v4(value))}%eth0`,
  );

describe('parseIpLiteral', () => {
  it('reads every inet_aton spelling of an IPv4 address as the address the WHATWG URL parser reads', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }).chain((value) => fc.tuple(fc.constant(value), v4Spelling(value))),
        ([value, text]) => {
          const ip = parseIpLiteral(text);
          expect(ip, text).toEqual(v4(value));
          // The URL parser drops one trailing dot; we drop them all (the stricter reading).
          if (!text.replace(/\]$/, '').endsWith('..')) expect(new URL(`http://${text.replace(/^\[|\]$/g, '')}/`).hostname).toBe(formatIp(ip!));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('agrees with the C library (getaddrinfo) on numeric IPv4 spellings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 0xffffffff }).chain((value) => fc.tuple(fc.constant(value), v4Spelling(value))),
        async ([value, text]) => {
          const bare = text.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
          const answer = await systemLookup(bare);
          expect(answer[0]?.address, bare).toBe(formatIp(v4(value)));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('writes IPv6 addresses canonically (RFC 5952, as the URL parser does) and reads them back', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 }), (groups) => {
        const ip: IpAddress = { family: 6, value: groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n) };
        const text = formatIp(ip);
        expect(parseIpLiteral(text)).toEqual(ip);
        expect(new URL(`http://[${text}]/`).hostname).toBe(`[${text}]`);
      }),
      { numRuns: 300 },
    );
  });

  it('is no address for names, garbage and out-of-range parts', () => {
    for (const text of ['', 'example.com', '256.0.0.1', '1.2.3.4.5', '0x1g', '08', '1..1', '::g', '1:2:3:4:5:6:7:8:9', '127.0.0.1/8', 'a.b.c.d']) {
      expect(parseIpLiteral(text), text).toBeUndefined();
    }
  });
});

describe('classifyIp', () => {
  const classOf = (text: string) => classifyIp(parseIpLiteral(text)!);

  it('names each non-public range', () => {
    expect(classOf('127.0.0.1')).toBe('loopback');
    expect(classOf('::1')).toBe('loopback');
    expect(classOf('10.1.2.3')).toBe('private');
    expect(classOf('172.31.255.255')).toBe('private');
    expect(classOf('192.168.0.1')).toBe('private');
    expect(classOf('100.64.0.1')).toBe('private');
    expect(classOf('fd00::1')).toBe('private');
    expect(classOf('169.254.169.254')).toBe('link-local');
    expect(classOf('fe80::1')).toBe('link-local');
    expect(classOf('0.0.0.0')).toBe('unspecified');
    expect(classOf('0.1.2.3')).toBe('unspecified');
    expect(classOf('::')).toBe('unspecified');
    expect(classOf('224.0.0.1')).toBe('multicast');
    expect(classOf('ff02::1')).toBe('multicast');
    expect(classOf('255.255.255.255')).toBe('reserved');
    expect(classOf('2001::80fe:fffe')).toBe('loopback'); // Teredo of 127.1.0.1
  });

  it('keeps public addresses public: the neighbours of every range', () => {
    for (const text of ['1.1.1.1', '8.8.8.8', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0', '172.15.255.255', '172.32.0.0', '169.253.255.255', '223.255.255.255', '2606:4700::1111', '2a00:1450::1']) {
      expect(classOf(text), text).toBe('public');
    }
  });

  it('classes an IPv6 form that carries an IPv4 address like that address', () => {
    fc.assert(
      fc.property(
        fc.oneof(LOOPBACK, PRIVATE_V4, LINK_LOCAL_V4).chain((value) => fc.tuple(fc.constant(value), v6Carrying(value))),
        ([value, text]) => {
          expect(classOf(text), text).toBe(classifyIp(v4(value)));
          expect(classOf(text)).not.toBe('public');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('decideHost', () => {
  it('refuses every spelling of a loopback, private or link-local IPv4 address, without asking DNS', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(LOOPBACK, PRIVATE_V4, LINK_LOCAL_V4).chain((value) => fc.oneof(v4Spelling(value), v6Carrying(value))),
        async (text) => {
          const decision = await decideHost(text, NOTHING_ALLOWED, noDns);
          expect(decision.allowed, text).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses localhost in every spelling, the unspecified address and metadata, and odd host texts', async () => {
    for (const host of ['localhost', 'LOCALHOST.', 'db.localhost', '0', '0.0.0.0', '[::]', '[::1]', '169.254.169.254', '/var/run/postgresql', 'a b', '', '  ']) {
      expect((await decideHost(host, NOTHING_ALLOWED, noDns)).allowed, host).toBe(false);
    }
  });

  it('refuses a name when any address it resolves to is not public, and pins the checked address', async () => {
    const lookup = dnsAnswers({ 'mixed.example': ['93.184.216.34', '127.0.0.1'], 'rebind.example': ['10.0.0.5'], 'good.example': ['93.184.216.34', '2606:2800::1'], 'mapped.example': ['::ffff:127.0.0.1'] });
    expect(await decideHost('mixed.example', NOTHING_ALLOWED, lookup)).toEqual({ allowed: false, reason: 'mixed.example resolves to 127.0.0.1, which is a loopback address' });
    expect((await decideHost('rebind.example', NOTHING_ALLOWED, lookup)).allowed).toBe(false);
    expect((await decideHost('mapped.example', NOTHING_ALLOWED, lookup)).allowed).toBe(false);
    expect(await decideHost('Good.Example.', NOTHING_ALLOWED, lookup)).toEqual({ allowed: true, address: '93.184.216.34', family: 4 });
    expect(await decideHost('nowhere.example', NOTHING_ALLOWED, lookup)).toMatchObject({ allowed: false, reason: expect.stringContaining('ENOTFOUND') });
  });

  it('asks DNS once: a second, different answer (rebinding) never reaches the caller', async () => {
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    let asked = 0;
    const rebinding: Lookup = () => Promise.resolve((answers[asked++] ?? []).map((address) => ({ address, family: 4 })));
    const decision = await decideHost('rebind.example', NOTHING_ALLOWED, rebinding);
    expect(decision).toEqual({ allowed: true, address: '93.184.216.34', family: 4 });
    expect(asked).toBe(1);
  });

  it('allows what the allow list names: an address, a range (also through the mapped form) or a host name', async () => {
    const list = allow(' 127.0.0.1, 10.0.0.0/8 ,db.internal, [fd00::]/8');
    expect(await decideHost('127.0.0.1', list, noDns)).toEqual({ allowed: true, address: '127.0.0.1', family: 4 });
    expect(await decideHost('::ffff:127.0.0.1', list, noDns)).toEqual({ allowed: true, address: '127.0.0.1', family: 4 });
    expect(await decideHost('10.9.8.7', list, noDns)).toMatchObject({ allowed: true });
    expect(await decideHost('fd12::1', list, noDns)).toMatchObject({ allowed: true, address: 'fd12::1' });
    expect(await decideHost('127.0.0.2', list, noDns)).toMatchObject({ allowed: false });
    expect(await decideHost('192.168.1.1', list, noDns)).toMatchObject({ allowed: false });
    expect(await decideHost('DB.internal.', list, dnsAnswers({ 'db.internal': ['192.168.7.7'] }))).toEqual({ allowed: true, address: '192.168.7.7', family: 4 });
    expect(await decideHost('localhost', allow('localhost'), dnsAnswers({ localhost: ['::1', '127.0.0.1'] }))).toEqual({ allowed: true, address: '::1', family: 6 });
  });
});

describe('parseAllowList', () => {
  it('is empty for an empty setting and refuses entries that are none of name, address or range', () => {
    expect(parseAllowList('')).toEqual({ ok: true, list: NOTHING_ALLOWED });
    expect(parseAllowList(' , ')).toEqual({ ok: true, list: NOTHING_ALLOWED });
    for (const bad of ['10.0.0.0/33', '::1/129', 'http://x', 'a b', '127.1/8', '10.0.0.0/8/8', 'x/8', '*']) {
      expect(parseAllowList(bad).ok, bad).toBe(false);
    }
  });
});
