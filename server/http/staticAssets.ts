import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import path from 'node:path';

// The built SPA on the wire. Vite names every file under /assets/ by its content hash, so those are
// cached for a year without revalidation; index.html (and the history fallback, which is
// index.html) names the current hashes, so it is revalidated on every load; the few unhashed files
// of dist's root (favicon, manifest, images) change rarely and are cached for a day. The service
// worker is revalidated too, so a new deployment's worker is found on the next load.
// Brotli and gzip copies are made at build time (scripts/precompressAssets.ts); @fastify/static
// picks one by Accept-Encoding, answers with its Content-Encoding and Content-Length, the original
// file's Content-Type and `Vary: Accept-Encoding`, and falls back to the plain file.

const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
const CACHE_REVALIDATE = 'no-cache';
const CACHE_MODEST = 'public, max-age=86400';

/** `assets/<name>-<8-character hash>.<ext>` (and `.js.map`), as Vite names its output. */
const HASHED_ASSET = /^assets\/.+-[A-Za-z0-9_-]{8}\.[A-Za-z0-9.]+$/;
const REVALIDATED = new Set(['index.html', 'service-worker.js']);
const PRECOMPRESSED = /\.(?:br|gz)$/;
/** Headers `send` writes that an immutable hashed file has no use for. */
const IMMUTABLE_LEFT_OUT = ['etag', 'last-modified', 'accept-ranges'];

/** The Cache-Control of a file of the built SPA, by its path relative to the static root. */
function cacheControlFor(relativePath: string): string {
  const file = relativePath.split(path.sep).join('/').replace(PRECOMPRESSED, '');
  if (HASHED_ASSET.test(file)) return CACHE_IMMUTABLE;
  if (REVALIDATED.has(file)) return CACHE_REVALIDATE;
  return CACHE_MODEST;
}

/**
 * Serves every file of `root` for GET and HEAD, each with its cache policy, through one wildcard
 * route: a route per file (a thousand GET and HEAD routes for the build's files) cost a tenth of a
 * second of every start to list and route. A path that is no file goes on to the not-found handler
 * (the history fallback, app.ts). The `.br` and `.gz` copies are only ever chosen by negotiation
 * for the file they compress: asked for by name, they are not found.
 */
export async function registerStaticAssets(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    // the app's root is its index.html; a folder without one goes on to the history fallback
    index: 'index.html',
    preCompressed: true,
    allowedPath: (pathname) => !PRECOMPRESSED.test(pathname),
    // Cache-Control is set per file below; send's own header would say the same for every file.
    cacheControl: false,
    setHeaders: (reply: FastifyReply, filePath: string) => {
      const cacheControl = cacheControlFor(path.relative(root, filePath));
      reply.header('cache-control', cacheControl);
      // An immutable file is never revalidated and a script is never fetched by ranges: its
      // validators and Accept-Ranges would only add ~100 bytes to each of the dozens of files a
      // page loads (issue 39). index.html and the rest keep them for their revalidation.
      if (cacheControl === CACHE_IMMUTABLE) for (const name of IMMUTABLE_LEFT_OUT) reply.removeHeader(name);
    },
  });
}
