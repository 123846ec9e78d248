/**
 * True for an absolute URL on the app's origin whose path lies inside the app's path, with no
 * fragment, credentials, whitespace or control characters (which URL parsers drop or rewrite,
 * so what was checked might not be where a browser goes).
 */
export function isUnderApp(value: string, appUrl: string): boolean {
  if (value.length > 2048 || /[\\\s]/.test(value) || hasControlCharacter(value)) return false;
  const url = URL.parse(value);
  const app = URL.parse(appUrl);
  if (!url || !app) return false;
  if (url.origin !== app.origin || url.username || url.password || value.includes('#')) return false;
  const base = app.pathname.endsWith('/') ? app.pathname : `${app.pathname}/`;
  return url.pathname === app.pathname || url.pathname.startsWith(base);
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
