import { expect, test } from './fixtures';
import { publishDataset, uniqueAlias, WORKSPACE_ID } from './datasetSupport';
import { DEMO, screenshot, signIn } from './support';

// Explore and the feed (spec 002 Explore, Feed; issue 11) against the real server and its search.

const explore = (search?: string) => `/l/${WORKSPACE_ID}/explore${search === undefined ? '' : `?search=${encodeURIComponent(`"${search}"`)}`}`;

test('explore: a typo finds the dataset and says why; views; chips; screenshots at 1280 and 375', async ({ page }) => {
  await publishDataset({ alias: uniqueAlias('explore'), title: 'Zeppelin Arrivals', description: 'Airships landed per week.', tags: ['airships'] });
  await signIn(page, DEMO.member, explore('zepelin arivals'));
  await expect(page.getByRole('heading', { level: 1, name: 'Explore' })).toBeVisible();
  const card = page.getByRole('article', { name: 'Zeppelin Arrivals' });
  await expect(card).toBeVisible();
  await expect(card.getByRole('list', { name: 'Why it matched' })).toContainText('close to “zeppelin”, 1 edit');
  await expect(card.locator('mark').first()).toHaveText('Zeppelin');
  // The wording for up to 1000 ms is the feed machine's unit test; a loaded machine may take longer.
  await expect(page.getByRole('status').filter({ hasText: /result.* in (less than one second|\d+ seconds?)$/ })).toBeVisible();

  // the view is remembered per workspace
  await page.getByRole('tab', { name: 'List' }).click();
  await expect(page.getByRole('list', { name: 'Datasets' })).toHaveAttribute('data-view-mode', 'listView');
  await page.reload();
  await expect(page.getByRole('tab', { name: 'List' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Grid' }).click();
  await expect(page.getByRole('list', { name: 'Datasets' })).toHaveAttribute('data-view-mode', 'gridview');
  await screenshot(page, 'explore-search-1280');

  // a chip selects its tag; clicking it again clears the search
  await page.goto(explore());
  const chips = page.getByRole('navigation', { name: 'Tags' });
  await expect(chips.getByRole('button').filter({ hasText: '#' })).toHaveCount(6);
  await screenshot(page, 'explore-1280');
  const first = chips.getByRole('button').filter({ hasText: '#' }).first();
  const name = (await first.textContent())?.replace('#', '') ?? '';
  await first.click();
  await expect(page).toHaveURL(new RegExp(`search=%22tag%3A${encodeURIComponent(name.toLowerCase().replace(/\s+/g, '-'))}%22`));
  await chips.getByRole('button', { name: `#${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/l/${WORKSPACE_ID}/explore$`));

  // a phone: one chip per slide, no grid (shown as large cards)
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(explore('zepelin'));
  await expect(page.getByRole('article', { name: 'Zeppelin Arrivals' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Grid' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Datasets' })).toHaveAttribute('data-view-mode', 'largCardView');
  await expect(chips.getByRole('button').filter({ hasText: '#' })).toHaveCount(1);
  await screenshot(page, 'explore-search-375');
});

test('explore: nothing found says so; an admin is offered Import more data, a member to refine', async ({ page }) => {
  await signIn(page, DEMO.member, explore('qqqqzzzz'));
  await expect(page.getByText('There were no datasets matching your query.')).toBeVisible();
  await expect(page.getByText('Please refine your search.')).toBeVisible();
  await expect(page.getByText('Import more data')).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 812 });
  await screenshot(page, 'explore-empty-375');
});

test('explore: the admin sees Import more data, to the pipelines', async ({ page }) => {
  await signIn(page, DEMO.owner, explore('qqqqzzzz'));
  await page.getByText('Import more data').click();
  await expect(page).toHaveURL(new RegExp(`/lab/${WORKSPACE_ID}/pipelines`));
});

test('feed: its own search form searches the feed; load more; screenshots at 1280 and 375', async ({ page }) => {
  await signIn(page, DEMO.member, `/l/${WORKSPACE_ID}/feed`);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Datasets' });
  await expect(list.getByRole('article')).toHaveCount(10);
  await page.getByRole('button', { name: 'Load More' }).click();
  await expect.poll(() => list.getByRole('article').count()).toBeGreaterThan(10);
  await screenshot(page, 'feed-1280');
  await page.getByRole('searchbox', { name: 'Search datasets' }).fill('revnue');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/l/${WORKSPACE_ID}/feed\\?search=%22revnue%22`));
  await expect(page.getByRole('article').first().getByRole('list', { name: 'Why it matched' })).toContainText('revenue');
  await page.setViewportSize({ width: 375, height: 812 });
  await screenshot(page, 'feed-search-375');
});

test('explore: Large cards draw their visualisation once in view, one data read each; List stays text; screenshots at 1280 and 375', async ({ page }) => {
  // every read of a dataset's rows, and the dataset it was for
  const reads: string[] = [];
  page.on('request', (request) => {
    const match = /\/api\/datasets\/([^/]+)\/data(?:\?|$)/.exec(new URL(request.url()).pathname);
    if (match) reads.push(match[1]!);
  });
  await signIn(page, DEMO.member, explore());
  await page.getByRole('tab', { name: 'Large' }).click();
  const list = page.getByRole('list', { name: 'Datasets' });
  await expect(list).toHaveAttribute('data-view-mode', 'largCardView');
  // the first dataset with a visualisation (datasets other tests publish may have none)
  const drawing = list.getByRole('figure', { name: /^Visualisation of / }).first();
  await expect(drawing.locator('canvas, table').first()).toBeVisible();
  // the cards further down have not been read (only those near the viewport)
  const cards = await list.getByRole('article').count();
  const waiting = await list.locator('[data-card-visual="waiting"]').count();
  expect(waiting).toBeGreaterThan(0);
  const shown = await list.locator('[data-card-visual="shown"]').count();
  expect(new Set(reads).size).toBe(reads.length);
  expect(reads.length).toBeLessThanOrEqual(shown);
  expect(shown).toBeLessThan(cards);
  await screenshot(page, 'explore-large-1280');

  // List is text only
  await page.getByRole('tab', { name: 'List' }).click();
  await expect(list).toHaveAttribute('data-view-mode', 'listView');
  await expect(list.getByRole('figure')).toHaveCount(0);

  // a phone: large cards (the remembered List is switched back), drawn at the phone's width
  await page.getByRole('tab', { name: 'Large' }).click();
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(list).toHaveAttribute('data-view-mode', 'largCardView');
  await expect(list.getByRole('figure', { name: /^Visualisation of / }).first().locator('canvas, table').first()).toBeVisible();
  await screenshot(page, 'explore-large-375');
});
