import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompressAssets } from './scripts/precompressAssets.ts';
import { routeChunkName } from './scripts/routeChunks.ts';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** Fluent UI's shared infrastructure: the packages its components are built on, and their dependencies. */
const FLUENT_CORE = /[\\/]node_modules[\\/](?:@fluentui[\\/]react-(?:utilities|tabster|shared-contexts|context-selector|motion|portal|positioning|aria|field|text|link)|tabster|keyborg|@floating-ui|scheduler)[\\/]/;

// The SPA build. JSX is compiled by Vite's own transformer (no React plugin needed for a build);
// heavy renderers are split into their own chunks by dynamic import where they are used.
export default defineConfig({
  root: '.',
  build: {
    outDir: 'dist',
    sourcemap: true,
    // bench/bundle.ts follows the chunk graph (which renderer a dataset page loads) from it
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // "use client" marks React Server Components boundaries, which mean nothing in a client-only
      // bundle: the bundler drops the directive and warned once per module (about a thousand lines
      // a build). Only that warning goes; every other one still shows.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('"use client"')) return;
        warn(warning);
      },
      output: {
        // What the first route loads anyway (every module the entry imports statically) goes in two
        // chunks, libraries and ours, instead of some thirty: each response carries about 1.4 KB of
        // headers (the security headers), more than many of those chunks' bodies (issue 21). Lazy
        // routes keep their own chunks and share these.
        codeSplitting: {
          groups: [
            { name: 'vendor', tags: ['$initial'], test: /[\\/]node_modules[\\/]/, priority: 2 },
            { name: 'app', tags: ['$initial'], priority: 1 },
            // Fluent's plumbing that every signed-in page uses (focus management, positioning,
            // portals, motion, fields, links, text) in one chunk rather than some twenty of a few
            // hundred bytes each, every one of which cost about half a kilobyte of headers on a
            // member's first page (issue 39). What the first route uses stays in the vendor chunk.
            { name: 'fluent-core', test: FLUENT_CORE, priority: 0 },
            // the feed's code and a card's drawing code each in one chunk, not some thirty small ones (scripts/routeChunks.ts)
            { name: routeChunkName(ROOT, 'src/ui/main.tsx', FLUENT_CORE), debugName: 'route chunks', priority: -1, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
  // brotli and gzip copies of every text asset, served by Accept-Encoding (server/http/staticAssets.ts)
  plugins: [precompressAssets()],
  // Zod without its eval probe, which the Content-Security-Policy would report (src/ui/zodJitless.ts)
  resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/ui/zodJitless.ts', import.meta.url)) }] },
  server: { port: 5173, proxy: { '/api': 'http://localhost:8080', '/idp': 'http://localhost:8080', '/config.json': 'http://localhost:8080' } },
});
