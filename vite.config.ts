import { defineConfig } from 'vite';

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
  },
  oxc: { jsx: { runtime: 'automatic' } },
  server: { port: 5173, proxy: { '/api': 'http://localhost:8080', '/idp': 'http://localhost:8080', '/config.json': 'http://localhost:8080' } },
});
