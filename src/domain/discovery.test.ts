import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISCOVERY_LIMITS, fullDescription, pluginReference, pluginTypeOfPlural, readDiscovery, trustedDocsUrl } from './discovery';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import { SETTING_KINDS } from './resources';

describe('readDiscovery', () => {
  it('reads the bundled format: one plugin per variant, variant fields over plugin fields', () => {
    const result = readDiscovery({
      version: 22,
      extractors: [
        {
          name: 'tap-github',
          label: 'GitHub',
          description: 'Code hosting platform',
          settings: [{ name: 'auth_token', kind: 'password' }],
          variants: [
            { name: 'meltanolabs', docs: 'https://hub.meltano.com/x', capabilities: ['catalog', 'state'], settings: [{ name: 'start_date', kind: 'date_iso8601' }] },
            { name: 'singer-io', label: 'GitHub (Singer)' },
          ],
        },
      ],
    });
    expect(result.errors).toEqual([]);
    expect(result.plugins.map((p) => pluginReference(p.pluginType, p.name, p.variant))).toEqual(['extractors/tap-github--meltanolabs', 'extractors/tap-github--singer-io']);
    const [labs, singer] = result.plugins;
    expect(labs).toMatchObject({ label: 'GitHub', description: 'Code hosting platform', docs: 'https://hub.meltano.com/x', capabilities: ['catalog', 'state'] });
    expect(labs!.settings.map((s) => s.name)).toEqual(['start_date']);
    expect(singer).toMatchObject({ label: 'GitHub (Singer)', docs: null });
    // A variant without settings of its own has the plugin's.
    expect(singer!.settings).toEqual([expect.objectContaining({ name: 'auth_token', kind: 'PASSWORD', sensitive: true })]);
  });

  it('reads the flat MeltanoHub format and the kinds Meltano implies', () => {
    const { plugins, errors } = readDiscovery({
      loaders: [
        {
          name: 'target-x',
          variant: 'acme',
          settings: [
            { name: 'token', kind: 'oauth' },
            { name: 'internal', kind: 'hidden' },
            { name: 'mode', kind: 'Options', options: [{ label: 'A', value: 'a' }, { value: 2 }] },
            { name: 'plain' },
            { name: 'flagged', required: 'false', sensitive: true },
          ],
        },
      ],
    });
    expect(errors).toEqual([]);
    expect(plugins).toHaveLength(1);
    const settings = plugins[0]!.settings;
    expect(settings[0]).toMatchObject({ kind: 'OAUTH', sensitive: true, hidden: false });
    expect(settings[1]).toMatchObject({ kind: 'HIDDEN', hidden: true });
    expect(settings[2]).toMatchObject({ kind: 'OPTIONS', options: [{ label: 'A', value: 'a' }, { label: null, value: 2 }] });
    expect(settings[3]).toMatchObject({ kind: 'STRING', sensitive: false });
    expect(settings[4]).toMatchObject({ required: 'false', sensitive: true });
    expect(plugins[0]).toMatchObject({ pluginType: 'LOADER', variant: 'acme' });
  });

  it('names each wrong field by list, index and path', () => {
    const { plugins, errors } = readDiscovery({
      extractors: [{ name: 'ok' }, { name: 'bad name!' }, 'text', { name: 'x', settings: [{ name: 'a', kind: 'robot' }, { kind: 'string' }, { name: 'c', options: 'yes' }], hidden: 'maybe' }],
      loaders: { name: 'not a list' },
    });
    expect(plugins).toEqual([]);
    const lines = errors.map((e) => `${e.objectName}.${e.field} - ${e.defaultMessage}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^extractors\[1\]\.name - must start with a letter or digit/),
        'extractors[2].name - must be a plugin with a name',
        expect.stringMatching(/^extractors\[3\]\.settings\[0\]\.kind - must be one of oauth, hidden/),
        'extractors[3].settings[1].name - is required',
        'extractors[3].settings[2].options - must be a list',
        'extractors[3].hidden - must be true or false',
        'discovery.loaders - must be a list of plugins',
      ]),
    );
  });

  it('refuses a plugin defined twice and a setting named twice', () => {
    const twice = readDiscovery({ extractors: [{ name: 'a', variant: 'v' }, { name: 'a', variant: 'v' }] });
    expect(twice.errors.map((e) => e.defaultMessage)).toEqual(['defines extractors/a--v twice']);
    const setting = readDiscovery({ extractors: [{ name: 'a', settings: [{ name: 's' }, { name: 's' }] }] });
    expect(setting.errors.map((e) => `${e.objectName}.${e.field}`)).toEqual(['extractors[0].settings']);
  });

  it("refuses a plugin name or a setting's env in the system's variable namespace (issue 36)", () => {
    const { plugins, errors } = readDiscovery({
      extractors: [
        { name: 'ld', variant: 'v' },
        { name: 'tap-ok', settings: [{ name: 'hook', env: 'LD_PRELOAD' }, { name: 'token', env: 'TAP_OK_TOKEN' }] },
      ],
    });
    expect(plugins).toEqual([]);
    expect(errors.map((e) => `${e.objectName}.${e.field}: ${e.defaultMessage}`)).toEqual([
      expect.stringMatching(/^extractors\[0\]\.name: cannot be used: its settings would become LD_… variables/),
      'extractors[1].settings[0].env: cannot be LD_PRELOAD: a namespace the system reads',
    ]);
  });

  it('has no plugins and no errors for an empty document, and refuses a document that is not a map', () => {
    for (const empty of [null, undefined, {}, { version: 22 }, { extractors: [] }]) expect(readDiscovery(empty)).toEqual({ plugins: [], errors: [] });
    for (const wrong of ['text', 42, [], [{ name: 'x' }], true]) expect(readDiscovery(wrong).errors).toEqual([expect.objectContaining({ objectName: 'discovery', field: 'document' })]);
  });

  it('does not let a __proto__ key reach the prototype', () => {
    const document = JSON.parse('{"extractors":[{"name":"a","commands":{"__proto__":{"polluted":"yes"},"run":"x"}}]}') as unknown;
    const { plugins } = readDiscovery(document);
    expect(Object.keys(plugins[0]!.commands)).toEqual(['__proto__', 'run']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  // Any JSON a YAML document could become: the reader answers, never throws, and never both.
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double(), hostileString, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.constantFrom('name', 'label', 'kind', 'settings', 'variants', 'variant', 'options', 'value', 'hidden', hostileString as unknown as string), tie('value'), { maxKeys: 5 })),
  })).value;
  const section = fc.constantFrom('extractors', 'loaders', 'transformers', 'mappers', 'utilities', 'files', 'orchestrators', 'other');

  it('is total on hostile documents: plugins or errors, never both, every error named', () => {
    fc.assert(
      fc.property(fc.dictionary(section, json, { maxKeys: 4 }), (document) => {
        const result = readDiscovery(document);
        expect(result.plugins.length === 0 || result.errors.length === 0).toBe(true);
        expect(result.errors.length).toBeLessThanOrEqual(DISCOVERY_LIMITS.errors + 2);
        for (const error of result.errors) {
          expect(error.objectName).toMatch(/^(discovery|[a-z]+\[\d+\])$/);
          expect(error.defaultMessage.length).toBeGreaterThan(0);
        }
        for (const plugin of result.plugins) {
          expect(plugin.name).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/);
          for (const setting of plugin.settings) expect(SETTING_KINDS).toContain(setting.kind);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reads every generated valid plugin back with its name, variant and setting kinds', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
    // a tap's name, as extractors are named: a bare name may fall in the system's variables (LD_…, GIT_…), refused by its own test
    const pluginNames = fc.stringMatching(/^tap-[a-z0-9-]{0,16}$/);
    fc.assert(
      fc.property(pluginNames, fc.option(name, { nil: undefined }), fc.uniqueArray(fc.tuple(name, fc.constantFrom(...SETTING_KINDS)), { selector: ([n]) => n, maxLength: 8 }), (pluginName, variant, settings) => {
        const { plugins, errors } = readDiscovery({ extractors: [{ name: pluginName, ...(variant ? { variant } : {}), settings: settings.map(([n, kind]) => ({ name: n, kind: kind.toLowerCase() })) }] });
        expect(errors).toEqual([]);
        expect(plugins[0]).toMatchObject({ name: pluginName, variant: variant ?? null });
        expect(plugins[0]!.settings.map((s) => [s.name, s.kind])).toEqual(settings);
      }),
    );
  });
});

describe('pluginReference and pluginTypeOfPlural', () => {
  it('builds the id a component names and reads the plural back', () => {
    expect(pluginReference('EXTRACTOR', 'tap-github', 'meltanolabs')).toBe('extractors/tap-github--meltanolabs');
    expect(pluginReference('UTILITY', 'airflow', null)).toBe('utilities/airflow');
    expect(pluginTypeOfPlural('loaders')).toBe('LOADER');
    expect(pluginTypeOfPlural('robots')).toBeUndefined();
    fc.assert(
      fc.property(hostileString, (text) => {
        expect([undefined, 'EXTRACTOR', 'LOADER', 'MAPPER', 'TRANSFORMER', 'UTILITY', 'FILE']).toContain(pluginTypeOfPlural(text));
      }),
    );
  });
});

describe('trusted documentation links', () => {
  it('links https documentation on a trusted host only', () => {
    expect(trustedDocsUrl('https://hub.meltano.com/extractors/tap-github')).toBe('https://hub.meltano.com/extractors/tap-github');
    expect(trustedDocsUrl('https://github.com/MeltanoLabs/tap-csv#settings')).toBe('https://github.com/MeltanoLabs/tap-csv#settings');
    for (const untrusted of ['http://hub.meltano.com/x', 'https://hub.meltano.com.evil.io/x', 'https://evilgithub.com/', 'https://user:pw@github.com/', 'javascript:alert(1)', 'hub.meltano.com/x', '', null, undefined]) {
      expect(trustedDocsUrl(untrusted), String(untrusted)).toBeNull();
    }
  });

  it('appends the link to the description, and only then', () => {
    expect(fullDescription('Code hosting platform', 'https://hub.meltano.com/x')).toBe('Code hosting platform\n\nDocumentation: https://hub.meltano.com/x');
    expect(fullDescription(null, 'https://docs.meltano.com/')).toBe('Documentation: https://docs.meltano.com/');
    expect(fullDescription('Text', 'https://evil.example.com/')).toBe('Text');
  });

  it('never links an untrusted host, whatever the text', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, hostileString, (description, docs) => {
        const text = fullDescription(description, docs);
        const link = trustedDocsUrl(docs);
        if (link === null) expect(text).toBe(description.trim());
        else expect(new URL(link).protocol).toBe('https:');
      }),
      { numRuns: 200 },
    );
  });
});
