/**
 * The shell command that trades a new key for an access token (client-credentials grant), shown
 * once beside the secret. An identity-provider domain configured without a scheme (Auth0's
 * 'tenant.eu.auth0.com') is reached over https, as the sign-in SDK does.
 */
export function tokenRequestExample({
  domain,
  audience,
  clientId,
  clientSecret,
}: {
  domain: string;
  audience: string;
  clientId: string;
  clientSecret: string;
}): string {
  const base = (/^https?:\/\//i.test(domain) ? domain : `https://${domain}`).replace(/\/+$/, '');
  return [
    `curl -X POST ${base}/oauth/token \\`,
    '  -d grant_type=client_credentials \\',
    `  -d client_id=${clientId} \\`,
    `  -d client_secret=${clientSecret} \\`,
    `  -d audience=${audience}`,
  ].join('\n');
}
