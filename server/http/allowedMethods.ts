// RFC 9110 §15.5.6: a request whose path the server serves, but not with this method, is a 405
// listing the methods it does serve in `Allow` — not a 404, which tells a client the path is wrong.
// Fastify answers both with its not-found handler, so the route table decides here which it was.

/** A route pattern as Fastify takes it: literal segments, `:param` segments and a final `*`. */
interface RoutePattern {
  method: string;
  url: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The pattern as a regular expression over a request path (without its query). */
export function patternToRegExp(url: string): RegExp {
  const body = url
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : escape(segment)))
    .join('/');
  // routerOptions.ignoreTrailingSlash: '/a/' is '/a'
  return new RegExp(`^${body}/?$`);
}

/**
 * Builds the lookup once from the registered routes: the methods served at a path, in a stable
 * order, HEAD wherever GET is (Fastify serves it), empty when no route matches the path at all.
 */
export function allowedMethodsOf(routes: readonly RoutePattern[]): (pathname: string) => string[] {
  const byPattern = new Map<string, Set<string>>();
  for (const { method, url } of routes) {
    const methods = byPattern.get(url) ?? new Set<string>();
    methods.add(method.toUpperCase());
    if (method.toUpperCase() === 'GET') methods.add('HEAD');
    byPattern.set(url, methods);
  }
  const matchers = [...byPattern].map(([url, methods]) => ({ test: patternToRegExp(url), methods }));
  return (pathname) => {
    const allowed = new Set<string>();
    for (const { test, methods } of matchers) if (test.test(pathname)) for (const m of methods) allowed.add(m);
    return [...allowed].sort();
  };
}
