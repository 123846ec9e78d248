import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import {
  attachmentDisposition,
  checkResourcePath,
  downloadFailureText,
  encodeResourcePath,
  mediaTypeOf,
  recordedContentType,
  RESOURCE_LIMITS,
  resourceFileName,
  servedContentType,
  UPLOAD_FOLDER,
  UPLOADABLE_EXTENSIONS,
  uploadPath,
  fileSizeText,
} from './workspaceResources';

describe('checkResourcePath', () => {
  it('takes plain names and folders', () => {
    for (const path of ['report.csv', 'reports/2026/q1.csv', 'Données été.txt', 'a b/c-d_e (1).pdf', '日本語.md']) {
      expect(checkResourcePath(path), path).toEqual({ ok: true, path: path.normalize('NFC') });
    }
  });

  it('refuses traversal, absolute and empty segments', () => {
    for (const path of ['', ' ', '../etc/passwd', 'a/../../b', './a', 'a/.', '/etc/passwd', 'a//b', 'a/', '..', '.']) {
      expect(checkResourcePath(path).ok, JSON.stringify(path)).toBe(false);
    }
  });

  it('refuses control, invisible and direction characters, reserved characters and lone surrogates', () => {
    for (const path of ['a\u0000b', 'a\nb.csv', 'a\rb', '\u001b[31mred', 'a\u007f', 'invoice\u202efdp.exe', 'a\u200bb', 'a\\b', 'a:b', 'a"b', 'a<b>', 'x?.csv', 'x*', 'a|b', '\ud800.txt', 'name.', ' lead', 'trail /x']) {
      expect(checkResourcePath(path).ok, JSON.stringify(path)).toBe(false);
    }
  });

  it('refuses huge names and deep folders', () => {
    expect(checkResourcePath('a'.repeat(RESOURCE_LIMITS.pathLength + 1)).ok).toBe(false);
    expect(checkResourcePath(`${'b'.repeat(RESOURCE_LIMITS.segmentLength + 1)}.csv`).ok).toBe(false);
    expect(checkResourcePath(Array.from({ length: RESOURCE_LIMITS.segments + 1 }, () => 'd').join('/')).ok).toBe(false);
    expect(checkResourcePath('x'.repeat(1_000_000)).ok).toBe(false);
  });

  it('answers any text, and what it takes is safe to put in a URL and a header', () => {
    fc.assert(
      fc.property(hostileString, (raw) => {
        const checked = checkResourcePath(raw);
        if (!checked.ok) return;
        expect(checked.path.split('/')).not.toContain('..');
        expect(() => encodeResourcePath(checked.path)).not.toThrow();
        const disposition = attachmentDisposition(checked.path);
        expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!._~-]*$/);
        expect(disposition).not.toMatch(/[\r\n]/);
      }),
    );
  });
});

describe('names and addresses', () => {
  it('saves under the last segment and encodes each segment', () => {
    expect(resourceFileName('a/b/c.csv')).toBe('c.csv');
    expect(encodeResourcePath('a b/c#d?.csv')).toBe('a%20b/c%23d%3F.csv');
  });

  it('writes an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentDisposition('reports/été "x".csv')).toBe(`attachment; filename="_t_ _x_.csv"; filename*=UTF-8''%C3%A9t%C3%A9%20%22x%22.csv`);
  });
});

describe('content types', () => {
  it('reads a declared media type, not its parameters, and refuses what is not one', () => {
    expect(mediaTypeOf('Text/CSV; charset=latin1')).toBe('text/csv');
    expect(mediaTypeOf('text/html\r\nX-Evil: 1')).toBeUndefined();
    expect(mediaTypeOf('')).toBeUndefined();
  });

  it('records the declared type, else the extension, and never sniffs', () => {
    expect(recordedContentType('text/csv', 'x.bin')).toBe('text/csv');
    expect(recordedContentType('application/octet-stream', 'x.csv')).toBe('text/csv');
    expect(recordedContentType(undefined, 'page.html')).toBe('text/html');
    expect(recordedContentType(undefined, 'noextension')).toBe('application/octet-stream');
    // names only an object's prototype knows are no extension
    expect(recordedContentType(undefined, 'x.constructor')).toBe('application/octet-stream');
    expect(recordedContentType(undefined, 'x.__proto__')).toBe('application/octet-stream');
    expect(recordedContentType(undefined, 'x.hasOwnProperty')).toBe('application/octet-stream');
  });

  it('serves only inert types as themselves: HTML, SVG, XML and scripts download as octet-stream', () => {
    expect(servedContentType('text/csv')).toBe('text/csv; charset=utf-8');
    expect(servedContentType('image/png')).toBe('image/png');
    for (const active of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'application/javascript', 'text/javascript', 'application/x-shockwave-flash', 'multipart/x-mixed-replace', 'nonsense']) {
      expect(servedContentType(active), active).toBe('application/octet-stream');
    }
  });
});

describe('downloadFailureText', () => {
  it('says a missing file in words, else the server message, else the fallback', () => {
    expect(downloadFailureText('a/b.csv', 404, 'Resource not found', 'x')).toBe("a/b.csv is not among this workspace's files.");
    expect(downloadFailureText('b.csv', 403, 'Access is denied', 'x')).toBe('b.csv could not be downloaded: Access is denied');
    expect(downloadFailureText('b.csv', undefined, '  ', 'Network error')).toBe('b.csv could not be downloaded: Network error');
  });
});

describe('uploadPath', () => {
  it('stores a CSV, JSON or NDJSON file under uploads/, keeping its name', () => {
    expect(uploadPath('sales 2026.csv')).toEqual({ ok: true, path: 'uploads/sales 2026.csv' });
    expect(uploadPath('events.NDJSON')).toEqual({ ok: true, path: 'uploads/events.NDJSON' });
    expect(uploadPath('rows.jsonl')).toEqual({ ok: true, path: 'uploads/rows.jsonl' });
    expect(uploadPath('Cafe\u0301.json')).toEqual({ ok: true, path: 'uploads/Caf\u00e9.json' });
  });

  it('refuses other kinds of file, paths, bare extensions and names a resource path refuses', () => {
    expect(uploadPath('report.pdf')).toEqual({ ok: false, message: 'must be a CSV, JSON or NDJSON file (.csv, .json, .ndjson, .jsonl)' });
    expect(uploadPath('.csv').ok).toBe(false);
    expect(uploadPath('../secret.csv')).toEqual({ ok: false, message: 'must be a file name, not a path' });
    expect(uploadPath('a:b.csv')).toEqual({ ok: false, message: 'must not contain any of " * : < > ? \\ |' });
    expect(uploadPath(`${'x'.repeat(RESOURCE_LIMITS.segmentLength)}.csv`).ok).toBe(false);
  });

  it('answers any name, and what it takes is one file directly under uploads/ with a readable extension', () => {
    fc.assert(
      fc.property(fc.oneof(hostileString, fc.string(), fc.constantFrom('a.csv', 'b.json', '..', '.', ' x.csv', 'x.csv.', 'x\u202e.csv')), fc.constantFrom('', '.csv', '.json', '.ndjson', '.jsonl', '.txt'), (name, extension) => {
        const checked = uploadPath(name + extension);
        if (!checked.ok) return;
        const [folder, file, ...rest] = checked.path.split('/');
        expect(folder).toBe(UPLOAD_FOLDER);
        expect(rest).toEqual([]);
        expect(checkResourcePath(checked.path)).toEqual(checked);
        expect(UPLOADABLE_EXTENSIONS.some((e) => file!.toLowerCase().endsWith(e))).toBe(true);
      }),
    );
  });
});

describe('fileSizeText', () => {
  it('reads bytes, KB, MB and GB, never rounding up past what is there', () => {
    expect(fileSizeText(0)).toBe('0 B');
    expect(fileSizeText(1023)).toBe('1023 B');
    expect(fileSizeText(1024)).toBe('1 KB');
    expect(fileSizeText(1536)).toBe('1.5 KB');
    expect(fileSizeText(10 * 1024 - 1)).toBe('9.9 KB');
    expect(fileSizeText(3 * 1024 * 1024)).toBe('3 MB');
    expect(fileSizeText(256 * 1024 * 1024)).toBe('256 MB');
    expect(fileSizeText(2047 * 1024 * 1024)).toBe('1.9 GB');
  });
});
