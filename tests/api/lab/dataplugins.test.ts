import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../../src/domain/relations';
import { dataPluginSchema, dataPluginsCollectionSchema } from '../../../src/domain/resources';
import { DEMO } from '../../../server/seed';
import { embedded, expectError, hasLink, linkOf, type Answer, type ApiClient } from '../helpers/http';
import { login, startWorld, type World } from '../helpers/world';
import { outsiderWorkspace, type Body } from './labWorld';

// The plugin catalogue of a workspace (spec 001 §2, §6, §7): installed and available plugins,
// installing and removing by links, and the discovery.yml upload with hostile documents.

let world: World;
let owner: ApiClient;
let workspace: Body;
let outsiderWorkspaceId: string;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  outsiderWorkspaceId = await outsiderWorkspace(world);
  owner = world.owner.api;
  workspace = (await owner.get(`/api/workspaces/${DEMO.workspaceId}`)).body as Body;
});
afterAll(() => world?.close());

const plugins = (answer: Answer): Body[] => embedded(answer.body, 'dataplugins') as Body[];
const ids = (answer: Answer): string[] => plugins(answer).map((p) => String(p.id));

/** POST a discovery.yml as the spec sends it: text/x-yaml. */
async function publish(token: string, href: string, text: string, type = 'text/x-yaml'): Promise<Answer> {
  const response = await fetch(href, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: text });
  const body = await response.text();
  return { status: response.status, body: body === '' ? undefined : JSON.parse(body), headers: response.headers };
}

const CUSTOM_YAML = `
extractors:
  - name: tap-acme
    label: Acme CRM
    namespace: tap_acme
    description: Accounts and deals from Acme.
    variant: acme
    docs: https://hub.meltano.com/extractors/tap-acme
    settings:
      - name: api_key
        kind: password
        label: API key
      - name: region
        kind: options
        value_processor: upcase_string
        options:
          - { label: Europe, value: eu }
          - { label: America, value: us }
      - name: credentials_file
        kind: file
        encoding: base64
loaders:
  - name: target-acme
    variants:
      - name: one
        docs: https://evil.example.com/docs
      - name: two
`;

describe('installed and available plugins', () => {
  it("offers 'dataplugins', 'availabledataplugins' and 'publish discovery.yml' to an admin, and none to a member", async () => {
    for (const rel of [REL.dataplugins, REL.availableDataplugins, REL.publishDiscovery]) expect(hasLink(workspace, rel), rel).toBe(true);
    const member = (await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`)).body;
    for (const rel of [REL.dataplugins, REL.availableDataplugins, REL.publishDiscovery]) expect(hasLink(member, rel), rel).toBe(false);
    for (const rel of [REL.dataplugins, REL.availableDataplugins]) {
      expectError(await world.member.api.get(linkOf(workspace, rel)), 403);
      expectError(await world.outsider.api.get(linkOf(workspace, rel)), 404);
    }
  });

  it('lists the built-ins as installed (runnable here, not removable) and the Meltano plugins as available (runnable by Meltano from their pip_url)', async () => {
    const installed = await owner.get(`${linkOf(workspace, REL.dataplugins)}?sort=label&size=9999`);
    expect(dataPluginsCollectionSchema.safeParse(installed.body).success).toBe(true);
    expect(ids(installed)).toEqual(expect.arrayContaining(['extractors/tap-demo--builtin', 'extractors/tap-files--builtin', 'extractors/tap-postgres--builtin', 'loaders/target-store--builtin']));
    for (const plugin of plugins(installed)) {
      expect(plugin).toMatchObject({ runnable: true, installed: true, canDelete: false, pipUrl: null });
      expect(plugin._links[REL.addDataplugin]).toBeUndefined();
      expect(plugin._links[REL.deleteDataplugin]).toBeUndefined();
    }
    const available = await owner.get(`${linkOf(workspace, REL.availableDataplugins)}?sort=label&size=20`);
    const expected = ['tap-github', 'tap-google-analytics', 'tap-google-sheets', 'tap-salesforce', 'tap-postgres', 'tap-csv', 'target-postgres', 'target-snowflake', 'target-bigquery', 'dbt-postgres'];
    expect(plugins(available).map((p) => String(p.name)).sort()).toEqual([...expected].sort());
    expect(available.body.page.totalElements).toBe(expected.length);
    const labels = plugins(available).map((p) => String(p.label).toLowerCase());
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
    for (const plugin of plugins(available)) {
      expect(plugin).toMatchObject({ runnable: true, installed: false, canDelete: false, pipUrl: expect.any(String) });
      expect(plugin._links[REL.addDataplugin].href).toBe(plugin._links.self.href);
    }
    const github = plugins(available).find((p) => p.name === 'tap-github')!;
    expect(github).toMatchObject({ id: 'extractors/tap-github--meltanolabs', variant: 'meltanolabs', pluginType: 'EXTRACTOR', label: 'GitHub' });
    expect(github.fullDescription).toBe('Code hosting platform\n\nDocumentation: https://hub.meltano.com/extractors/tap-github--meltanolabs');
    expect((github.settings as Body[]).find((s) => s.name === 'auth_token')).toMatchObject({ kind: 'PASSWORD', sensitive: true });
    expect((github.settings as Body[]).find((s) => s.name === 'stream_options.milestones.state')).toMatchObject({ kind: 'OPTIONS', value: 'open' });
  });

  it('pages, filters by type and searches by name', async () => {
    const href = linkOf(workspace, REL.availableDataplugins);
    const first = await owner.get(`${href}?sort=label&size=3&page=0`);
    expect(plugins(first)).toHaveLength(3);
    expect(first.body.page).toMatchObject({ size: 3, totalElements: 10, totalPages: 4, number: 0 });
    const last = await owner.get(`${href}?sort=label&size=3&page=3`);
    expect(plugins(last)).toHaveLength(1);
    expect(ids(await owner.get(`${href}?type=LOADER`)).sort()).toEqual(['loaders/target-bigquery--z3z1ma', 'loaders/target-postgres--meltanolabs', 'loaders/target-snowflake--meltanolabs']);
    expect(ids(await owner.get(`${href}?name=GOOGLE`)).sort()).toEqual(['extractors/tap-google-analytics--meltanolabs', 'extractors/tap-google-sheets--matatika', 'loaders/target-bigquery--z3z1ma']);
    expect(plugins(await owner.get(`${href}?name=no-such-plugin`))).toEqual([]);
    expectError(await owner.get(`${href}?type=ROBOT`), 400, { type: /EXTRACTOR/ });
    expectError(await owner.get(`${href}?sort=secret`), 400, { sort: /cannot sort/ });
  });
});

describe('installing and removing', () => {
  it("installs by 'add dataplugin', then offers 'delete dataplugin' until a component uses it", async () => {
    const available = await owner.get(`${linkOf(workspace, REL.availableDataplugins)}?name=tap-csv`);
    const csv = plugins(available)[0]!;
    // Neither a member nor another workspace's admin may install it.
    expectError(await world.member.api.call('PUT', linkOf(csv, REL.addDataplugin)), 403);
    expectError(await world.outsider.api.call('PUT', linkOf(csv, REL.addDataplugin)), 404);

    const added = await owner.call('PUT', linkOf(csv, REL.addDataplugin));
    expect(added.status).toBe(200);
    expect(dataPluginSchema.safeParse(added.body).success).toBe(true);
    expect(added.body).toMatchObject({ id: 'extractors/tap-csv--meltanolabs', installed: true, canDelete: true });
    expect(hasLink(added.body, REL.addDataplugin)).toBe(false);
    expect(ids(await owner.get(`${linkOf(workspace, REL.dataplugins)}?size=9999`))).toContain('extractors/tap-csv--meltanolabs');
    expect(ids(await owner.get(`${linkOf(workspace, REL.availableDataplugins)}?size=9999`))).not.toContain('extractors/tap-csv--meltanolabs');
    // Installed once: a second install is not offered.
    expectError(await owner.call('PUT', linkOf(csv, REL.addDataplugin)), 403);

    // A component made from it keeps it installed.
    const component = await owner.call('POST', linkOf(workspace, REL.createDatacomponent), { name: 'sales-csv', dataPlugin: 'extractors/tap-csv--meltanolabs', properties: { add_metadata_columns: true } });
    expect(component.status).toBe(201);
    expect(component.body._embedded.dataplugin).toMatchObject({ id: 'extractors/tap-csv--meltanolabs', runnable: true });
    const used = await owner.get(linkOf(added.body, REL.self));
    expect(used.body).toMatchObject({ installed: true, canDelete: false });
    expect(hasLink(used.body, REL.deleteDataplugin)).toBe(false);
    expectError(await owner.call('DELETE', linkOf(added.body, REL.self)), 403);
  });

  it('removes an unused installed plugin (204), which is then available again', async () => {
    const snowflake = plugins(await owner.get(`${linkOf(workspace, REL.availableDataplugins)}?name=snowflake`))[0]!;
    const added = await owner.call('PUT', linkOf(snowflake, REL.addDataplugin));
    expectError(await world.member.api.call('DELETE', linkOf(added.body, REL.deleteDataplugin)), 403);
    expectError(await world.outsider.api.call('DELETE', linkOf(added.body, REL.deleteDataplugin)), 404);
    const removed = await owner.call('DELETE', linkOf(added.body, REL.deleteDataplugin));
    expect(removed.status).toBe(204);
    expect(ids(await owner.get(`${linkOf(workspace, REL.availableDataplugins)}?size=9999`))).toContain('loaders/target-snowflake--meltanolabs');
  });

  it('refuses a built-in plugin removal and names unknown plugins 404', async () => {
    const demo = await owner.get(`/api/workspaces/${DEMO.workspaceId}/dataplugins/extractors/tap-demo--builtin`);
    expect(demo.status).toBe(200);
    expect(hasLink(demo.body, REL.deleteDataplugin)).toBe(false);
    expectError(await owner.call('DELETE', `/api/workspaces/${DEMO.workspaceId}/dataplugins/extractors/tap-demo--builtin`), 403);
    expectError(await owner.get(`/api/workspaces/${DEMO.workspaceId}/dataplugins/extractors/tap-nothing--x`), 404);
    expectError(await owner.get(`/api/workspaces/${DEMO.workspaceId}/dataplugins/robots/tap-demo--builtin`), 404);
    expectError(await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}/dataplugins/extractors/tap-demo--builtin`), 404);
  });

  it('lets a pipeline use an installed catalogue plugin, and refuses one that is not installed', async () => {
    const draft = await owner.call('POST', linkOf(workspace, REL.newPipeline));
    const refused = await owner.call('PUT', linkOf(draft.body, REL.draftPipeline), { name: 'GitHub issues', dataComponents: ['extractors/tap-github--meltanolabs', 'loaders/target-store'] });
    expectError(refused, 400, { 'dataComponents.0': /catalogue/ });
    const github = plugins(await owner.get(`${linkOf(workspace, REL.availableDataplugins)}?name=tap-github`))[0]!;
    expect((await owner.call('PUT', linkOf(github, REL.addDataplugin))).status).toBe(200);
    const saved = await owner.call('PUT', linkOf(draft.body, REL.draftPipeline), { name: 'GitHub issues', dataComponents: ['extractors/tap-github--meltanolabs', 'loaders/target-store'] });
    expect(saved.status).toBe(201);
    const embeddedPlugin = saved.body._embedded.dataComponents[0]._embedded.dataplugin;
    expect(embeddedPlugin).toMatchObject({ name: 'tap-github', variant: 'meltanolabs', runnable: true });
    // The built-in tap-postgres and the Meltano one are different plugins of one name.
    const builtin = await owner.get(`/api/workspaces/${DEMO.workspaceId}/dataplugins/extractors/tap-postgres--builtin`);
    const meltano = await owner.get(`/api/workspaces/${DEMO.workspaceId}/dataplugins/extractors/tap-postgres--meltanolabs`);
    expect(builtin.body).toMatchObject({ runnable: true, installed: true });
    expect(meltano.body).toMatchObject({ runnable: true, installed: false });
  });
});

describe('publish discovery.yml', () => {
  it('publishes the plugins of a discovery.yml as custom plugins (201), each variant its own', async () => {
    const href = linkOf(workspace, REL.publishDiscovery);
    const answer = await publish(world.owner.token, href, CUSTOM_YAML);
    expect(answer.status).toBe(201);
    const published = plugins(answer);
    expect(published.map((p) => String(p.id))).toEqual(['extractors/tap-acme--acme', 'loaders/target-acme--one', 'loaders/target-acme--two']);
    for (const plugin of published) expect(plugin).toMatchObject({ custom: true, installed: true, canDelete: true, runnable: false });
    const acme = published[0]!;
    expect(acme.fullDescription).toBe('Accounts and deals from Acme.\n\nDocumentation: https://hub.meltano.com/extractors/tap-acme');
    expect(acme.settings[0]).toMatchObject({ name: 'api_key', kind: 'PASSWORD', sensitive: true });
    // Meltano's value_processor, shown in the spec's words; a setting without one has none
    expect((acme.settings as Body[]).map((s) => (s.value_processor as string | undefined) ?? null)).toEqual([null, 'UPCASE_STRING', null]);
    // and the spec's encoding: the Lab reads an upload for this setting as base64
    expect((acme.settings as Body[]).map((s) => (s.encoding as string | undefined) ?? null)).toEqual([null, null, 'BASE64']);
    // An untrusted documentation host is not linked.
    expect(published[1]!.fullDescription).toBe('');
    expect(ids(await owner.get(`${linkOf(workspace, REL.dataplugins)}?size=9999`))).toEqual(expect.arrayContaining(['extractors/tap-acme--acme', 'loaders/target-acme--two']));
    // Publishing again replaces the definitions.
    const again = await publish(world.owner.token, href, CUSTOM_YAML.replace('Acme CRM', 'Acme'));
    expect(again.status).toBe(201);
    expect(plugins(again)[0]!.label).toBe('Acme');
    const removed = await owner.call('DELETE', linkOf(plugins(again)[2], REL.deleteDataplugin));
    expect(removed.status).toBe(204);
  });

  it('answers 204 when the document defines no plugin', async () => {
    const href = linkOf(workspace, REL.publishDiscovery);
    expect((await publish(world.owner.token, href, 'version: 22\n')).status).toBe(204);
    expect((await publish(world.owner.token, href, 'extractors: []\n')).status).toBe(204);
    expect((await publish(world.owner.token, href, '')).status).toBe(204);
  });

  it('refuses wrong types with one error per field, named by list and index', async () => {
    const href = linkOf(workspace, REL.publishDiscovery);
    const yaml = `
extractors:
  - name: tap-ok
  - name: tap-bad
    settings:
      - name: a
        kind: robot
      - kind: string
      - name: c
        options: yes
      - name: d
        value_processor: shout
loaders: nope
`;
    const answer = await publish(world.owner.token, href, yaml);
    expectError(answer, 400);
    const lines = (answer.body.errors as Body[]).map((e) => `${e.objectName}.${e.field} - ${e.defaultMessage}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^extractors\[1\]\.settings\[0\]\.kind - must be one of /),
        'extractors[1].settings[1].name - is required',
        'extractors[1].settings[2].options - must be a list',
        'extractors[1].settings[3].value_processor - must be one of upcase_string, nest_object, stringify',
        'discovery.loaders - must be a list of plugins',
      ]),
    );
    expect(ids(await owner.get(`${linkOf(workspace, REL.dataplugins)}?size=9999`))).not.toContain('extractors/tap-ok');
  });

  it("refuses a plugin whose name or a setting's env would reach the system's variables (issue 36)", async () => {
    const href = linkOf(workspace, REL.publishDiscovery);
    const yaml = `
extractors:
  - name: ld
  - name: tap-hook
    settings:
      - name: preload
        env: LD_PRELOAD
      - name: startup
        env: PYTHONSTARTUP
      - name: token
        env: TAP_HOOK_TOKEN
`;
    const answer = await publish(world.owner.token, href, yaml);
    expectError(answer, 400);
    const lines = (answer.body.errors as Body[]).map((e) => `${e.objectName}.${e.field} - ${e.defaultMessage}`);
    expect(lines).toEqual([
      expect.stringMatching(/^extractors\[0\]\.name - cannot be used: its settings would become LD_… variables/),
      'extractors[1].settings[0].env - cannot be LD_PRELOAD: a namespace the system reads',
      'extractors[1].settings[1].env - cannot be PYTHONSTARTUP: a namespace the system reads',
    ]);
    expect(ids(await owner.get(`${linkOf(workspace, REL.dataplugins)}?size=9999`)).filter((id) => /\/(ld|tap-hook)/.test(id))).toEqual([]);
  });

  it('refuses hostile documents with a 400 and stays up', async () => {
    const href = linkOf(workspace, REL.publishDiscovery);
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [i, name] of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].entries()) {
      const previous = String.fromCharCode('a'.charCodeAt(0) + i);
      laughs.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const hostile: [string, string, RegExp][] = [
      ['billion laughs', laughs.join('\n'), /aliases/],
      ['10,000 nested lists', `extractors: ${'['.repeat(10_000)}${']'.repeat(10_000)}`, /nest/],
      ['1,000 nested maps', Array.from({ length: 1_000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n'), /nest/],
      ['5 MB', `extractors:\n${'  - name: tap-x\n    description: '.concat('x'.repeat(1000), '\n').repeat(5_000)}`, /KB/],
      ['not YAML', '{ extractors: [ name: "unterminated', /YAML/],
      ['a bare scalar', 'just some words', /map of plugin lists/],
      ['a list', '- extractors\n- loaders', /map of plugin lists/],
      ['duplicate keys', 'extractors: []\nextractors: []', /YAML/],
      ['a tag', 'extractors: !!js/function "function () { return 1 }"', /YAML|list/],
    ];
    for (const [what, text, message] of hostile) {
      const answer = await publish(world.owner.token, href, text);
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)?.slice(0, 200)}`).toBe(400);
      expectError(answer, 400);
      expect((answer.body.errors as Body[]).map((e) => String(e.defaultMessage)).join(' | '), what).toMatch(message);
    }
    // A JSON body is not a discovery.yml upload.
    expectError(await owner.call('POST', href, { extractors: [] }), 400, { document: /text\/x-yaml/ });
    // The server still answers.
    expect((await owner.get(linkOf(workspace, REL.dataplugins))).status).toBe(200);
  });

  it('refuses to replace a built-in plugin', async () => {
    const answer = await publish(world.owner.token, linkOf(workspace, REL.publishDiscovery), 'extractors:\n  - name: tap-demo\n    variant: builtin\n');
    expectError(answer, 400, { name: /built-in/ });
  });

  it('refuses a member and another workspace admin (403), who may publish to their own workspace', async () => {
    const href = linkOf(workspace, REL.publishDiscovery);
    expectError(await publish(world.member.token, href, CUSTOM_YAML), 403);
    expectError(await publish(world.outsider.token, href, CUSTOM_YAML), 404);
    const own = await publish(world.outsider.token, `${world.baseUrl}/api/workspaces/${outsiderWorkspaceId}/discovery.yml`, CUSTOM_YAML);
    expect(own.status).toBe(201);
    // What one workspace publishes is its own.
    expect(ids(await world.outsider.api.get(`/api/workspaces/${outsiderWorkspaceId}/dataplugins?size=9999`))).toContain('extractors/tap-acme--acme');
  });
});
