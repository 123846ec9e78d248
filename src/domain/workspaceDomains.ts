// Approved domains of a workspace (spec 001 §5): people type them with or without '@'; they are
// stored without it, lower-case, and only addresses of those domains may be invited.

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const MAX_DOMAIN = 253;

/** The stored form of a typed domain ('@Company.co.uk ' → 'company.co.uk'), or undefined when it is no host name. */
export function normaliseDomain(text: string): string | undefined {
  const domain = text.trim().replace(/^@+/, '').toLowerCase();
  if (domain === '' || domain.length > MAX_DOMAIN) return undefined;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => HOST_LABEL.test(label))) return undefined;
  return domain;
}

/** The domain part of an address, lower-case. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase();
}

/** True when the workspace admits anyone (no domains) or the address belongs to one of its domains. */
export function isEmailInDomains(email: string, domains: readonly string[]): boolean {
  const approved = domains.map((d) => normaliseDomain(d)).filter((d): d is string => d !== undefined);
  return approved.length === 0 || approved.includes(emailDomain(email));
}
