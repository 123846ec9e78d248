import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLocalHost, serviceWorkerCheck } from './serviceWorker';

describe('serviceWorkerCheck', () => {
  it('unregisters on 404 and on a non-script type', () => {
    expect(serviceWorkerCheck({ status: 404, contentType: 'application/javascript' })).toBe('unregister-and-reload');
    expect(serviceWorkerCheck({ status: 200, contentType: 'text/html; charset=utf-8' })).toBe('unregister-and-reload');
    expect(serviceWorkerCheck({ status: 200, contentType: null })).toBe('unregister-and-reload');
  });
  it('registers a script', () => {
    expect(serviceWorkerCheck({ status: 200, contentType: 'application/javascript; charset=UTF-8' })).toBe('register');
    expect(serviceWorkerCheck({ status: 200, contentType: 'text/JavaScript' })).toBe('register');
  });
  it('never registers anything that is not javascript', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), fc.string(), (status, type) => {
        const result = serviceWorkerCheck({ status, contentType: type });
        if (!type.toLowerCase().includes('javascript') || status === 404) expect(result).toBe('unregister-and-reload');
      }),
    );
  });
});

describe('isLocalHost', () => {
  it('knows the loopback names', () => {
    expect(isLocalHost('localhost')).toBe(true);
    expect(isLocalHost('127.0.0.1')).toBe(true);
    expect(isLocalHost('[::1]')).toBe(true);
    expect(isLocalHost('example.com')).toBe(false);
    expect(isLocalHost('127.0.0.1.example.com')).toBe(false);
  });
});

describe('isLocalHost, address by address', () => {
  it('knows the bare IPv6 loopback and every 127.x.y.z address, and nothing around one', () => {
    expect(isLocalHost('::1')).toBe(true);
    expect(isLocalHost('127.10.200.3')).toBe(true);
    expect(isLocalHost('127.255.255.255')).toBe(true);
    for (const host of ['127.0.0', '127.0.0.1.5', '127.0.0.1000', 'x127.0.0.1', '1127.0.0.1', '127.0.0.a', '127-0-0-1', '127.0..1', 'localhost.example.com', '::2', '[::1]x']) {
      expect(isLocalHost(host), host).toBe(false);
    }
  });

  it('unregisters a response without a content type, and registers a script whatever its status other than 404', () => {
    expect(serviceWorkerCheck({ status: 200, contentType: '' })).toBe('unregister-and-reload');
    expect(serviceWorkerCheck({ status: 200, contentType: undefined })).toBe('unregister-and-reload');
    expect(serviceWorkerCheck({ status: 304, contentType: 'text/javascript' })).toBe('register');
    expect(serviceWorkerCheck({ status: 403, contentType: 'text/html' })).toBe('unregister-and-reload');
  });
});
