import { expect } from '@playwright/test';
import { REL } from '../../src/domain/relations';
import { DEMO as SEED } from '../../server/seed';
import { apiCall, baseUrl, DEMO, linkOf, type Resource } from './support';

// Datasets for the dataset-page tests, published through the API as the demo owner (the
// Matatika reference's POST 'publish dataset'), each with a unique alias so tests never share state.

export const WORKSPACE_ID = SEED.workspaceId;

export async function ownerToken(): Promise<string> {
  const { signIn: signInByHttp } = await import('../support/auth');
  return (await signInByHttp(baseUrl(), DEMO.owner)).accessToken;
}

export const uniqueAlias = (prefix: string): string => `e2e/${prefix}-${String(Date.now())}-${String(Math.floor(Math.random() * 1e6))}`;

export const REVENUE_METADATA = JSON.stringify({
  name: 'revenue',
  label: 'Revenue',
  related_table: {
    columns: [{ name: 'month', label: 'Month', description: 'Calendar month' }],
    aggregates: [{ name: 'revenue', label: 'Revenue (GBP)', description: 'Invoiced revenue' }],
  },
});

export const REVENUE_ROWS = [
  { 'revenue.month': '2024-01', 'revenue.revenue': 120500 },
  { 'revenue.month': '2024-02', 'revenue.revenue': 118200 },
  { 'revenue.month': '2024-03', 'revenue.revenue': 131900 },
  { 'revenue.month': '2024-04', 'revenue.revenue': 140250 },
];

export async function publishDataset(body: Record<string, unknown>): Promise<Resource & { alias: string }> {
  const token = await ownerToken();
  const workspace = await apiCall(token, 'GET', `/api/workspaces/${WORKSPACE_ID}`);
  const published = await apiCall(token, 'POST', linkOf(workspace.body, REL.publishDataset), body);
  expect([200, 201], JSON.stringify(published.body)).toContain(published.status);
  return published.body as Resource & { alias: string };
}

export const datasetPath = (alias: string): string => `/l/${WORKSPACE_ID}/dataset/${alias}`;

/** Merges app properties into the demo workspace as its owner (the workspace API the settings page uses). */
export async function setAppProperties(properties: Record<string, string>) {
  const token = await ownerToken();
  const workspace = await apiCall(token, 'GET', `/api/workspaces/${WORKSPACE_ID}`);
  const current = (workspace.body as unknown as { appProperties?: Record<string, string> }).appProperties ?? {};
  const saved = await apiCall(token, 'PUT', linkOf(workspace.body, REL.updateDeleteWorkspace), { name: workspace.body.name, appProperties: { ...current, ...properties } });
  expect(saved.status).toBe(200);
}
