import { z } from 'zod';

/** The server's /config.json: what this deployment looks like (identity provider, features, texts). */
export const runtimeConfigSchema = z.object({
  appTitle: z.string(),
  apiBaseUrl: z.string(),
  auth: z.object({ domain: z.string(), clientId: z.string(), audience: z.string(), embedded: z.boolean() }),
  disabledFeatures: z.string(),
  disabledFeatureTooltip: z.string(),
  errorReportingUrl: z.string().nullable(),
  traceSampleRate: z.number(),
  placeholderMinimumLoad: z.number(),
  placeholderLoadTimeout: z.number(),
  snackbarTimeout: z.number(),
  manageAccountUrl: z.string(),
  /** Handsontable's licence key; null renders handsontable-table datasets as html-table */
  handsontableLicenseKey: z.string().nullable().default(null),
  /** OAuth connect of data sources: the providers this deployment has a client for (no secrets) */
  /** the third-party lists the setting editors' pickers read */
  pickers: z
    .object({ driveFilesUrl: z.string(), analyticsProfilesUrl: z.string(), adsCustomersUrl: z.string() })
    .default({ driveFilesUrl: 'https://www.googleapis.com/drive/v3/files', analyticsProfilesUrl: '', adsCustomersUrl: '' }),
  oauth: z.record(z.string(), z.object({ clientId: z.string(), authorizationUrls: z.array(z.string()) })).default({}),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Could not load /config.json (${response.status})`);
  return runtimeConfigSchema.parse(await response.json());
}
