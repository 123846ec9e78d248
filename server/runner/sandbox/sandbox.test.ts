import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadRunnerSettings } from '../config';
import { LAUNCHER_ENV, bwrapArgs, innerCommand, jobPayload, unshareSetupEnv } from './launchers';
import { SANDBOX_BRIDGE, SANDBOX_PROJECT, isInside, sandboxLayout } from './layout';
import { limitOfExit, limitOfLine, limitOfUsage, prlimitArgs } from './limits';
import { REFUSED_RANGES, allowanceRoutes, allowedRanges, networkOf, refusalRoutes } from './network';
import { outerIds, outerUidOf, OUTER_UID_BASE, OUTER_UID_RANGE } from './outerUid';

const limits = { memoryMb: 512, cpuSeconds: 60, processes: 64, openFiles: 256, fileSizeMb: 16, logMb: 1 };

describe('the sandbox layout', () => {
  const base = { projectDir: '/data/projects/w1', bridgeSocket: '/tmp/b/s.sock', etcDir: '/tmp/etc', system: [{ path: '/usr' }, { path: '/bin', symlink: 'usr/bin' }], readOnly: [], hidden: ['/data'] };

  it('makes the project the one writable mount, at /project, and mounts the bridge at its fixed place', () => {
    const ops = sandboxLayout(base);
    expect(ops.filter((o) => o.op === 'rw')).toEqual([{ op: 'rw', source: '/data/projects/w1', target: SANDBOX_PROJECT }]);
    expect(ops).toContainEqual({ op: 'socket', source: '/tmp/b/s.sock', target: SANDBOX_BRIDGE });
    expect(ops).toContainEqual({ op: 'symlink', link: 'usr/bin', target: '/bin' });
  });

  it('hides the data directory under a read-only path, and never mounts anything of it but the project', () => {
    const ops = sandboxLayout({ ...base, readOnly: ['/srv/app/server/plugins', '/srv/app'], hidden: ['/srv/app/data'] });
    const appAt = ops.findIndex((o) => o.op === 'ro' && o.target === '/srv/app');
    const hideAt = ops.findIndex((o) => o.op === 'tmpfs' && o.target === '/srv/app/data');
    expect(appAt).toBeGreaterThanOrEqual(0);
    expect(hideAt).toBeGreaterThan(appAt);
  });

  it('hostile read-only paths never become writable, and a hidden path inside any of them is always covered', () => {
    const segment = fc.stringMatching(/^[a-z.]{1,4}$/);
    const hostPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`);
    fc.assert(
      fc.property(fc.array(hostPath, { maxLength: 6 }), hostPath, (readOnly, hidden) => {
        const ops = sandboxLayout({ ...base, readOnly, hidden: [hidden] });
        expect(ops.filter((o) => o.op === 'rw').map((o) => o.target)).toEqual([SANDBOX_PROJECT]);
        const covered = ops.some((o) => o.op === 'ro' && isInside(hidden.replace(/\/+$/, ''), o.target) && o.target !== '/usr');
        if (covered) expect(ops.some((o) => o.op === 'tmpfs')).toBe(true);
      }),
    );
  });

  it('isInside does not take a sibling with a common prefix for a child', () => {
    expect(isInside('/data2/x', '/data')).toBe(false);
    expect(isInside('/data/x', '/data')).toBe(true);
    expect(isInside('/data', '/data')).toBe(true);
  });
});

describe('the closed environment (issue 36)', () => {
  const script = 'echo "$SECRET" > out.txt';
  const env = { SECRET: 's3cret', LD_PRELOAD: '/project/evil.so' };

  it("puts neither the script nor a variable on any launcher's command line or in its environment", () => {
    const inner = innerCommand(limits, 'bwrap');
    const bwrap = bwrapArgs([], inner, limits).join(' ');
    for (const text of [bwrap, innerCommand(limits, 'unshare').join(' '), JSON.stringify(unshareSetupEnv(200_001, limits)), JSON.stringify(LAUNCHER_ENV)]) {
      expect(text).not.toContain(script);
      expect(text).not.toContain('s3cret');
      expect(text).not.toContain('evil.so');
    }
    expect(LAUNCHER_ENV).toEqual({ PATH: '/usr/sbin:/usr/bin:/sbin:/bin' });
    expect(Object.keys(unshareSetupEnv(undefined, limits)).sort()).toEqual(['GROUPS_IN', 'PATH', 'TMPDIR_IN', 'TMPFS_BYTES', 'UID_IN']);
  });

  it('hands the script and the variables over as one payload: the script, a NUL, then NAME=value entries', () => {
    expect(jobPayload(script, env)?.toString()).toBe(`${script}\0SECRET=s3cret\0LD_PRELOAD=/project/evil.so\0`);
    expect(jobPayload('a\0b', {})).toBeUndefined();
    expect(jobPayload('true', { 'BAD NAME': 'x' })).toBeUndefined();
    expect(jobPayload('true', { OK: 'a\0b' })).toBeUndefined();
  });

  it("caps /tmp and /dev/shm at the job's memory limit and leaves /dev read-only under bwrap", () => {
    const args = bwrapArgs([], ['true'], limits);
    const bytes = String(512 * 1024 * 1024);
    expect(args.join(' ')).toContain(`--size ${bytes} --tmpfs /dev/shm --size ${bytes} --tmpfs /tmp`);
    expect(args.join(' ')).toContain('--remount-ro /dev');
    expect(unshareSetupEnv(undefined, limits).TMPFS_BYTES).toBe(bytes);
  });
});

describe('the network policy', () => {
  it("prohibits every special-purpose range, the host's own IPv4 addresses and the host's networks", () => {
    const text = refusalRoutes(['192.0.2.10', 'fe80::1'], ['203.0.113.0/25', '10.0.2.0/24', 'fe80::/64']);
    // written out by hand from IANA's special-purpose registry (RFC 6890), not read from the code
    const expected = [
      '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24',
      '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4',
      '192.0.2.10/32', '203.0.113.0/25',
    ];
    expect(text.split('\n').filter(Boolean).sort()).toEqual(expected.map((r) => `route replace prohibit ${r}`).sort());
    // slirp's own network stays reachable: its DNS forwarder is there
    expect(text).not.toContain('10.0.2.0/24');
    expect(text).not.toContain('fe80');
    expect(REFUSED_RANGES).toHaveLength(14);
  });

  it('names the network of an interface address', () => {
    expect(networkOf('192.0.2.2/24')).toBe('192.0.2.0/24');
    expect(networkOf('172.17.5.9/16')).toBe('172.17.0.0/16');
    expect(networkOf('8.8.8.8/32')).toBe('8.8.8.8/32');
    expect(networkOf('10.1.2.3/0')).toBe('0.0.0.0/0');
  });

  it('routes allowed ranges through the gateway, and never allows loopback or nonsense', async () => {
    expect(await allowedRanges(['10.1.2.3', '192.168.0.0/16', '127.0.0.1', '10.0.0.0/4', 'no-such-host.invalid'])).toEqual(['10.1.2.3/32', '192.168.0.0/16']);
    expect(allowanceRoutes(['10.1.2.3/32'])).toBe('route replace 10.1.2.3/32 via 10.0.2.2 dev tap0\n');
    expect(allowanceRoutes([])).toBe('');
  });
});

describe('limits', () => {
  it('gives the kernel a process ceiling a little above the watched one, and every other limit', () => {
    expect(prlimitArgs(limits)).toEqual(['--nproc=68:68', '--nofile=256:256', `--fsize=${16 * 1024 * 1024}:${16 * 1024 * 1024}`, '--cpu=60:65', `--data=${512 * 1024 * 1024}:${512 * 1024 * 1024}`, '--core=0']);
  });

  it('names the limit a usage, a refusal line or an exit status breaks', () => {
    expect(limitOfUsage({ processes: 64, rssBytes: 0, cpuSeconds: 0 }, limits)).toContain('RUNNER_MAX_PROCESSES');
    expect(limitOfUsage({ processes: 3, rssBytes: 513 * 1024 * 1024, cpuSeconds: 0 }, limits)).toContain('RUNNER_MEMORY_MB');
    expect(limitOfUsage({ processes: 3, rssBytes: 0, cpuSeconds: 61 }, limits)).toContain('RUNNER_CPU_SECONDS');
    expect(limitOfUsage({ processes: 63, rssBytes: 512 * 1024 * 1024, cpuSeconds: 60 }, limits)).toBeUndefined();
    expect(limitOfLine('bash: fork: retry: Resource temporarily unavailable', limits)).toContain('RUNNER_MAX_PROCESSES');
    expect(limitOfLine('bash: xrealloc: cannot allocate 1073348608 bytes', limits)).toContain('RUNNER_MEMORY_MB');
    expect(limitOfLine('an ordinary line', limits)).toBeUndefined();
    expect(limitOfExit(153, null, limits)).toContain('RUNNER_MAX_FILE_MB');
    expect(limitOfExit(null, 'SIGXCPU', limits)).toContain('RUNNER_CPU_SECONDS');
    expect(limitOfExit(1, null, limits)).toBeUndefined();
  });
});

describe('settings and the outer uid', () => {
  it("defaults to the sandbox with a public network and the issue's limits", () => {
    const s = loadRunnerSettings({}).sandbox;
    expect(s).toEqual({ mode: 'auto', network: { mode: 'public', allowedHosts: [] }, limits: { memoryMb: 1024, cpuSeconds: 3600, processes: 256, openFiles: 1024, fileSizeMb: 1024, logMb: 50 } });
    expect(loadRunnerSettings({ RUNNER_ALLOWED_HOSTS: ' 10.0.0.5, db.internal ,' }).sandbox.network.allowedHosts).toEqual(['10.0.0.5', 'db.internal']);
  });

  it('refuses hostile settings with a clear error', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }).filter((s) => !['auto', 'bwrap', 'unshare', 'off'].includes(s)), (mode) => {
        expect(() => loadRunnerSettings({ RUNNER_SANDBOX: mode })).toThrow(/Invalid runner configuration: RUNNER_SANDBOX/);
      }),
    );
    expect(() => loadRunnerSettings({ RUNNER_ALLOWED_HOSTS: '10.0.0.1; rm -rf /' })).toThrow(/RUNNER_ALLOWED_HOSTS/);
    expect(() => loadRunnerSettings({ RUNNER_MEMORY_MB: '-1' })).toThrow(/RUNNER_MEMORY_MB/);
    expect(() => loadRunnerSettings({ RUNNER_NETWORK: 'host' })).toThrow(/RUNNER_NETWORK/);
  });

  it('a root server gives each workspace a stable unprivileged uid of its own; any other server none', () => {
    fc.assert(
      fc.property(fc.string(), (id) => {
        const uid = outerUidOf(id);
        expect(uid).toBeGreaterThanOrEqual(OUTER_UID_BASE);
        expect(uid).toBeLessThan(OUTER_UID_BASE + OUTER_UID_RANGE);
        expect(outerIds(id, true)).toEqual({ uid, gid: uid });
        expect(outerIds(id, false)).toEqual({});
      }),
    );
  });
});
