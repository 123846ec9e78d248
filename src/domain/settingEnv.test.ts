import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import { componentNameProblem, envName, explicitEnvProblem, envValue, isSystemVariable, isValidEnvName, settingEnvName, settingsEnv, splitPropertyKey } from './settingEnv';

describe('settingEnvName (Meltano rule)', () => {
  it('joins plugin and setting, non-alphanumerics to _, upper case', () => {
    expect(settingEnvName('tap-github', 'start_date')).toBe('TAP_GITHUB_START_DATE');
    expect(settingEnvName('tap-github', 'batch_config.encoding.format')).toBe('TAP_GITHUB_BATCH_CONFIG_ENCODING_FORMAT');
    expect(settingEnvName('tap-github', '_select')).toBe('TAP_GITHUB__SELECT');
  });
  it('lets a usable explicit env win, and ignores an unusable one', () => {
    expect(settingEnvName('tap-github', 'access_token', 'GITHUB_TOKEN')).toBe('GITHUB_TOKEN');
    expect(settingEnvName('tap-github', 'access_token', '1BAD NAME')).toBe('TAP_GITHUB_ACCESS_TOKEN');
    expect(settingEnvName('tap-github', 'access_token', '')).toBe('TAP_GITHUB_ACCESS_TOKEN');
  });
  it('always yields only [A-Z0-9_] from the rule, whatever the names', () => {
    fc.assert(fc.property(hostileStringWithHuge, hostileString, (plugin, setting) => {
      expect(envName(plugin, setting)).toMatch(/^[A-Z0-9_]*$/);
    }), { numRuns: 300 });
  });
});

describe('envValue', () => {
  it('turns values into text', () => {
    expect(envValue('x')).toBe('x');
    expect(envValue(3)).toBe('3');
    expect(envValue(false)).toBe('false');
    expect(envValue(['a', 'b'])).toBe('["a","b"]');
    expect(envValue({ a: 1 })).toBe('{"a":1}');
    expect(envValue(null)).toBeUndefined();
    expect(envValue(Number.NaN)).toBeUndefined();
    expect(envValue(10n)).toBeUndefined();
  });
  it('survives a cycle', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(envValue(cyclic)).toBeUndefined();
  });
});

describe('splitPropertyKey', () => {
  it('takes the longest component prefix', () => {
    expect(splitPropertyKey('tap-x.start_date', ['tap-x'])).toEqual({ component: 'tap-x', setting: 'start_date' });
    expect(splitPropertyKey('tap-x.y.z', ['tap-x', 'tap-x.y'])).toEqual({ component: 'tap-x.y', setting: 'z' });
    expect(splitPropertyKey('tap-xy.z', ['tap-x'])).toBeUndefined();
    expect(splitPropertyKey('tap-x.', ['tap-x'])).toBeUndefined();
  });
});

describe('settingsEnv', () => {
  const components = [
    { name: 'tap-github', settings: [{ name: 'start_date' }, { name: 'access_token', env: 'GITHUB_TOKEN' }] },
    { name: 'target-store', settings: [] },
  ];
  it('maps pipeline properties over component properties', () => {
    const { env, skipped } = settingsEnv(
      components,
      { 'tap-github.start_date': '2024-01-01', 'tap-github.access_token': 's3cret', 'tap-github.repositories': ['a/b'], 'other.x': 'y' },
      { 'tap-github': { start_date: '2020-01-01', page_size: 100 } },
    );
    expect(env).toEqual({
      TAP_GITHUB_START_DATE: '2024-01-01',
      TAP_GITHUB_PAGE_SIZE: '100',
      GITHUB_TOKEN: 's3cret',
      TAP_GITHUB_REPOSITORIES: '["a/b"]',
    });
    expect(skipped).toEqual(['other.x']);
  });
  it("keeps an explicit env in the system's namespace out: the setting lands in its plugin's own", () => {
    const { env, skipped } = settingsEnv([{ name: 'tap-x', settings: [{ name: 'path', env: 'PATH' }, { name: 'hook', env: 'LD_PRELOAD' }] }], { 'tap-x.path': '/evil', 'tap-x.hook': '/project/evil.so' });
    expect(env).toEqual({ TAP_X_PATH: '/evil', TAP_X_HOOK: '/project/evil.so' });
    expect(skipped).toEqual([]);
  });
  it('skips every setting of a component whose name makes system variables (saved before the rule)', () => {
    const components = ['ld', 'bash', 'node', 'python', 'git', 'meltano', 'runner'].map((name) => ({ name, settings: [] }));
    const { env, skipped } = settingsEnv(components, { 'ld.audit': '/project/evil.so', 'ld.preload': '/project/evil.so', 'bash.env': '/project/x', 'node.options': '--require /project/x.js', 'python.path': '/p', 'git.ssh_command': 'sh', 'meltano.database_uri': 'x', 'runner.bridge_token': 'x' });
    expect(env).toEqual({});
    expect(skipped.sort()).toEqual(['bash.env', 'git.ssh_command', 'ld.audit', 'ld.preload', 'meltano.database_uri', 'node.options', 'python.path', 'runner.bridge_token']);
  });
  it('on hostile keys and values yields only valid names outside the system namespace, no NUL', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(hostileString, fc.constantFrom('ld', 'LD', 'bash', 'node', 'python3', 'path', 'home', 'env', 'tmpdir', 'git', 'ssl', 'job', 'pipeline', 'meltano', 'http', 'no')), { maxLength: 4 }), fc.dictionary(hostileString, fc.oneof(hostileString, fc.integer(), fc.boolean(), fc.constant(null))), fc.constantFrom('PATH', 'LD_AUDIT', 'BASH_ENV', 'NODE_OPTIONS', 'PYTHONSTARTUP', 'OK_NAME'), (names, props, explicit) => {
        const { env } = settingsEnv(names.map((name) => ({ name, settings: [{ name: 'x', env: explicit }] })), Object.fromEntries([...names.map((n) => [`${n}.x`, 'v']), ...names.map((n) => [`${n}.preload`, 'v']), ...Object.entries(props)]));
        for (const [name, value] of Object.entries(env)) {
          expect(isValidEnvName(name)).toBe(true);
          expect(isSystemVariable(name)).toBe(false);
          expect(value.includes('\u0000')).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("the system's variable namespace (issue 36)", () => {
  // the names the issue and the loaders' and interpreters' manuals name, written out by hand
  const system = [
    'LD_AUDIT', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'BASH_ENV', 'BASHOPTS', 'ENV', 'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME',
    'PATH', 'HOME', 'TMPDIR', 'SHELL', 'IFS', 'GIT_SSH_COMMAND', 'GIT_CONFIG_GLOBAL', 'SSL_CERT_FILE', 'SSH_AUTH_SOCK', 'GLIBC_TUNABLES', 'MALLOC_ARENA_MAX',
    'GCONV_PATH', 'PERL5OPT', 'RUBYOPT', 'HTTP_PROXY', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'ALL_PROXY', 'PIP_INDEX_URL', 'UV_INDEX_URL', 'VIRTUAL_ENV',
    'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'XDG_CONFIG_HOME', 'LANG', 'LC_ALL', 'TZ', 'SHELLOPTS', 'POSIXLY_CORRECT', 'RES_OPTIONS', 'HOSTALIASES',
    'MELTANO_DATABASE_URI', 'MELTANO_PROJECT_ROOT', 'RUNNER_BRIDGE', 'RUNNER_BRIDGE_TOKEN', 'RUNNER_ALLOWED_HOSTS', 'JOB_ID', 'PIPELINE_ID', 'WORKSPACE_ID',
  ];
  const plugins = ['TAP_GITHUB_AUTH_TOKEN', 'GITHUB_TOKEN', 'DBT_PROFILES_DIR', 'TARGET_POSTGRES_PASSWORD', 'LDAP_HOST', 'NODES_URL', 'GOOGLE_SHEETS_ID', 'TEMPERATURE_UNIT', 'PATHS_X', 'JOBS_API_KEY', 'TAP_LD_AUDIT'];

  it.each(system)('%s is the system’s', (name) => expect(isSystemVariable(name)).toBe(true));
  it.each(plugins)('%s is a plugin’s', (name) => expect(isSystemVariable(name)).toBe(false));

  it('refuses component names whose variables would be the system’s, and says why', () => {
    for (const name of ['ld', 'LD', 'bash', 'node', 'python', 'python3', 'path', 'home', 'env', 'tmpdir', 'git', 'ssl', 'meltano', 'runner', 'job', 'http', 'glibc', 'ld.x', '---']) {
      expect(componentNameProblem(name), name).toBeDefined();
    }
    expect(componentNameProblem('ld')).toContain('LD_');
    for (const name of ['tap-github', 'target-postgres', 'dbt-postgres', 'ldap', 'nodes', 'tap-ld', 'my_extractor', 'tap-files-2']) expect(componentNameProblem(name), name).toBeUndefined();
  });

  it("refuses an explicit env outside a plugin's reach, and a name that is not one", () => {
    expect(explicitEnvProblem('LD_PRELOAD')).toContain('LD_PRELOAD');
    expect(explicitEnvProblem('1BAD')).toBeDefined();
    expect(explicitEnvProblem('GITHUB_TOKEN')).toBeUndefined();
    expect(settingEnvName('tap-x', 'hook', 'NODE_OPTIONS')).toBe('TAP_X_HOOK');
  });

  it('every variable a permitted component makes is outside the system namespace', () => {
    fc.assert(
      fc.property(hostileString, hostileString, (component, setting) => {
        fc.pre(componentNameProblem(component) === undefined && setting.length > 0);
        expect(isSystemVariable(envName(component, setting))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('settingEnv edges (by hand)', () => {
  it('says exactly what is wrong with a name', () => {
    expect(componentNameProblem('---')).toBe('must contain a letter or a digit');
    expect(componentNameProblem('ld')).toBe('cannot be used: its settings would become LD_… variables, a namespace the system reads. Choose another name.');
    expect(explicitEnvProblem('1BAD')).toBe('must be a variable name: letters, digits and _, not starting with a digit');
    expect(explicitEnvProblem('PATH')).toBe('cannot be PATH: a namespace the system reads');
  });

  it('accepts names of up to 255 characters', () => {
    expect(isValidEnvName('A'.repeat(255))).toBe(true);
    expect(isValidEnvName('A'.repeat(256))).toBe(false);
    expect(isValidEnvName('')).toBe(false);
  });

  it('writes true as true', () => {
    expect(envValue(true)).toBe('true');
    expect(envValue(undefined)).toBeUndefined();
    expect(envValue(Symbol('s'))).toBeUndefined();
  });

  it('takes the longest component whatever the order, and never an empty one', () => {
    expect(splitPropertyKey('tap-x.y.z', ['tap-x.y', 'tap-x'])).toEqual({ component: 'tap-x.y', setting: 'z' });
    expect(splitPropertyKey('.x', [''])).toBeUndefined();
  });

  it('skips valueless properties silently, and names every other skipped one by its key', () => {
    const { env, skipped } = settingsEnv(
      [{ name: 'tap-x' }, { name: 'ld', settings: [] }],
      { 'tap-x.a': null, 'other.x': null, 'other.y': undefined, 'tap-x.b': 'B' },
      { 'tap-x': { c: undefined, '': 'empty', d: 'D' }, ld: { audit: '/x.so' } },
    );
    expect(env).toEqual({ TAP_X_B: 'B', TAP_X_D: 'D' });
    expect(skipped.sort()).toEqual(['ld.audit', 'tap-x.']);
  });
});
