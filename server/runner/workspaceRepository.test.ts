import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { hostilePath, hostileStringWithHuge } from '../../src/domain/hostile.fixture';
import { POSTGRES_STORE_PLUGIN } from '../../src/domain/dataStores';
import { parseChannelDefinition, parseDataStoreDefinition, parseDatasetDefinition, parseDefinitions, parsePipelineDefinition, problemLine, readDefinitionFiles } from './deployDefinitions';
import { parseMeltanoPlugins } from './meltanoPlugins';
import { checkRepositoryPath, DEFAULT_PATHS, overlayFileOf, parseWorkspaceConfig } from './workspaceConfig';

// A repository laid out as Matatika documents a workspace (workspace.yml, meltano.yml,
// analyze/datasets/**, analyze/channels, pipelines, datastores): the pure readers, and the file
// walk through projectFiles.ts with repositories that try to lead out.

describe('parseWorkspaceConfig', () => {
  it("uses Matatika's paths when there is no workspace.yml, with our older root datasets/ kept", () => {
    const { config, problems } = parseWorkspaceConfig(undefined);
    expect(problems).toEqual([]);
    expect(config.declared).toBe(false);
    expect(config.paths).toEqual({
      datastores: ['datastores'],
      channels: ['analyze/channels'],
      pipelines: ['pipelines'],
      datasets: ['analyze/datasets', '.meltano/analyze/datasets', 'datasets'],
      plugins: ['plugins'],
    });
  });

  it('reads the documented keys, the overlay over them, and notes the ones it does not apply', () => {
    const { config, problems, notes } = parseWorkspaceConfig(
      {
        version: 'workspaces/v0.2',
        name: 'My workspace',
        domains: ['example.com'],
        default_data_store: 'Warehouse',
        state_data_store: 'Warehouse',
        dataset_paths: ['analyze/datasets/', './more//datasets'],
        pipeline_paths: 'jobs',
        app_properties: { MEMBER_COMMENTS_READ_ONLY: true, WELCOME_MESSAGE: 'Hello', LIMIT: 3, EMPTY: null },
        colour: 'red',
      },
      { file: 'workspace-dev.yml', document: { version: 'workspaces/v0.2', name: 'My workspace (dev)', pipelines_image: 'x:latest' } },
    );
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      declared: true,
      overlay: 'workspace-dev.yml',
      name: 'My workspace (dev)',
      domains: ['example.com'],
      defaultDataStore: 'Warehouse',
      appProperties: { MEMBER_COMMENTS_READ_ONLY: 'true', WELCOME_MESSAGE: 'Hello', LIMIT: '3' },
    });
    expect(config.paths.datasets).toEqual(['analyze/datasets', 'more/datasets']);
    expect(config.paths.pipelines).toEqual(['jobs']);
    expect(config.paths.channels).toEqual(DEFAULT_PATHS.channels);
    expect(notes).toEqual([
      'workspace.yml: state_data_store is ignored: pipeline state is kept by the runner for each pipeline, not in a data store.',
      "workspace.yml: unknown key 'colour' is ignored.",
      "workspace-dev.yml: pipelines_image is ignored: jobs run in the runner's sandbox, not in an image.",
    ]);
  });

  it('refuses paths that lead out of the repository by their spelling, naming the key and index', () => {
    const { problems } = parseWorkspaceConfig({ dataset_paths: ['../..', '/etc', 'ok', 'a/../../b', 'C:\\x', '.git/hooks', '~/x'], channel_paths: { a: 1 } });
    expect(problems.map(problemLine)).toEqual([
      'workspace.yml: dataset_paths.0: leads outside the repository',
      'workspace.yml: dataset_paths.1: must be relative to the repository, not absolute',
      'workspace.yml: dataset_paths.3: leads outside the repository',
      'workspace.yml: dataset_paths.4: must be relative to the repository, not absolute',
      "workspace.yml: dataset_paths.5: must not be git's own folder",
      'workspace.yml: dataset_paths.6: must be relative to the repository, not absolute',
      'workspace.yml: channel_paths: must be a list of at most 20 paths',
    ]);
  });

  it('refuses __proto__ in app_properties read from real YAML, polluting nothing', () => {
    const { problems, config } = parseWorkspaceConfig(parseYaml('app_properties:\n  __proto__: {polluted: true}\n  constructor: x\n  OK: y\n'));
    expect(problems.map(problemLine)).toEqual(['workspace.yml: app_properties.__proto__: must not use the key __proto__', 'workspace.yml: app_properties.constructor: must not use the key constructor']);
    expect(config.appProperties).toEqual({ OK: 'y' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names the overlay file for a problem of its own key, and an environment that cannot name a file gets none', () => {
    const { problems } = parseWorkspaceConfig({ name: 'Fine' }, { file: 'workspace-prod.yml', document: { version: 'workspaces/v0.2', name: ['not', 'text'] } });
    expect(problems.map(problemLine)).toEqual(['workspace-prod.yml: name: must be text']);
    expect(overlayFileOf(null)).toBe('workspace-dev.yml');
    expect(overlayFileOf(' prod ')).toBe('workspace-prod.yml');
    expect(overlayFileOf('../../etc/passwd')).toBeNull();
    expect(overlayFileOf('a/b')).toBeNull();
  });

  it('never throws on hostile documents, and every path it keeps stays inside by its spelling', () => {
    fc.assert(
      fc.property(yamlValue.value, fc.option(yamlValue.value, { nil: undefined }), (base, overlay) => {
        const { config, problems, notes } = parseWorkspaceConfig(base, overlay === undefined ? undefined : { file: 'workspace-dev.yml', document: overlay });
        for (const problem of problems) expect(['workspace.yml', 'workspace-dev.yml']).toContain(problem.file);
        for (const note of notes) expect(note.length).toBeLessThan(600);
        for (const list of Object.values(config.paths)) {
          for (const p of list) {
            expect(path.isAbsolute(p)).toBe(false);
            expect(path.posix.normalize(p).startsWith('..')).toBe(false);
          }
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('checkRepositoryPath keeps a path only when it is inside by its spelling', () => {
    fc.assert(
      fc.property(fc.oneof(hostilePath, hostileStringWithHuge, fc.constantFrom('../x', 'a/../../x', '/', '\\\\server\\share', '..\\..\\x')), (value) => {
        const checked = checkRepositoryPath(value);
        if ('path' in checked) {
          const resolved = path.resolve('/repo', checked.path);
          expect(resolved === '/repo' || resolved.startsWith('/repo/')).toBe(true);
          expect(checked.path.split('/')).not.toContain('.git');
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseMeltanoPlugins', () => {
  it("keeps an extractor's select rules as its own, and refuses select that is not a list of rules", () => {
    const { plugins, problems } = parseMeltanoPlugins({
      plugins: {
        extractors: [
          { name: 'tap-a', pip_url: 'tap-a', select: ['orders.*', '!orders.secret'] },
          { name: 'tap-b', pip_url: 'tap-b', select: 'orders.*' },
          { name: 'tap-c', pip_url: 'tap-c', select: [1] },
        ],
      },
    });
    expect(plugins.map((p) => [p.name, p.properties._select])).toEqual([['tap-a', '["orders.*","!orders.secret"]']]);
    expect(problems.map(problemLine)).toEqual([
      'meltano.yml: plugins.extractors.1.select: must be a list of at most 1000 select rules, each a text of at most 500 characters',
      'meltano.yml: plugins.extractors.2.select: must be a list of at most 1000 select rules, each a text of at most 500 characters',
    ]);
  });

  it('reads every plugin section into components named as in the file, with their config', () => {
    const { plugins, problems, notes } = parseMeltanoPlugins({
      version: 1,
      default_environment: 'dev',
      plugins: {
        extractors: [
          { name: 'tap-github', variant: 'meltanolabs', pip_url: 'meltanolabs-tap-github', config: { repositories: ['a/b'], start_date: '2024-01-01' } },
          { name: 'tap-github-issues', inherit_from: 'tap-github', config: { start_date: '2025-01-01' } },
        ],
        loaders: [{ name: 'target-postgres', variant: 'transferwise', pip_url: 'pipelinewise-target-postgres' }],
        transformers: [{ name: 'dbt', pip_url: 'dbt-core' }],
        transforms: [{ name: 'tap-github', namespace: 'tap_github' }],
        constructor: [{ name: 'x' }],
      },
    });
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      'meltano.yml: plugins.transforms is ignored: dbt transform packages are not modelled here; the dbt transformer (transformers) is.',
      'meltano.yml: plugins.constructor is ignored: not a kind of plugin this server knows.',
    ]);
    expect(plugins.map((p) => [p.field, p.name, p.pluginType, p.base, p.variant])).toEqual([
      ['plugins.extractors.0', 'tap-github', 'EXTRACTOR', 'tap-github', 'meltanolabs'],
      ['plugins.extractors.1', 'tap-github-issues', 'EXTRACTOR', 'tap-github', null],
      ['plugins.loaders.0', 'target-postgres', 'LOADER', 'target-postgres', 'transferwise'],
      ['plugins.transformers.0', 'dbt', 'TRANSFORMER', 'dbt', null],
    ]);
    expect(plugins[0]?.properties).toEqual({ repositories: ['a/b'], start_date: '2024-01-01' });
    expect(plugins[0]?.definition).toMatchObject({ name: 'tap-github', variant: 'meltanolabs', pipUrl: 'meltanolabs-tap-github' });
    expect(plugins[1]?.definition).toBeNull();
  });

  it('names the entry and key of every problem', () => {
    const { problems } = parseMeltanoPlugins({
      plugins: {
        extractors: [{ name: '../x' }, 'tap-a', { name: 'tap-b', config: { __proto__: 1 } }, { name: 'tap-c', inherit_from: 5 }, { name: 'tap-d' }, { name: 'tap-d' }],
        loaders: { name: 'target-x' },
      },
    });
    expect(problems.map(problemLine)).toEqual([
      'meltano.yml: plugins.extractors.0.name: must start with a letter or digit and hold only letters, digits, _ . and - (at most 100)',
      'meltano.yml: plugins.extractors.1: must be a plugin with a name',
      'meltano.yml: plugins.extractors.3.inherit_from: must name a plugin',
      'meltano.yml: plugins.extractors.5.name: names the plugin tap-d twice',
      'meltano.yml: plugins.loaders: must be a list of plugins',
    ]);
  });

  it('refuses a __proto__ config key read from real YAML, polluting nothing', () => {
    const document: unknown = parseYaml('plugins:\n  extractors:\n  - name: tap-x\n    config:\n      __proto__: {polluted: true}\n');
    const { problems, plugins } = parseMeltanoPlugins(document);
    expect(plugins).toEqual([]);
    expect(problems.map(problemLine)).toEqual(['meltano.yml: plugins.extractors.0.config.__proto__: must not use the key __proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never throws on hostile documents; every problem names meltano.yml', () => {
    fc.assert(
      fc.property(fc.oneof(yamlValue.value, yamlValue.mapping.map((sections) => ({ plugins: sections }))), (document) => {
        const { plugins, problems } = parseMeltanoPlugins(document);
        for (const problem of problems) expect(problem.file).toBe('meltano.yml');
        for (const plugin of plugins) expect(plugin.name).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('Matatika definitions', () => {
  it('reads script (older pipeline files) as inline_script, and refuses two different scripts', () => {
    expect(parsePipelineDefinition('pipelines/old.yml', { script: 'meltano run tap-x target-y' }).definition?.body.script).toBe('meltano run tap-x target-y');
    expect(parsePipelineDefinition('pipelines/new.yml', { inline_script: 'echo hi' }).definition?.body.script).toBe('echo hi');
    expect(parsePipelineDefinition('pipelines/both.yml', { script: 'a', inline_script: 'b' }).problems.map(problemLine)).toEqual(['pipelines/both.yml: script: is given as inline_script too, with another script: keep one']);
  });

  it("takes a dataset's alias from its path under the dataset path, unless the file says alias", () => {
    expect(parseDatasetDefinition('analyze/datasets/tap-github/issues.yml', { title: 'Issues' }, 'tap-github/issues').definition?.alias).toBe('tap-github/issues');
    expect(parseDatasetDefinition('analyze/datasets/tap-github/issues.yml', { title: 'Issues', alias: 'all-issues' }, 'tap-github/issues').definition?.alias).toBe('all-issues');
    expect(parseDatasetDefinition('analyze/datasets/x.yml', { title: 'X', alias: 3 }, 'x').problems.map(problemLine)).toEqual(['analyze/datasets/x.yml: alias: must be text']);
  });

  it('reads a channel, named by its file when it has no name, and keeps only an http(s) picture', () => {
    expect(parseChannelDefinition('analyze/channels/tap-github.yml', { version: 'channels/v0.1', description: 'GitHub', picture: 'https://example.com/g.svg' }).definition).toEqual({
      file: 'analyze/channels/tap-github.yml',
      name: 'tap-github',
      description: 'GitHub',
      picture: 'https://example.com/g.svg',
    });
    const local = parseChannelDefinition('analyze/channels/g.yml', { name: 'Google Analytics', image: 'images/ga.png' });
    expect(local.definition).toMatchObject({ name: 'Google Analytics', picture: null });
    expect(local.notes).toEqual(['analyze/channels/g.yml: image is ignored: only an http(s) address is shown, not a file of the repository.']);
    expect(parseChannelDefinition('analyze/channels/c.yml', { name: ['x'] }).problems.map(problemLine)).toEqual(['analyze/channels/c.yml: name: must be text']);
  });

  it('maps a PostgreSQL data store onto ours and refuses one this server cannot use', () => {
    const postgres = parseDataStoreDefinition('datastores/Analytics.yml', {
      version: 'datastores/v0.1',
      data_plugin: 'loaders/target-postgres--transferwise',
      properties: { host: 'db.example.com', port: 5432, user: 'me', password: 'secret', dbname: 'analytics', default_target_schema: 'raw', batch_size_rows: 100 },
    });
    expect(postgres.problems).toEqual([]);
    expect(postgres.definition).toEqual({
      file: 'datastores/Analytics.yml',
      name: 'Analytics',
      dataPlugin: POSTGRES_STORE_PLUGIN,
      properties: { host: 'db.example.com', port: 5432, user: 'me', password: 'secret', database: 'analytics', schema: 'raw' },
    });
    expect(postgres.notes).toEqual([
      'datastores/Analytics.yml: properties.batch_size_rows is ignored: not a setting of a PostgreSQL store here.',
      "datastores/Analytics.yml: data_plugin: the transferwise variant is read as this server's PostgreSQL store.",
    ]);
    expect(parseDataStoreDefinition('datastores/Snowflake.yml', { data_plugin: 'loaders/target-snowflake--matatika', properties: { 'max-threads': -1 } }).problems.map(problemLine)).toEqual([
      "datastores/Snowflake.yml: data_plugin: 'loaders/target-snowflake--matatika' is not a data store this server can use: only PostgreSQL stores (loaders/target-postgres)",
    ]);
    expect(parseDataStoreDefinition('datastores/P.yml', { data_plugin: 'loaders/target-postgres', properties: { host: 'h', dbname: 'd' } }).problems.map(problemLine)).toEqual([
      'datastores/P.yml: properties.user: is required',
    ]);
  });

  it('refuses two channels or stores of one name, and two datasets of one alias', () => {
    const parsed = parseDefinitions([
      { kind: 'channels', file: 'analyze/channels/a.yml', document: { name: 'Same' } },
      { kind: 'channels', file: 'analyze/channels/b.yml', document: { name: 'Same' } },
      { kind: 'datasets', file: 'analyze/datasets/x/y.yml', key: 'x/y', document: { title: 'Y' } },
      { kind: 'datasets', file: 'analyze/datasets/z.yml', key: 'z', document: { title: 'Z', alias: 'x/y' } },
    ]);
    expect(parsed.problems.map(problemLine)).toEqual(['analyze/channels/b.yml: name: is already defined by analyze/channels/a.yml', 'analyze/datasets/z.yml: alias: is already defined by analyze/datasets/x/y.yml']);
  });

  it('never throws on hostile channel and data store documents', () => {
    fc.assert(
      fc.property(fc.constantFrom('channels', 'datastores'), fc.oneof(yamlValue.mapping, yamlValue.value), (kind, document) => {
        const file = `${kind}/x.yml`;
        const parsed = kind === 'channels' ? parseChannelDefinition(file, document) : parseDataStoreDefinition(file, document);
        expect(parsed.definition === undefined).toBe(parsed.problems.length > 0);
        for (const problem of parsed.problems) expect(problem.file).toBe(file);
      }),
      { numRuns: 300 },
    );
  });
});

describe('readDefinitionFiles in a Matatika layout', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const put = (file: string, content: unknown) => {
    const full = path.join(dir!, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, typeof content === 'string' ? content : stringify(content));
  };

  it('reads workspace.yml, its overlay, meltano.yml and every definition under the paths, recursively, aliases by path', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'matatika-layout-'));
    put('workspace.yml', { version: 'workspaces/v0.2', name: 'Base', dataset_paths: ['analyze/datasets'] });
    put('workspace-prod.yml', { version: 'workspaces/v0.2', name: 'Production' });
    put('meltano.yml', { version: 1, plugins: { extractors: [{ name: 'tap-github' }] } });
    put('analyze/datasets/tap-github/issues/open.yml', { title: 'Open' });
    put('analyze/datasets/tap-github/all.yaml', { title: 'All' });
    put('analyze/datasets/readme.md', 'not a definition');
    put('analyze/channels/tap-github.yml', { description: 'GitHub' });
    put('pipelines/github.yml', { script: 'meltano run tap-github target-postgres' });
    put('datastores/Warehouse2.yml', { data_plugin: 'loaders/target-postgres', properties: { host: 'h', user: 'u', database: 'd' } });
    put('datasets/ignored.yml', { title: 'Not read: workspace.yml names its dataset paths' });

    const read = readDefinitionFiles(dir, { environment: 'prod' });
    expect(read.problems).toEqual([]);
    expect(read.workspace).toMatchObject({ declared: true, overlay: 'workspace-prod.yml', name: 'Production' });
    expect(read.meltano).toEqual({ version: 1, plugins: { extractors: [{ name: 'tap-github' }] } });
    expect(read.files.map((f) => [f.kind, f.file, f.key])).toEqual([
      ['datastores', 'datastores/Warehouse2.yml', 'Warehouse2'],
      ['channels', 'analyze/channels/tap-github.yml', 'tap-github'],
      ['pipelines', 'pipelines/github.yml', 'github'],
      ['datasets', 'analyze/datasets/tap-github/all.yaml', 'tap-github/all'],
      ['datasets', 'analyze/datasets/tap-github/issues/open.yml', 'tap-github/issues/open'],
    ]);
    const parsed = parseDefinitions(read.files);
    expect(parsed.problems).toEqual([]);
    expect(parsed.datasets.map((d) => d.alias)).toEqual(['tap-github/all', 'tap-github/issues/open']);
    expect(parsed.channels.map((c) => c.name)).toEqual(['tap-github']);
    expect(parsed.pipelines[0]?.body.script).toBe('meltano run tap-github target-postgres');
  });

  it('refuses every attempt to lead out: a path of ../.., an absolute path, a folder or file linked out, a linked workspace.yml', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'matatika-hostile-'));
    const clone = path.join(dir, 'clone');
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(clone);
    fs.mkdirSync(path.join(outside, 'datasets'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'datasets', 'stolen.yml'), stringify({ title: 'Stolen' }));
    fs.writeFileSync(path.join(outside, 'secret.yml'), stringify({ title: 'Secret' }));
    fs.writeFileSync(
      path.join(clone, 'workspace.yml'),
      stringify({ version: 'workspaces/v0.2', dataset_paths: ['../outside/datasets', path.join(outside, 'datasets'), 'analyze/datasets', 'linked'], channel_paths: ['../..'] }),
    );
    fs.mkdirSync(path.join(clone, 'analyze', 'datasets', 'nested'), { recursive: true });
    fs.writeFileSync(path.join(clone, 'analyze', 'datasets', 'ok.yml'), stringify({ title: 'OK' }));
    // a file linked out, a folder linked out deep in the tree, and a whole dataset path linked out
    fs.symlinkSync(path.join(outside, 'secret.yml'), path.join(clone, 'analyze', 'datasets', 'secret.yml'));
    fs.symlinkSync(path.join(outside, 'datasets'), path.join(clone, 'analyze', 'datasets', 'nested', 'away'));
    fs.symlinkSync(path.join(outside, 'datasets'), path.join(clone, 'linked'));
    // meltano.yml as a link to a file outside
    fs.symlinkSync(path.join(outside, 'secret.yml'), path.join(clone, 'meltano.yml'));

    const read = readDefinitionFiles(clone);
    expect(read.files.map((f) => f.file)).toEqual(['analyze/datasets/ok.yml']);
    expect(read.meltano).toBeUndefined();
    expect(read.problems.map(problemLine)).toEqual([
      'workspace.yml: dataset_paths.0: leads outside the repository',
      'workspace.yml: dataset_paths.1: must be relative to the repository, not absolute',
      'workspace.yml: channel_paths.0: leads outside the repository',
      'meltano.yml: (file): could not be read: is a symbolic link; only regular files are read',
      'analyze/datasets/nested/away: (file): leads outside the project directory: not deployed',
      'analyze/datasets/secret.yml: (file): could not be read: is a symbolic link; only regular files are read',
      'linked/: (file): leads outside the project directory: not deployed',
    ]);
    expect(JSON.stringify(read)).not.toContain('Stolen');
    expect(JSON.stringify(read)).not.toContain('Secret');
  });
});

// Anything a YAML document can be: scalars, lists and mappings of hostile keys and values, with the
// formats' own keys (and __proto__) made likely.
const KEYS = [
  'version', 'name', 'domains', 'default_data_store', 'dataset_paths', 'channel_paths', 'pipeline_paths', 'plugin_paths', 'data_store_paths', 'app_properties',
  'plugins', 'extractors', 'loaders', 'transformers', 'inherit_from', 'variant', 'config', 'pip_url', 'settings',
  'description', 'picture', 'image', 'data_plugin', 'properties', 'alias', '__proto__', 'constructor', 'toString',
];
const yamlValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileStringWithHuge,
    hostilePath,
    fc.constantFrom('../..', '/etc', 'analyze/datasets', 'tap-github', 'loaders/target-postgres'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('mapping'),
  ),
  mapping: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), hostileStringWithHuge), tie('value')), { maxLength: 6 }).map((pairs) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of pairs) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    return out;
  }),
}));
