import { describe, expect, it } from 'vitest';
import { indexHostsOf, loadMeltanoSettings, pipTrustedHostEnv } from './settings';

describe("the package index's settings", () => {
  it('reaches pypi.org and its file host by default, or the configured index', () => {
    expect(loadMeltanoSettings('/data', {})).toMatchObject({ indexUrl: 'https://pypi.org/simple', indexHosts: ['pypi.org', 'files.pythonhosted.org'], cacheDir: '/data/cache' });
    expect(loadMeltanoSettings('/data', { RUNNER_PACKAGE_INDEX_URL: 'http://10.1.2.3:3141/root/pypi/+simple/' })).toMatchObject({ indexUrl: 'http://10.1.2.3:3141/root/pypi/+simple', indexHosts: ['10.1.2.3'] });
    expect(indexHostsOf('https://mirror.internal/simple')).toEqual(['mirror.internal']);
  });

  it("lets pip use an index over plain http (a mirror in the operator's network) by trusting that host and port only; never an https one, whose certificate pip must check", () => {
    expect(pipTrustedHostEnv('http://10.1.2.3:3141/root/pypi/+simple')).toEqual({ PIP_TRUSTED_HOST: '10.1.2.3:3141' });
    expect(pipTrustedHostEnv('http://mirror.internal/simple')).toEqual({ PIP_TRUSTED_HOST: 'mirror.internal' });
    expect(pipTrustedHostEnv('https://pypi.org/simple')).toEqual({});
    expect(pipTrustedHostEnv('https://mirror.internal:8443/simple')).toEqual({});
  });
});
