import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

// Every text asset of the built SPA is written beside itself as `<file>.br` and `<file>.gz`, once,
// at build time, at the highest levels (brotli 11, gzip 9): the server then only picks a file by
// Accept-Encoding (@fastify/static's preCompressed) and never compresses per request.

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Formats that compress; images other than SVG, fonts (woff2) and archives are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|wasm|ico)$/i;
/** Below this a compressed copy saves less than its own response headers cost. */
const MIN_BYTES = 256;
/** Compressions at once: zlib runs them on libuv's thread pool (four threads by default). */
const PARALLEL = 4;

interface PrecompressResult {
  files: number;
  raw: number;
  br: number;
  gzip: number;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * Writes `.br` and `.gz` beside every compressible file of `dir` (source maps excluded: only an open
 * devtools fetches them). A copy that would not be smaller is not written, so the server falls back
 * to the next encoding or the file itself.
 */
export async function precompressDirectory(dir: string): Promise<PrecompressResult> {
  const files = (await listFiles(dir)).filter((file) => COMPRESSIBLE.test(file) && !file.endsWith('.map'));
  const result: PrecompressResult = { files: 0, raw: 0, br: 0, gzip: 0 };
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      const raw = await fs.readFile(file);
      if (raw.length < MIN_BYTES) continue;
      const [br, gz] = await Promise.all([
        brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
        gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      result.files += 1;
      result.raw += raw.length;
      if (br.length < raw.length) {
        await fs.writeFile(`${file}.br`, br);
        result.br += br.length;
      }
      if (gz.length < raw.length) {
        await fs.writeFile(`${file}.gz`, gz);
        result.gzip += gz.length;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return result;
}

/** The build step: after Vite has written dist/ (public files included), compress what it wrote. */
export function precompressAssets(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'precompress-assets',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const started = Date.now();
      const r = await precompressDirectory(outDir);
      const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
      config.logger.info(`precompressed ${r.files} files in ${Date.now() - started} ms: ${kb(r.raw)} raw, ${kb(r.br)} br, ${kb(r.gzip)} gzip`);
    },
  };
}
