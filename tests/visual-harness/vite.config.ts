import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

// A build of the visualisation gallery only (screenshots at 1280 and 375 px, and a check that every
// heavy renderer is its own chunk). Not part of the product build.
const here = fileURLToPath(new URL('.', import.meta.url));

const harnessRuntime: Plugin = {
  name: 'harness-runtime',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === '../../../runtime' && importer?.includes('/visualisations/')) return `${here}runtime.ts`;
    return null;
  },
};

export default defineConfig({
  root: here,
  base: './',
  plugins: [harnessRuntime],
  build: { outDir: process.env.HARNESS_OUT ?? '/tmp/visual-harness', emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  oxc: { jsx: { runtime: 'automatic' } },
});
