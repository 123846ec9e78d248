import { expect, test, type Page } from './fixtures';
import { REL } from '../../src/domain/relations';
import { DEMO as SEED } from '../../server/seed';
import { DEMO_PIPELINES } from '../../server/seed/pipelines';
import { apiCall as call, baseUrl, DEMO, linkOf, screenshot, signIn, type Resource } from './support';

// The trigger graph on the pipelines list (issue 7) against the real server: the seeded demo pair,
// a hostile name, a two-pipeline cycle and a deploy trigger, drawn by mermaid loaded on opening.



const COMPONENTS = ['extractors/tap-demo', 'loaders/target-store'];

async function createPipeline(token: string, name: string, triggeredBy: string[] = []): Promise<Resource> {
  const workspace = await call(token, 'GET', `/api/workspaces/${SEED.workspaceId}`);
  const draft = await call(token, 'POST', linkOf(workspace.body, REL.newPipeline));
  const created = await call(token, 'PUT', linkOf(draft.body, REL.createPipeline), { name, dataComponents: COMPONENTS, triggeredBy });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** The rendered node of a pipeline, found by the name the panel put on it (never by mermaid text). */
const nodeOf = (page: Page, name: string) => page.getByTestId('trigger-graph').locator(`g.node[data-pipeline-node="${name.replace(/["\\]/g, '\\$&')}"]`);

/** The mermaid id (p0, p1, …) of a drawn pipeline node. */
async function graphIdOf(page: Page, name: string): Promise<string> {
  const domId = (await nodeOf(page, name).getAttribute('id')) ?? '';
  const id = /flowchart-([a-z]+\d*)-\d+$/.exec(domId)?.[1];
  if (id === undefined) throw new Error(`no graph id in '${domId}'`);
  return id;
}

/** True when an arrow runs from one drawn node to another. */
async function hasEdge(page: Page, from: string, to: string): Promise<boolean> {
  const [source, target] = [await graphIdOf(page, from), await graphIdOf(page, to)];
  const ids = await page.getByTestId('trigger-graph').locator('path[data-id]').evaluateAll((paths) => paths.map((path) => path.getAttribute('data-id') ?? ''));
  return ids.some((id) => new RegExp(`^L_${source}_${target}_\\d+$`).test(id));
}

test('the owner opens the trigger graph: the demo pair, hostile names as text, a cycle and deploy; a node filters the list', async ({ page }) => {
  const { signIn: signInByHttp } = await import('../support/auth');
  const token = (await signInByHttp(baseUrl(), DEMO.owner)).accessToken;
  const stamp = String(Date.now());
  const hostile = `E2E <img src=x onerror="window.__pwned=1"> "q"] --> %% ${stamp}`;
  await createPipeline(token, hostile, [DEMO_PIPELINES.sales]);
  const loopA = await createPipeline(token, `E2E loop A ${stamp}`);
  await createPipeline(token, `E2E loop B ${stamp}`, [loopA.name]);
  const updated = await call(token, 'PUT', linkOf(loopA, REL.updatePipeline), { name: loopA.name, dataComponents: COMPONENTS, triggeredBy: [`E2E loop B ${stamp}`, 'deploy'] });
  expect(updated.status, JSON.stringify(updated.body)).toBeLessThan(300);

  const mermaidRequests: string[] = [];
  page.on('request', (request) => {
    if (/mermaid|flowDiagram|dagre/i.test(request.url())) mermaidRequests.push(request.url());
  });
  await signIn(page, DEMO.owner, `/lab/${SEED.workspaceId}/pipelines`);
  await expect(page.getByRole('heading', { name: 'Data Imports' })).toBeVisible();
  const header = page.getByRole('button', { name: 'Trigger graph' });
  await expect(header).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('trigger-graph')).toHaveCount(0);
  expect(mermaidRequests, 'mermaid loads only when the panel opens').toEqual([]);

  await header.click();
  await expect(header).toHaveAttribute('aria-expanded', 'true');
  const sales = nodeOf(page, DEMO_PIPELINES.sales);
  const reference = nodeOf(page, DEMO_PIPELINES.reference);
  await expect(sales).toBeVisible();
  await expect(reference).toBeVisible();
  expect(mermaidRequests.length).toBeGreaterThan(0);
  await expect(sales).toContainText('Daily');
  await expect(reference).toContainText('Manual');
  expect(await hasEdge(page, DEMO_PIPELINES.sales, DEMO_PIPELINES.reference)).toBe(true);

  // The hostile name is text on its node, never markup; the cycle and the deploy source are drawn.
  await expect(nodeOf(page, hostile)).toContainText('<img src=x onerror="window.__pwned=1">');
  await expect(page.getByTestId('trigger-graph').locator('img, script, foreignObject img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await hasEdge(page, DEMO_PIPELINES.sales, hostile)).toBe(true);
  expect(await hasEdge(page, `E2E loop A ${stamp}`, `E2E loop B ${stamp}`)).toBe(true);
  expect(await hasEdge(page, `E2E loop B ${stamp}`, `E2E loop A ${stamp}`)).toBe(true);
  await expect(page.getByTestId('trigger-graph').locator('g.node', { hasText: 'Deploy' })).toBeVisible();
  await screenshot(page, 'lab-trigger-graph-1280');

  // A node filters the list to its pipeline.
  await reference.click();
  await expect(page.getByPlaceholder('Search pipelines...')).toHaveValue(DEMO_PIPELINES.reference);
  await expect(page.locator(`[data-pipeline="${DEMO_PIPELINES.reference}"]`)).toBeVisible();
  await expect(page.locator(`[data-pipeline="${DEMO_PIPELINES.sales}"]`)).toHaveCount(0);

  // Open is remembered for the workspace; on a phone the graph runs top to bottom and scrolls.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(nodeOf(page, DEMO_PIPELINES.sales)).toBeAttached();
  await page.getByRole('button', { name: 'Trigger graph' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'lab-trigger-graph-375');
  await page.getByRole('button', { name: 'Trigger graph' }).click();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Data Imports' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Trigger graph' })).toHaveAttribute('aria-expanded', 'false');
});
