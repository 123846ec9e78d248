import net from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress, isLocalRequest, isLoopback, parseIp } from './client-address';

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((b) => b.join('.'));
const group = fc.nat(0xffff).map((n) => n.toString(16));
const v6Full = fc.array(group, { minLength: 8, maxLength: 8 }).map((g) => g.join(':'));
/** Any address, written by Node (compressed, lower case) or in full. */
const anyIp = fc.oneof(v4, v6Full, v6Full.map((text) => new URL(`http://[${text}]/`).hostname.slice(1, -1)));

// Node's own BlockList is the oracle: it knows loopback and matches IPv4-mapped IPv6 against IPv4 rules.
const loopbackList = new net.BlockList();
loopbackList.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackList.addAddress('::1', 'ipv6');

describe('parseIp', () => {
  it('accepts exactly what Node takes for an IP address', () => {
    fc.assert(
      fc.property(fc.oneof(anyIp, fc.string({ maxLength: 45 }), fc.stringMatching(/^[0-9a-f:.]{0,45}$/)), (text) => {
        expect(parseIp(text) !== undefined).toBe(net.isIP(text) !== 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the forms sockets and proxies write', () => {
    expect(parseIp('192.0.2.7:443')).toEqual({ version: 4, bytes: [192, 0, 2, 7] });
    expect(parseIp('[2001:db8::1]:8080')?.version).toBe(6);
    expect(parseIp('fe80::1%eth0')?.version).toBe(6);
    expect(parseIp('::ffff:127.0.0.1')?.version).toBe(6);
    for (const bad of ['', ' ', '1.2.3', '1.2.3.4.5', '01.2.3.4', '256.1.1.1', '1.2.3.4::', ':::', '1::2::3', 'g::1', '[::1', 'localhost', '١٢٧.0.0.1', '1.2.3.4\u0000']) {
      expect(parseIp(bad)).toBeUndefined();
    }
  });

  it('never throws and gives up on absurd lengths', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        parseIp(text);
      }),
    );
    expect(parseIp(`${'0:'.repeat(100_000)}1`)).toBeUndefined();
  });
});

describe('isLoopback', () => {
  it('agrees with a BlockList of 127.0.0.0/8 and ::1 for every address', () => {
    fc.assert(
      fc.property(anyIp, (text) => {
        expect(isLoopback(text)).toBe(loopbackList.check(text, net.isIPv4(text) ? 'ipv4' : 'ipv6'));
      }),
      { numRuns: 2000 },
    );
  });

  it('knows every spelling of loopback, and nothing that only looks like it', () => {
    for (const yes of ['127.0.0.1', '127.255.0.9', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::FFFF:7f00:1', '[::1]:5173', '127.0.0.1:80']) expect(isLoopback(yes), yes).toBe(true);
    for (const no of ['128.0.0.1', '10.0.0.1', '::', '::2', '::127.0.0.1', '::ffff:128.0.0.1', 'localhost', '127.0.0.1.nip.io', '', 'unknown']) expect(isLoopback(no), no).toBe(false);
  });

  it('holds for any IPv4 written as an IPv4-mapped IPv6 address', () => {
    fc.assert(
      fc.property(v4, (text) => {
        expect(isLoopback(`::ffff:${text}`)).toBe(isLoopback(text));
      }),
    );
  });
});

describe('addressKey', () => {
  it('is the IPv4 address for IPv4 and its mapped forms', () => {
    fc.assert(
      fc.property(v4, (text) => {
        expect(addressKey(text)).toBe(text);
        expect(addressKey(`::ffff:${text}`)).toBe(text);
        expect(addressKey(`${text}:4711`)).toBe(text);
      }),
    );
  });

  it('is the /64 for IPv6: the rest of the address (often chosen freely by its owner) does not matter', () => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 4, maxLength: 4 }), fc.array(group, { minLength: 4, maxLength: 4 }), fc.array(group, { minLength: 4, maxLength: 4 }), (prefix, a, b) => {
        fc.pre(!(prefix.every((g) => g === '0') && a.slice(0, 2).every((g) => g === '0')));
        expect(addressKey([...prefix, ...a].join(':'))).toBe(addressKey([...prefix, ...b].join(':')));
        expect(addressKey([...prefix, ...a].join(':'))).toMatch(/^[0-9a-f]{1,4}(:[0-9a-f]{1,4}){3}::\/64$/);
      }),
    );
    expect(addressKey('2001:DB8:0:0:1::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('[2001:db8::7]:443')).toBe('2001:db8:0:0::/64');
  });

  it('puts everything unreadable in one bucket, whatever its size or alphabet', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
      const key = addressKey(text);
      expect(key === 'unknown' || parseIp(text) !== undefined).toBe(true);
      expect(key.length).toBeLessThanOrEqual(43);
    }));
    expect(addressKey('x'.repeat(1_000_000))).toBe('unknown');
  });
});

describe('clientAddress', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    fc.assert(
      fc.property(anyIp, fc.option(fc.oneof(fc.string(), fc.array(fc.string()))), (socket, header) => {
        expect(clientAddress({ remoteAddress: socket, forwardedFor: header ?? undefined }, 0)).toBe(socket);
      }),
    );
  });

  it('takes the entry the trusted proxies wrote, never one further left (those the client wrote itself)', () => {
    const request = { remoteAddress: '10.0.0.2', forwardedFor: '6.6.6.6, 203.0.113.9, 10.0.0.1' };
    expect(clientAddress(request, 1)).toBe('10.0.0.1');
    expect(clientAddress(request, 2)).toBe('203.0.113.9');
    expect(clientAddress({ remoteAddress: '10.0.0.2', forwardedFor: ['6.6.6.6', '203.0.113.9'] }, 1)).toBe('203.0.113.9');
    expect(clientAddress({ remoteAddress: '10.0.0.2', forwardedFor: '203.0.113.9' }, 5)).toBe('203.0.113.9');
    expect(clientAddress({ remoteAddress: '10.0.0.2', forwardedFor: ' , ' }, 1)).toBe('10.0.0.2');
    expect(clientAddress({ remoteAddress: undefined, forwardedFor: undefined }, 1)).toBe('');
  });

  it('prepending entries never changes the answer', () => {
    fc.assert(
      fc.property(fc.array(anyIp, { minLength: 1, maxLength: 5 }), fc.array(fc.string({ maxLength: 60 }).filter((s) => !s.includes(',') && s.trim() !== ''), { maxLength: 5 }), fc.integer({ min: 1, max: 5 }), (honest, forged, hops) => {
        fc.pre(hops <= honest.length);
        const chain = (entries: string[]) => ({ remoteAddress: '10.0.0.2', forwardedFor: entries.join(', ') });
        expect(clientAddress(chain([...forged, ...honest]), hops)).toBe(clientAddress(chain(honest), hops));
      }),
    );
  });
});

describe('isLocalRequest', () => {
  it('needs a loopback peer that relays nobody else', () => {
    expect(isLocalRequest({ remoteAddress: '127.0.0.1', forwardedFor: undefined })).toBe(true);
    expect(isLocalRequest({ remoteAddress: '::ffff:127.0.0.1', forwardedFor: undefined })).toBe(true);
    expect(isLocalRequest({ remoteAddress: '::1', forwardedFor: '127.0.0.1' })).toBe(true);
    expect(isLocalRequest({ remoteAddress: '192.0.2.2', forwardedFor: undefined })).toBe(false);
    expect(isLocalRequest({ remoteAddress: undefined, forwardedFor: undefined })).toBe(false);
    // a reverse proxy on this machine relaying a remote client
    expect(isLocalRequest({ remoteAddress: '127.0.0.1', forwardedFor: '203.0.113.9' })).toBe(false);
    expect(isLocalRequest({ remoteAddress: '127.0.0.1', forwardedFor: 'garbage' })).toBe(false);
    expect(isLocalRequest({ remoteAddress: '127.0.0.1', forwardedFor: undefined, forwarded: 'for="[2001:db8::1]:4711";proto=https' })).toBe(false);
    expect(isLocalRequest({ remoteAddress: '127.0.0.1', forwardedFor: undefined, forwarded: 'For=127.0.0.1, for="[::1]"' })).toBe(true);
    expect(isLocalRequest({ remoteAddress: '127.0.0.1', forwardedFor: undefined, forwarded: 'for=_hidden' })).toBe(false);
  });

  it('is never true for a non-loopback peer, whatever the headers', () => {
    fc.assert(
      fc.property(anyIp, fc.option(fc.string()), fc.option(fc.string()), (peer, xff, forwarded) => {
        fc.pre(!isLoopback(peer));
        expect(isLocalRequest({ remoteAddress: peer, forwardedFor: xff ?? undefined, forwarded: forwarded ?? undefined })).toBe(false);
      }),
    );
  });
});
