import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../scripts/precompressAssets';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Issue 21, deliverable 1: the built SPA on the wire. A miniature dist/ is compressed by the build's
 * own step, then served by a real server: brotli and gzip by Accept-Encoding with Vary, a year's
 * immutable caching for hashed assets, revalidation of index.html and the history fallback, HEAD
 * wherever GET is, and the API's JSON 404 untouched.
 */

const HASHED_JS = 'assets/index-Ab3_x-9Z.js';
const HASHED_CSS = 'assets/index-Qw12Er34.css';

function miniDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bytes-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  const links = `<script type="module" crossorigin src="/${HASHED_JS}"></script><link rel="stylesheet" href="/${HASHED_CSS}">`;
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><html><head><title>Workspace</title>${links}</head><body>${'<div id="root"></div>\n'.repeat(20)}</body></html>`);
  fs.writeFileSync(path.join(dir, HASHED_JS), Array.from({ length: 400 }, (_, i) => `export const value${i} = ${JSON.stringify(`row ${i % 7}`)};`).join('\n'));
  fs.writeFileSync(path.join(dir, HASHED_CSS), Array.from({ length: 100 }, (_, i) => `.c${i} { color: #483d8b; margin: ${i % 5}px; }`).join('\n'));
  // too small to be worth compressing: served as it is, with the root's modest cache
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw request (fetch would negotiate and decode on its own). */
function request(baseUrl: string, target: string, options: { method?: string; acceptEncoding?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = options.acceptEncoding === undefined ? {} : { 'accept-encoding': options.acceptEncoding };
    const req = http.request(`${baseUrl}${target}`, { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const varies = (answer: Answer) => (answer.headers.vary ?? '').toLowerCase().split(/\s*,\s*/).includes('accept-encoding');

describe('static assets on the wire', () => {
  let server: TestServer;
  let dist: string;
  let read: (file: string) => Buffer;

  beforeAll(async () => {
    dist = miniDist();
    await precompressDirectory(dist);
    read = (file) => fs.readFileSync(path.join(dist, file));
    server = await startTestServer({ env: { STATIC_DIR: dist } });
  });
  afterAll(async () => {
    await server?.close();
    if (dist) fs.rmSync(dist, { recursive: true, force: true });
  });

  it('the build step wrote smaller brotli and gzip copies of each text asset, and none of a tiny file', () => {
    for (const file of ['index.html', HASHED_JS, HASHED_CSS]) {
      expect(read(`${file}.br`).length, file).toBeLessThan(read(file).length);
      expect(zlib.brotliDecompressSync(read(`${file}.br`)).equals(read(file)), file).toBe(true);
      expect(zlib.gunzipSync(read(`${file}.gz`)).equals(read(file)), file).toBe(true);
    }
    expect(fs.existsSync(path.join(dist, 'favicon.svg.br'))).toBe(false);
  });

  it('negotiates brotli, then gzip, then the plain file, always with Vary: Accept-Encoding', async () => {
    const br = await request(server.baseUrl, `/${HASHED_JS}`, { acceptEncoding: 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(Number(br.headers['content-length'])).toBe(read(`${HASHED_JS}.br`).length);
    expect(zlib.brotliDecompressSync(br.body).equals(read(HASHED_JS))).toBe(true);
    expect(varies(br)).toBe(true);

    const gzip = await request(server.baseUrl, `/${HASHED_JS}`, { acceptEncoding: 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers['content-length'])).toBe(read(`${HASHED_JS}.gz`).length);
    expect(zlib.gunzipSync(gzip.body).equals(read(HASHED_JS))).toBe(true);
    expect(varies(gzip)).toBe(true);

    const css = await request(server.baseUrl, `/${HASHED_CSS}`, { acceptEncoding: 'br' });
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-type']).toMatch(/^text\/css/);

    for (const acceptEncoding of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await request(server.baseUrl, `/${HASHED_JS}`, acceptEncoding === undefined ? {} : { acceptEncoding });
      expect(plain.headers['content-encoding'], String(acceptEncoding)).toBeUndefined();
      expect(plain.body.equals(read(HASHED_JS)), String(acceptEncoding)).toBe(true);
      expect(Number(plain.headers['content-length'])).toBe(read(HASHED_JS).length);
      expect(varies(plain), String(acceptEncoding)).toBe(true);
    }
  });

  it('caches hashed assets for a year, immutable, whatever the encoding', async () => {
    for (const [file, acceptEncoding] of [[HASHED_JS, 'br'], [HASHED_JS, 'gzip'], [HASHED_JS, 'identity'], [HASHED_CSS, 'br']] as const) {
      const answer = await request(server.baseUrl, `/${file}`, { acceptEncoding });
      expect(answer.headers['cache-control'], `${file} ${acceptEncoding}`).toBe('public, max-age=31536000, immutable');
    }
  });

  it('sends no validators or Accept-Ranges with an immutable asset, and keeps them where a file is revalidated', async () => {
    for (const [file, acceptEncoding] of [[HASHED_JS, 'br'], [HASHED_JS, 'identity'], [HASHED_CSS, 'br']] as const) {
      const answer = await request(server.baseUrl, `/${file}`, { acceptEncoding });
      for (const name of ['etag', 'last-modified', 'accept-ranges']) expect(answer.headers[name], `${file} ${acceptEncoding}: ${name}`).toBeUndefined();
    }
    const index = await request(server.baseUrl, '/', { acceptEncoding: 'br' });
    expect(index.headers.etag).toBeDefined();
    expect(index.headers['last-modified']).toBeDefined();
  });

  it('revalidates index.html, at / and as the history fallback of a deep link, compressed too', async () => {
    const index = read('index.html');
    // a folder, and a compressed copy asked for by name, are no files of the app either
    for (const target of ['/', '/index.html', '/l/some-workspace/feed', '/l/some-workspace/datasets/abc?tab=comments', '/assets/', `/${HASHED_JS}.br`]) {
      const answer = await request(server.baseUrl, target, { acceptEncoding: 'br, gzip' });
      expect(answer.status, target).toBe(200);
      expect(answer.headers['cache-control'], target).toBe('no-cache');
      expect(answer.headers['content-type'], target).toMatch(/^text\/html/);
      expect(answer.headers['content-encoding'], target).toBe('br');
      expect(varies(answer), target).toBe(true);
      expect(zlib.brotliDecompressSync(answer.body).equals(index), target).toBe(true);
    }
  });

  it('gives the unhashed files of the root a modest max-age', async () => {
    const favicon = await request(server.baseUrl, '/favicon.svg', { acceptEncoding: 'br, gzip' });
    expect(favicon.status).toBe(200);
    expect(favicon.headers['content-encoding']).toBeUndefined();
    expect(favicon.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('answers HEAD wherever GET answers: the same headers, no body', async () => {
    for (const target of ['/', '/l/some-workspace/feed', `/${HASHED_JS}`, '/favicon.svg', '/config.json']) {
      for (const acceptEncoding of ['br', 'identity']) {
        const get = await request(server.baseUrl, target, { acceptEncoding });
        const head = await request(server.baseUrl, target, { method: 'HEAD', acceptEncoding });
        expect(head.status, `HEAD ${target}`).toBe(200);
        expect(head.body.length, `HEAD ${target}`).toBe(0);
        for (const name of ['content-type', 'content-length', 'content-encoding', 'cache-control', 'vary', 'etag']) {
          expect(head.headers[name], `HEAD ${target} ${acceptEncoding}: ${name}`).toEqual(get.headers[name]);
        }
      }
    }
  });

  it('leaves the JSON 404 of unknown /api paths as it was, for GET and HEAD', async () => {
    const get = await request(server.baseUrl, '/api/no-such-resource', { acceptEncoding: 'br, gzip' });
    expect(get.status).toBe(404);
    expect(get.headers['content-type']).toMatch(/^application\/json/);
    expect(get.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(get.body.toString('utf8'))).toMatchObject({ status: 404, path: '/api/no-such-resource' });
    const head = await request(server.baseUrl, '/api/no-such-resource', { method: 'HEAD' });
    expect(head.status).toBe(404);
    expect(head.headers['content-type']).toMatch(/^application\/json/);
    // a non-reading method outside /api is not the SPA either
    expect((await request(server.baseUrl, '/l/some-workspace/feed', { method: 'POST' })).status).toBe(404);
  });
});
