import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { hostileStringWithHuge } from '../../src/domain/hostile.fixture';
import { parseDatasetDefinition, parseDefinitions, parsePipelineDefinition, problemLine, readDefinitionFiles, yamlField, WHOLE_FILE } from './deployDefinitions';

describe('parsePipelineDefinition', () => {
  it('maps every pipelines/v0.1 key onto the pipelines API body, named by the file', () => {
    const parsed = parsePipelineDefinition('pipelines/daily.yml', {
      version: 'pipelines/v0.1',
      data_components: ['tap-demo', 'target-store'],
      actions: ['tap-demo', 'target-store'],
      inline_script: 'meltano run tap-demo target-store',
      properties: { 'tap-demo.seed': 7 },
      timeout: 600,
      max_retries: 2,
      schedule: '0 0 6 * * *',
      triggered_by: ['deploy', 'nightly'],
    });
    expect(parsed.problems).toEqual([]);
    expect(parsed.notes).toEqual([]);
    expect(parsed.definition).toEqual({
      file: 'pipelines/daily.yml',
      name: 'daily',
      body: {
        name: 'daily',
        dataComponents: ['tap-demo', 'target-store'],
        actions: ['tap-demo', 'target-store'],
        script: 'meltano run tap-demo target-store',
        properties: { 'tap-demo.seed': 7 },
        timeout: 600,
        maxRetries: 2,
        schedule: '0 0 6 * * *',
        triggeredBy: ['deploy', 'nightly'],
      },
    });
  });

  it('notes unknown keys, a label and another version, and still reads the definition', () => {
    const parsed = parsePipelineDefinition('pipelines/a.yaml', { label: 'A', name: 'Other', colour: 'red', version: 'pipelines/v9' });
    expect(parsed.problems).toEqual([]);
    expect(parsed.definition?.name).toBe('a');
    expect(parsed.notes).toEqual([
      'pipelines/a.yaml: label is ignored: pipelines are shown by their name (the file name).',
      "pipelines/a.yaml: unknown key 'name' is ignored.",
      "pipelines/a.yaml: unknown key 'colour' is ignored.",
      "pipelines/a.yaml: version: 'pipelines/v9' is not pipelines/v0.1; read as pipelines/v0.1.",
    ]);
  });

  it('names the YAML key and gives the API message for a wrong type', () => {
    const parsed = parsePipelineDefinition('pipelines/daily.yml', { timeout: 'soon', data_components: ['x', 3], max_retries: 1.5 });
    expect(parsed.definition).toBeUndefined();
    const lines = parsed.problems.map(problemLine);
    expect(lines).toContain('pipelines/daily.yml: timeout: must be a whole number of seconds');
    expect(lines).toContain('pipelines/daily.yml: max_retries: must be a whole number');
    expect(lines.some((l) => l.startsWith('pipelines/daily.yml: data_components.1: '))).toBe(true);
  });

  it('refuses a __proto__ property key as the API does', () => {
    const document = JSON.parse('{"properties": {"__proto__": {"x": 1}}}') as unknown;
    const parsed = parsePipelineDefinition('pipelines/p.yml', document);
    expect(parsed.problems.map(problemLine)).toEqual(['pipelines/p.yml: properties.__proto__: must not use the key __proto__']);
  });

  it('refuses a document that is not a mapping', () => {
    for (const document of [null, undefined, 'text', 3, [], [{ schedule: '@daily' }]]) {
      expect(parsePipelineDefinition('pipelines/p.yml', document).problems).toEqual([{ file: 'pipelines/p.yml', field: WHOLE_FILE, message: 'must be a YAML mapping of keys (pipelines/v0.1)' }]);
    }
  });

  it('describes a version that is not text without converting it (a mapping may define toString)', () => {
    const parsed = parsePipelineDefinition('pipelines/v.yml', { version: { toString: 3 } });
    expect(parsed.notes).toEqual(['pipelines/v.yml: version: a mapping is not pipelines/v0.1; read as pipelines/v0.1.']);
  });

  it('reads a YAML null as an absent key', () => {
    expect(parsePipelineDefinition('pipelines/p.yml', { schedule: null, actions: null }).definition?.body).toEqual({ name: 'p' });
  });
});

describe('parseDatasetDefinition', () => {
  it('maps datasets/v0.2 onto the publish API body, the alias from the file and the channel by name', () => {
    const parsed = parseDatasetDefinition('datasets/revenue.yml', {
      version: 'datasets/v0.2',
      source: 'Sales',
      title: 'Revenue',
      questions: 'How much?',
      description: 'Money #finance',
      metadata: '{"name":"x"}',
      visualisation: '{"chartjs-chart":{}}',
      query: 'SELECT 1',
      rawData: '[]',
    });
    expect(parsed.problems).toEqual([]);
    expect(parsed.definition).toEqual({
      file: 'datasets/revenue.yml',
      alias: 'revenue',
      source: 'Sales',
      body: { alias: 'revenue', title: 'Revenue', questions: 'How much?', description: 'Money #finance', metadata: '{"name":"x"}', visualisation: '{"chartjs-chart":{}}', query: 'SELECT 1', rawData: '[]' },
    });
  });

  it('names title and source when they are missing or of the wrong type', () => {
    const parsed = parseDatasetDefinition('datasets/x.yml', { source: ['a'], query: 5 });
    const fields = parsed.problems.map((p) => p.field).sort();
    expect(fields).toEqual(['query', 'source', 'title']);
    expect(parsed.definition).toBeUndefined();
  });

  it('refuses an alias (file name) longer than the API allows', () => {
    const parsed = parseDatasetDefinition(`datasets/${'a'.repeat(201)}.yml`, { title: 'T' });
    expect(parsed.problems.map((p) => p.field)).toEqual(['alias (the file name)']);
  });
});

describe('parseDefinitions', () => {
  it('refuses two files of one pipeline name (names ignore case) or one alias', () => {
    const parsed = parseDefinitions([
      { kind: 'pipelines', file: 'pipelines/Daily.yml', document: {} },
      { kind: 'pipelines', file: 'pipelines/daily.yaml', document: {} },
      { kind: 'datasets', file: 'datasets/a.yml', document: { title: 'A' } },
      { kind: 'datasets', file: 'datasets/a.yaml', document: { title: 'A' } },
    ]);
    expect(parsed.pipelines.map((p) => p.name)).toEqual(['Daily']);
    expect(parsed.datasets.map((d) => d.alias)).toEqual(['a']);
    expect(parsed.problems.map(problemLine)).toEqual([
      'pipelines/daily.yaml: name (the file name): is already defined by pipelines/Daily.yml',
      'datasets/a.yaml: alias (the file name): is already defined by datasets/a.yml',
    ]);
  });

  it('maps API field names back to YAML keys', () => {
    expect(yamlField('pipelines', 'triggeredBy.2')).toBe('triggered_by.2');
    expect(yamlField('pipelines', 'properties.tap.x')).toBe('properties.tap.x');
    expect(yamlField('pipelines', 'schedule')).toBe('schedule');
    expect(yamlField('datasets', 'channelId')).toBe('source');
    expect(yamlField('datasets', 'rawData')).toBe('rawData');
  });
});

// Anything a YAML document can be: scalars, lists and mappings of hostile keys and values, with the
// format's own keys (and __proto__) made likely.
const KEYS = ['data_components', 'actions', 'inline_script', 'properties', 'timeout', 'max_retries', 'schedule', 'triggered_by', 'label', 'version', 'source', 'title', 'questions', 'description', 'metadata', 'visualisation', 'query', 'rawData', '__proto__', 'constructor', 'toString'];
const yamlValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileStringWithHuge,
    fc.integer(),
    fc.double(),
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
const fileName = fc.oneof(fc.constantFrom('daily', 'a.b', 'x'.repeat(300)), hostileStringWithHuge).map((s) => s.replace(/[/\u0000]/g, '_'));

describe('hostile documents', () => {
  it('never throw: always a definition, or field problems naming the file', () => {
    fc.assert(
      fc.property(fc.constantFrom('pipelines' as const, 'datasets' as const), fileName, fc.oneof(yamlValue.mapping, yamlValue.value), (kind, name, document) => {
        const file = `${kind}/${name}.yml`;
        const parsed = kind === 'pipelines' ? parsePipelineDefinition(file, document) : parseDatasetDefinition(file, document);
        expect(parsed.definition === undefined).toBe(parsed.problems.length > 0);
        for (const problem of parsed.problems) {
          expect(problem.file).toBe(file);
          expect(problem.field.length).toBeGreaterThan(0);
          expect(problem.message.length).toBeGreaterThan(0);
        }
        for (const note of parsed.notes) expect(note.length).toBeLessThan(600);
      }),
      { numRuns: 300 },
    );
  });

  it('a valid definition is what the API would accept, whatever other keys are around it', () => {
    fc.assert(
      fc.property(yamlValue.mapping, fc.integer({ min: 0, max: 3600 }), (noise, timeout) => {
        const document: Record<string, unknown> = {};
        for (const key of Object.keys(noise)) if (!KEYS.includes(key)) Object.defineProperty(document, key, { value: noise[key], enumerable: true });
        document.timeout = timeout;
        const parsed = parsePipelineDefinition('pipelines/p.yml', document);
        expect(parsed.problems).toEqual([]);
        expect(parsed.definition?.body.timeout).toBe(timeout);
      }),
      { numRuns: 200 },
    );
  });
});

describe('readDefinitionFiles', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a definitions folder that is a link out of the clone (another project, /etc) and reads nothing through it', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'definitions-'));
    const clone = path.join(dir, 'clone');
    const other = path.join(dir, 'other-project');
    fs.mkdirSync(clone);
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'theirs.yml'), stringify({ schedule: '@daily' }));
    fs.symlinkSync(other, path.join(clone, 'pipelines'));
    fs.symlinkSync('/etc', path.join(clone, 'datasets'));
    const read = readDefinitionFiles(clone);
    expect(read.files).toEqual([]);
    expect(read.problems.map((p) => problemLine(p))).toEqual([
      `pipelines/: ${WHOLE_FILE}: leads outside the project directory: not deployed`,
      `datasets/: ${WHOLE_FILE}: leads outside the project directory: not deployed`,
    ]);
  });

  it('reads regular YAML files only, refusing links, big files and alias bombs, each by name', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'definitions-'));
    fs.mkdirSync(path.join(dir, 'pipelines'));
    fs.mkdirSync(path.join(dir, 'datasets'));
    fs.writeFileSync(path.join(dir, 'pipelines', 'ok.yml'), stringify({ schedule: '@daily' }));
    fs.writeFileSync(path.join(dir, 'pipelines', 'notes.txt'), 'ignored');
    fs.symlinkSync('/etc/passwd', path.join(dir, 'pipelines', 'link.yml'));
    fs.writeFileSync(path.join(dir, 'datasets', 'big.yml'), `title: ${'x'.repeat(1_000_001)}`);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`)].join('\n');
    fs.writeFileSync(path.join(dir, 'datasets', 'bomb.yml'), bomb);
    const read = readDefinitionFiles(dir);
    expect(read.files.map((f) => f.file)).toEqual(['pipelines/ok.yml']);
    expect(read.problems.map((p) => `${p.file}: ${p.message}`)).toEqual([
      'pipelines/link.yml: could not be read: is a symbolic link; only regular files are read',
      'datasets/big.yml: could not be read: is larger than 1000000 bytes',
      expect.stringMatching(/^datasets\/bomb\.yml: could not be read: /),
    ]);
  });

  it('reads __proto__ keys of real YAML as plain keys: noted at the top, refused in properties, nothing polluted', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'definitions-'));
    fs.mkdirSync(path.join(dir, 'pipelines'));
    fs.writeFileSync(path.join(dir, 'pipelines', 'proto.yml'), '__proto__: {polluted: true}\nproperties:\n  __proto__: {polluted: true}\n');
    const parsed = parseDefinitions(readDefinitionFiles(dir).files);
    expect(parsed.notes).toEqual(["pipelines/proto.yml: unknown key '__proto__' is ignored."]);
    expect(parsed.problems.map(problemLine)).toEqual(['pipelines/proto.yml: properties.__proto__: must not use the key __proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
