import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cataloguePlugin, cataloguePlugins } from './catalogue';
import { parse } from 'yaml';
import { DISCOVERY_SECTIONS, readDiscovery } from '../../src/domain/discovery';
import { DISCOVERY_TEXT_LIMITS, discoveryYaml, nestingDepth, parseDiscoveryYaml } from './discovery';

describe('parseDiscoveryYaml', () => {
  it('reads a discovery.yml into plugins', () => {
    const result = parseDiscoveryYaml('extractors:\n  - name: tap-x\n    variant: v\n    settings:\n      - name: a\n        kind: integer\n');
    expect(result.errors).toEqual([]);
    expect(result.plugins).toEqual([expect.objectContaining({ name: 'tap-x', variant: 'v', settings: [expect.objectContaining({ name: 'a', kind: 'INTEGER' })] })]);
  });

  it('refuses alias bombs, deep nesting, oversize text and broken YAML with a document error', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((n, i) => `${n}: &${n} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
    const cases: [string, RegExp][] = [
      [bomb, /aliases/],
      [`extractors: ${'['.repeat(10_000)}${']'.repeat(10_000)}`, /nest/],
      [Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}k:`).join('\n'), /nest/],
      ['x'.repeat(DISCOVERY_TEXT_LIMITS.size + 1), /KB/],
      ['{ a: [', /YAML/],
      ['a: 1\na: 2', /YAML/],
    ];
    for (const [text, message] of cases) {
      const result = parseDiscoveryYaml(text);
      expect(result.plugins).toEqual([]);
      expect(result.errors).toEqual([expect.objectContaining({ objectName: 'discovery', field: 'document', defaultMessage: expect.stringMatching(message) })]);
    }
  });

  it('never throws, whatever the text', () => {
    const yamlish = fc.string({ unit: fc.constantFrom('a', ':', ' ', '\n', '-', '[', ']', '{', '}', '&a', '*a', '!!', '"', "'", '#', '|', '>', '?', ',', '\t', 'extractors', 'name'), maxLength: 200 });
    fc.assert(
      fc.property(fc.oneof(yamlish, fc.string({ unit: 'binary' })), (text) => {
        const result = parseDiscoveryYaml(text);
        expect(result.plugins.length === 0 || result.errors.length === 0).toBe(true);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('counts nesting without recursion, over the parser’s own depth', () => {
    expect(nestingDepth('a: 1\nb: 2')).toBe(1);
    expect(nestingDepth('a:\n  b:\n    c: [1, {d: 2}]')).toBe(5);
    expect(nestingDepth('a: "[[[["\nb: \'{{{\'')).toBe(1);
    expect(nestingDepth('['.repeat(100_000))).toBe(100_001);
  });
});

describe('the catalogue', () => {
  it('holds the built-ins and the curated Meltano plugins, each id once, every one runnable', () => {
    const plugins = cataloguePlugins();
    const ids = plugins.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(plugins.filter((p) => !p.runnable).map((p) => p.id)).toEqual([]);
    // a discovery.yml plugin with nothing to install is configure only
    expect(cataloguePlugin({ ...plugins.find((p) => !p.builtin)!, pipUrl: null }, false).runnable).toBe(false);
    for (const id of [
      'extractors/tap-github--meltanolabs',
      'extractors/tap-google-analytics--meltanolabs',
      'extractors/tap-google-sheets--matatika',
      'extractors/tap-salesforce--meltanolabs',
      'extractors/tap-postgres--meltanolabs',
      'extractors/tap-csv--meltanolabs',
      'loaders/target-postgres--meltanolabs',
      'loaders/target-snowflake--meltanolabs',
      'loaders/target-bigquery--z3z1ma',
      'transformers/dbt-postgres--dbt-labs',
    ]) {
      const plugin = plugins.find((p) => p.id === id);
      expect(plugin, id).toBeDefined();
      // Meltano installs it from its pip_url in the job's sandbox
      expect(plugin!.pipUrl, id).toBeTruthy();
      expect(plugin!.runnable).toBe(true);
      expect(plugin!.settings.length, id).toBeGreaterThan(2);
      expect(plugin!.fullDescription, id).toMatch(/\n\nDocumentation: https:\/\/(hub|docs)\.meltano\.com\//);
    }
  });

  it('pins tap-postgres and dbt-postgres to packages on the index that install on Python 3.11 (the install step reaches the index only)', () => {
    const pipUrl = (id: string) => cataloguePlugins().find((p) => p.id === id)?.pipUrl;
    // MeltanoHub's pip_url for the MeltanoLabs variant; tests/e2e/lab-meltano.spec.ts installs and runs it
    expect(pipUrl('extractors/tap-postgres--meltanolabs')).toBe('meltanolabs-tap-postgres');
    // dbt 1.3 has no build for 3.11, and dbt-core 1.12 downloads a parser from GitHub at install (tests/runner/meltanoWarehouse.test.ts)
    expect(pipUrl('transformers/dbt-postgres--dbt-labs')).toBe('dbt-core~=1.10.0 dbt-postgres~=1.9.0');
  });
});

describe('discoveryYaml', () => {
  it('writes the catalogue as a discovery.yml that reads back as the same plugins', () => {
    const catalogue = cataloguePlugins();
    const text = discoveryYaml(catalogue);
    expect(text).toMatch(/^version: 22\nextractors:\n/);
    const read = readDiscovery(parse(text));
    expect(read.errors).toEqual([]);
    // Grouped by type, each list in the catalogue's order.
    const byType = (p: { pluginType: string }) => Object.keys(DISCOVERY_SECTIONS).indexOf(Object.keys(DISCOVERY_SECTIONS).find((s) => DISCOVERY_SECTIONS[s] === p.pluginType) ?? '');
    const plain = catalogue.map(({ id: _id, fullDescription: _full, runnable: _runnable, builtin: _builtin, ...plugin }) => plugin);
    expect(read.plugins).toEqual([...plain].sort((a, b) => byType(a) - byType(b)));
  });

  it("writes each setting's value transform as Meltano's value_processor and its encoding, which read back as the same", () => {
    const base = cataloguePlugins()[0]!;
    const setting = base.settings[0]!;
    const plugin = {
      ...base,
      settings: [
        { ...setting, name: 'region', valueProcessor: 'UPCASE_STRING' as const },
        { ...setting, name: 'nested', valueProcessor: 'NEST_OBJECT' as const },
        { ...setting, name: 'text', valueProcessor: 'STRINGIFY' as const, encoding: 'BASE64' as const },
        { ...setting, name: 'plain', valueProcessor: null },
      ],
    };
    const written = parse(discoveryYaml([plugin])) as { extractors: { settings: Record<string, unknown>[] }[] };
    expect(written.extractors[0]!.settings.map((s) => [s.name, s.value_processor])).toEqual([
      ['region', 'upcase_string'],
      ['nested', 'nest_object'],
      ['text', 'stringify'],
      ['plain', undefined],
    ]);
    expect(readDiscovery(written).plugins[0]!.settings.map((s) => s.valueProcessor)).toEqual(['UPCASE_STRING', 'NEST_OBJECT', 'STRINGIFY', null]);
    // the spec's encoding travels the same way
    expect(written.extractors[0]!.settings.map((s) => s.encoding)).toEqual([undefined, undefined, 'BASE64', undefined]);
    expect(readDiscovery(written).plugins[0]!.settings.map((s) => s.encoding)).toEqual([null, null, 'BASE64', null]);
  });

  it('writes hostile text as YAML text, not as structure', () => {
    const plugin = { ...cataloguePlugins()[0]!, description: 'x\n- name: injected\n  *alias: &a [' };
    const read = readDiscovery(parse(discoveryYaml([plugin])));
    expect(read.plugins).toHaveLength(1);
    expect(read.plugins[0]?.description).toBe(plugin.description);
  });
});
