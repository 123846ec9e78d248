import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from '../../src/domain/hostile.fixture';
import { isLoopbackHost } from './loopback-host';

const port = fc.option(fc.integer({ min: 0, max: 65535 }).map((n) => `:${n}`), { nil: '' });
const loopbackV4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map((b) => `127.${b.join('.')}`);
/** A host a rebinding page could make the browser send: a name, a domain, a non-loopback address. */
const label = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
const foreignName = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.')),
  label.map((l) => `localhost.${l}`),
  label.map((l) => `${l}.localhost`),
  loopbackV4.map((ip) => `${ip}.nip.io`),
).filter((name) => name.toLowerCase() !== 'localhost' && !/^127(\.\d{1,3}){3}$/.test(name));

describe('isLoopbackHost', () => {
  it('accepts localhost, 127.x and [::1] with or without a port', () => {
    fc.assert(
      fc.property(fc.constantFrom('localhost', 'LocalHost', '[::1]', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]'), port, (host, p) => {
        expect(isLoopbackHost(`${host}${p}`)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(loopbackV4, port, (ip, p) => {
        expect(isLoopbackHost(`${ip}${p}`)).toBe(true);
      }),
    );
  });

  it('refuses any other name, whatever resolves to it (DNS rebinding)', () => {
    fc.assert(
      fc.property(foreignName, port, (name, p) => {
        expect(isLoopbackHost(`${name}${p}`)).toBe(false);
      }),
    );
    for (const host of [undefined, '', 'localhost.', 'localhost:', 'localhost:99999x', '127.0.0.1.evil.example', '[127.0.0.1]', '::1', '[::2]', '128.0.0.1', '0.0.0.0', '[::]', '127.1', '0x7f.0.0.1', 'localhost@evil.example', 'evil.example#localhost', ' localhost', 'localhost\r\nx: y']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });

  it('never throws on hostile text and says yes only to loopback forms', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (text) => {
        if (isLoopbackHost(text)) expect(text).toMatch(/^(localhost|127(\.\d{1,3}){3}|\[[0-9a-f:.]+\])(:\d{1,5})?$/i);
      }),
    );
  });
});
