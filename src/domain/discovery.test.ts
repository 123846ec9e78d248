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

describe('readDiscovery: every field and its error, by hand', () => {
  const one = (plugin: Record<string, unknown>, section = 'extractors') => readDiscovery({ [section]: [plugin] });
  const errorsOf = (plugin: Record<string, unknown>) => one(plugin).errors.map((e) => `${e.objectName} ${e.field}: ${e.defaultMessage}`);
  const kinds = SETTING_KINDS.map((k) => k.toLowerCase()).join(', ');

  it('reads every setting field, numbers and booleans as the text the author wrote', () => {
    const { plugins, errors } = one({
      name: 'tap-a',
      settings: [
        { name: 'a', label: 2024, kind: ' password ', description: true, value: 0, placeholder: 'p', env: 'TAP_A_SECRET', documentation: 'https://hub.meltano.com/a', options: [{ label: 'One', value: 1 }, { value: null }], required: 'true', sensitive: 'false', hidden: 'true', value_processor: 'upcase_string', encoding: 'base64' },
        { name: 'b', kind: null, required: false, options: null, sensitive: false, value_processor: null, encoding: null },
        { name: 'c', kind: 'hidden', required: null, value_processor: ' NEST_OBJECT ', encoding: ' Base64 ' },
        { name: 'd', kind: 'file', value_processor: 'Stringify', encoding: 'BASE64' },
      ],
    });
    expect(errors).toEqual([]);
    expect(plugins[0]!.settings).toStrictEqual([
      { name: 'a', label: '2024', kind: 'PASSWORD', description: 'true', value: 0, placeholder: 'p', env: 'TAP_A_SECRET', documentation: 'https://hub.meltano.com/a', options: [{ label: 'One', value: 1 }, { label: null, value: null }], required: 'true', sensitive: true, hidden: true, valueProcessor: 'UPCASE_STRING', encoding: 'BASE64' },
      { name: 'b', label: null, kind: 'STRING', description: null, placeholder: null, env: null, documentation: null, options: null, required: false, sensitive: false, hidden: false, valueProcessor: null, encoding: null },
      { name: 'c', label: null, kind: 'HIDDEN', description: null, placeholder: null, env: null, documentation: null, options: null, required: null, sensitive: false, hidden: true, valueProcessor: 'NEST_OBJECT', encoding: 'BASE64' },
      { name: 'd', label: null, kind: 'FILE', description: null, placeholder: null, env: null, documentation: null, options: null, required: null, sensitive: false, hidden: false, valueProcessor: 'STRINGIFY', encoding: 'BASE64' },
    ]);
  });

  it('names each wrong setting field', () => {
    expect(errorsOf({ name: 'tap-a', settings: [{ name: 'a', label: {}, kind: 5, description: [], required: {}, placeholder: {}, documentation: {}, options: 'x', sensitive: 'yes', hidden: 1 }] })).toEqual([
      `extractors[0] settings[0].kind: must be one of ${kinds}`,
      'extractors[0] settings[0].required: must be text',
      'extractors[0] settings[0].label: must be text',
      'extractors[0] settings[0].description: must be text',
      'extractors[0] settings[0].placeholder: must be text',
      'extractors[0] settings[0].documentation: must be text',
      'extractors[0] settings[0].options: must be a list',
      'extractors[0] settings[0].sensitive: must be true or false',
      'extractors[0] settings[0].hidden: must be true or false',
    ]);
    // Meltano refuses a value processor it has no function for; so does the definition
    expect(errorsOf({ name: 'tap-a', settings: [{ name: 'a', value_processor: 'downcase_string' }, { name: 'b', value_processor: 5 }, { name: 'c', value_processor: '' }] })).toEqual([
      'extractors[0] settings[0].value_processor: must be one of upcase_string, nest_object, stringify',
      'extractors[0] settings[1].value_processor: must be one of upcase_string, nest_object, stringify',
      'extractors[0] settings[2].value_processor: must be one of upcase_string, nest_object, stringify',
    ]);
    expect(errorsOf({ name: 'tap-a', settings: [{ name: 'a', encoding: 'azure_key_vault_secret' }, { name: 'b', encoding: 'hex' }, { name: 'c', encoding: 64 }] })).toEqual([
      'extractors[0] settings[0].encoding: AZURE_KEY_VAULT_SECRET needs an Azure Key Vault, which this server has none of',
      'extractors[0] settings[1].encoding: must be base64',
      'extractors[0] settings[2].encoding: must be base64',
    ]);
    expect(errorsOf({ name: 'tap-a', settings: [{ name: 'a', options: [{}, 5, { value: {} }, { value: 'ok', label: {} }] }] })).toEqual([
      'extractors[0] settings[0].options[0]: must have a value',
      'extractors[0] settings[0].options[1]: must have a value',
      'extractors[0] settings[0].options[2].value: must be text, a number or true/false',
      'extractors[0] settings[0].options[3].label: must be text',
    ]);
    expect(errorsOf({ name: 'tap-a', settings: [5, {}, { name: '-a' }, { name: 'x'.repeat(201) }, { name: 'a', label: 'l'.repeat(501) }, { name: 'b', label: 'l'.repeat(500) }] })).toEqual([
      'extractors[0] settings[0]: must be a setting with a name',
      'extractors[0] settings[1].name: is required',
      'extractors[0] settings[2].name: must hold only letters, digits and _ . + -',
      'extractors[0] settings[3].name: must be at most 200 characters',
      'extractors[0] settings[3].name: is required',
      'extractors[0] settings[4].label: must be at most 500 characters',
    ]);
    expect(errorsOf({ name: 'tap-a', settings: [{ name: 'a' }, { name: 'a' }] })).toEqual(['extractors[0] settings: names the setting a twice']);
    expect(errorsOf({ name: 'tap-a', settings: 'a' })).toEqual(['extractors[0] settings: must be a list']);
    expect(errorsOf({ name: 'tap-a', settings: Array.from({ length: 501 }, (_, i) => ({ name: `s${i}` })) })).toEqual(['extractors[0] settings: must hold at most 500 entries']);
  });

  it('reads capabilities and commands, naming what is wrong', () => {
    const ok = one({ name: 'tap-a', capabilities: ['c'.repeat(200)], commands: { run: 'x', deps: { args: 'y' } } });
    expect(ok.errors).toEqual([]);
    expect(ok.plugins[0]).toMatchObject({ capabilities: ['c'.repeat(200)], commands: { run: 'x', deps: { args: 'y' } } });
    expect(errorsOf({ name: 'tap-a', capabilities: ['c'.repeat(201), 5], commands: { bad: 5, list: [] } })).toEqual([
      'extractors[0] capabilities[0]: must be text',
      'extractors[0] capabilities[1]: must be text',
      'extractors[0] commands.bad: must be text or a command',
      'extractors[0] commands.list: must be text or a command',
    ]);
    expect(errorsOf({ name: 'tap-a', commands: 'run' })).toEqual(['extractors[0] commands: must be a map of command names']);
    expect(errorsOf({ name: 'tap-a', capabilities: Array.from({ length: 201 }, () => 'c') })).toEqual(['extractors[0] capabilities: must hold at most 200 entries']);
    const many = one({ name: 'tap-a', commands: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`c${i}`, 'x'])) });
    expect(Object.keys(many.plugins[0]!.commands)).toHaveLength(200);
    expect(one({ name: 'tap-a', commands: null }).plugins[0]!.commands).toEqual({});
  });

  it('takes each plugin field from the variant, else from the plugin, and names each wrong one where it is', () => {
    const fields = { label: 'L', namespace: 'n', description: 'd', docs: 'https://hub.meltano.com/d', repo: 'https://github.com/r', logo_url: '/l.png', pip_url: 'tap-a==1', executable: 'tap-a' };
    const [fromPlugin, fromVariant] = one({ name: 'tap-a', ...fields, capabilities: ['p'], hidden: true, variants: [{ name: 'v1' }, { name: 'v2', label: 'L2', namespace: 'n2', description: 'd2', docs: 'https://hub.meltano.com/d2', repo: 'r2', logo_url: 'l2', pip_url: 'p2', executable: 'e2', capabilities: ['v'], settings: [{ name: 's' }] }] }).plugins;
    expect(fromPlugin).toMatchObject({ variant: 'v1', label: 'L', namespace: 'n', description: 'd', docs: 'https://hub.meltano.com/d', repo: 'https://github.com/r', logoUrl: '/l.png', pipUrl: 'tap-a==1', executable: 'tap-a', capabilities: ['p'], hidden: true, settings: [] });
    expect(fromVariant).toMatchObject({ variant: 'v2', label: 'L2', namespace: 'n2', description: 'd2', docs: 'https://hub.meltano.com/d2', repo: 'r2', logoUrl: 'l2', pipUrl: 'p2', executable: 'e2', capabilities: ['v'], hidden: true });
    expect(fromVariant!.settings.map((s) => s.name)).toEqual(['s']);
    const bad = Object.fromEntries(Object.keys(fields).map((key) => [key, {}]));
    expect(errorsOf({ name: 'tap-a', ...bad })).toEqual(Object.keys(fields).map((key) => `extractors[0] ${key}: must be text`));
    expect(errorsOf({ name: 'tap-a', variants: [{ name: 'v', ...bad, capabilities: [1], settings: [{}], hidden: 'x' }] })).toEqual([
      'extractors[0] variants[0].settings[0].name: is required',
      ...Object.keys(fields).map((key) => `extractors[0] variants[0].${key}: must be text`),
      'extractors[0] variants[0].capabilities[0]: must be text',
      'extractors[0] variants[0].hidden: must be true or false',
    ]);
    expect(errorsOf({ name: 'tap-a', settings: [{}], capabilities: [1], variants: [{ name: 'v' }] })).toEqual(['extractors[0] settings[0].name: is required', 'extractors[0] capabilities[0]: must be text']);
    // a flat plugin is hidden by its own flag only
    expect(one({ name: 'tap-a', hidden: 'true' }).plugins[0]!.hidden).toBe(true);
    expect(one({ name: 'tap-a', hidden: false, variants: [{ name: 'v', hidden: 'false' }] }).plugins[0]!.hidden).toBe(false);
    expect(one({ name: 'tap-a', variants: [{ name: 'v', hidden: true }] }).plugins[0]!.hidden).toBe(true);
  });

  it('names a wrong plugin or variant name, and wrong variants', () => {
    expect(errorsOf({ label: 'x' })).toEqual(['extractors[0] name: is required']);
    expect(errorsOf({ name: '-a' })).toEqual(['extractors[0] name: must start with a letter or digit and hold only letters, digits, _ . and -']);
    expect(errorsOf({ name: 'tap-a', variant: '-v' })).toEqual(['extractors[0] variant: must start with a letter or digit and hold only letters, digits, _ . and -']);
    expect(errorsOf({ name: 'tap-a', variants: [{ name: '-v' }] })).toEqual(['extractors[0] variants[0].name: must start with a letter or digit and hold only letters, digits, _ . and -']);
    expect(errorsOf({ name: 'tap-a', variants: 'v' })).toEqual(['extractors[0] variants: must be a list']);
    expect(errorsOf({ name: 'tap-a', variants: [5] })).toEqual(['extractors[0] variants[0]: must be a variant with a name']);
    expect(one({ name: 'tap-a', variants: null, variant: 'v' }).plugins[0]!.variant).toBe('v');
    expect(one({ name: 'tap-a', variants: [{}] }).plugins[0]!.variant).toBeNull();
  });

  it('reads the document as a whole: its shape, its sections, duplicates and the caps', () => {
    expect(readDiscovery('x')).toEqual({ plugins: [], errors: [{ objectName: 'discovery', field: 'document', defaultMessage: 'must be a map of plugin lists (extractors, loaders, ...)' }] });
    expect(readDiscovery({ extractors: null, loaders: [{ name: 'target-a' }] }).plugins.map((p) => p.name)).toEqual(['target-a']);
    expect(readDiscovery({ extractors: [{ name: 'tap-a' }, { name: 'tap-a' }] }).errors).toEqual([{ objectName: 'discovery', field: 'plugins', defaultMessage: 'defines extractors/tap-a twice' }]);
    const plugins = (n: number) => ({ extractors: Array.from({ length: n }, (_, i) => ({ name: `tap-${i}` })) });
    expect(readDiscovery(plugins(500)).plugins).toHaveLength(500);
    expect(readDiscovery(plugins(501)).errors).toEqual([{ objectName: 'discovery', field: 'plugins', defaultMessage: 'must define at most 500 plugins' }]);
    // at most 100 errors, however many things are wrong
    expect(readDiscovery({ extractors: Array.from({ length: 150 }, () => ({ name: '-' })) }).errors).toHaveLength(100);
    expect(readDiscovery({ extractors: Array.from({ length: 150 }, () => ({ name: 'tap-a' })) }).errors).toHaveLength(100);
    expect(readDiscovery({ extractors: [{ name: 'tap-a', settings: Array.from({ length: 150 }, () => ({})) }] }).errors).toHaveLength(100);
  });

  it('trusts https docs on the listed hosts only, without credentials', () => {
    expect(trustedDocsUrl('')).toBeNull();
    expect(trustedDocsUrl(' https://hub.meltano.com/x ')).toBe('https://hub.meltano.com/x');
    expect(trustedDocsUrl('https://user@hub.meltano.com/x')).toBeNull();
    expect(trustedDocsUrl('https://:pw@hub.meltano.com/x')).toBeNull();
    expect(trustedDocsUrl('http://hub.meltano.com/x')).toBeNull();
    expect(pluginReference('Widget', 'w', null)).toBe('widget/w');
    expect(pluginReference('EXTRACTOR', 'tap-a', '')).toBe('extractors/tap-a');
  });
});

describe('readDiscovery: survivors of the re-run (by hand)', () => {
  const errorsOf = (plugin: Record<string, unknown>) => readDiscovery({ extractors: [plugin] }).errors.map((e) => `${e.objectName} ${e.field}: ${e.defaultMessage}`);

  it('reads null as absent, takes 500 settings and boolean option values', () => {
    expect(errorsOf({ name: 'tap-a', label: null, hidden: null, settings: null, capabilities: null })).toEqual([]);
    expect(errorsOf({ name: 'tap-a', settings: Array.from({ length: 500 }, (_, i) => ({ name: `s${i}` })) })).toEqual([]);
    expect(errorsOf({ name: 'tap-a', settings: [{ name: 'a', options: [{ value: true }] }] })).toEqual([]);
  });

  it('names a wrong plugin-level field where it is written, once', () => {
    expect(errorsOf({ name: 'n'.repeat(101) })).toEqual(['extractors[0] name: must be at most 100 characters', 'extractors[0] name: is required']);
    expect(errorsOf({ name: 'tap-a', variant: {} })).toEqual(['extractors[0] variant: must be text']);
    expect(errorsOf({ name: 'tap-a', hidden: 'x' })).toEqual(['extractors[0] hidden: must be true or false']);
    expect(errorsOf({ name: 'tap-a', label: {}, hidden: 'x', variants: [{ name: 'v' }] })).toEqual(['extractors[0] label: must be text', 'extractors[0] hidden: must be true or false']);
    expect(errorsOf({ name: 'tap-a', variants: [{ name: 'v'.repeat(101) }] })).toEqual(['extractors[0] variants[0].name: must be at most 100 characters']);
  });
});
