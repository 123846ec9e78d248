import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ResourceBytes } from '../repositories/workspaceResources';
import { RESOURCE_CHUNK_BYTES } from '../repositories/workspaceResources';

/** An upload went past its size limit while it streamed; what was written so far is already deleted. */
export class UploadTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`the upload is larger than ${limitBytes} bytes`);
  }
}

/** An upload written to a temporary file: its bytes to store, and the file to delete after. */
interface SpooledUpload extends ResourceBytes {
  dispose: () => void;
}

/**
 * Streams a request body into a temporary file under `dir`, counting and hashing as it goes, with
 * back-pressure from the disk: the server never holds an upload in memory. Past `limitBytes` it
 * stops writing, deletes the file and fails with UploadTooLarge, and lets the rest of the body
 * drain unread, so the client still receives the answer (sent with Connection: close) rather than
 * a reset connection.
 */
export function spoolUpload(body: Readable, dir: string, limitBytes: number): Promise<SpooledUpload> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `upload-${randomBytes(12).toString('hex')}`);
  const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const hash = createHash('sha256');
  let size = 0;
  let settled = false;
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.resume();
      out.destroy();
      fs.rmSync(file, { force: true });
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) return fail(new UploadTooLarge(limitBytes));
      hash.update(chunk);
      if (!out.write(chunk)) {
        body.pause();
        out.once('drain', () => body.resume());
      }
    };
    let ended = false;
    body.on('data', onData);
    body.once('end', () => {
      ended = true;
      if (!settled) out.end();
    });
    body.once('error', fail);
    body.once('close', () => {
      if (!ended) fail(new Error('the upload was cut off before its end'));
    });
    out.once('error', fail);
    out.once('finish', () => {
      if (settled) return;
      settled = true;
      resolve({
        size,
        digest: hash.digest('hex'),
        chunks: () => fs.createReadStream(file, { highWaterMark: RESOURCE_CHUNK_BYTES }),
        dispose: () => fs.rmSync(file, { force: true }),
      });
    });
  });
}

/** Where uploads are spooled: a folder of the process's data directory, never inside a project. */
export function uploadSpoolDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/** A spooled upload nobody has written to for this long was left by a process that died mid-upload (a live one writes as the body arrives). */
export const STALE_UPLOAD_MS = 60 * 60 * 1000;

/**
 * Deletes the spool files a crashed or killed process left behind (`upload-…` not written to for
 * STALE_UPLOAD_MS), run at start. Other processes sharing the data directory may be spooling now:
 * their files are recent, so they stay. Answers how many were removed.
 */
export function sweepStaleUploads(dir: string, now = Date.now()): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0; // no upload yet
  }
  for (const name of names) {
    if (!name.startsWith('upload-')) continue;
    const file = path.join(dir, name);
    try {
      const stat = fs.lstatSync(file);
      if (!stat.isFile() || now - stat.mtimeMs < STALE_UPLOAD_MS) continue;
      fs.rmSync(file, { force: true });
      removed++;
    } catch {
      // gone meanwhile
    }
  }
  return removed;
}
