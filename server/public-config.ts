import type { Config } from './config';

/**
 * What the SPA needs to know at run time, served at /config.json so one build works with any
 * identity provider and feature set. Nothing secret goes here.
 */
export function publicConfig(config: Config) {
  const { env, auth } = config;
  return {
    appTitle: env.APP_TITLE,
    apiBaseUrl: `${config.publicUrl}/api`,
    auth: { domain: auth.domain, clientId: auth.clientId, audience: auth.audience, embedded: auth.embedded },
    disabledFeatures: env.DISABLED_FEATURES,
    disabledFeatureTooltip: env.DISABLED_FEATURE_TOOLTIP,
    errorReportingUrl: env.ERROR_REPORTING_URL ?? null,
    traceSampleRate: env.TRACE_SAMPLE_RATE,
    placeholderMinimumLoad: env.APP_PLACEHOLDER_MINIMUM_LOAD,
    placeholderLoadTimeout: env.APP_PLACEHOLDER_LOAD_TIMEOUT,
    snackbarTimeout: env.APP_SNACKBAR_TIMEOUT,
    manageAccountUrl: env.MANAGE_ACCOUNT_URL,
    // not a secret: Handsontable checks its key in the browser
    handsontableLicenseKey: env.HANDSONTABLE_LICENSE_KEY?.trim() || null,
    // OAuth connect: a provider's client id and extra authorization urls are public; its secret is not
    pickers: { driveFilesUrl: env.PICKER_DRIVE_FILES_URL, analyticsProfilesUrl: env.PICKER_ANALYTICS_PROFILES_URL, adsCustomersUrl: env.PICKER_ADS_CUSTOMERS_URL },
    oauth: Object.fromEntries(Object.entries(config.oauth).map(([provider, client]) => [provider, { clientId: client.clientId, authorizationUrls: client.authorizationUrls }])),
  };
}
