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

describe('checkResourcePath, each rule by its message', () => {
  const refusal = (path: string) => {
    const checked = checkResourcePath(path);
    return checked.ok ? `taken: ${checked.path}` : checked.message;
  };

  it('says a blank path names no file', () => {
    for (const path of ['', '   ', '\t']) expect(refusal(path), JSON.stringify(path)).toBe('must name a file');
  });

  it('takes 255 characters and refuses 256', () => {
    const at255 = `${'a'.repeat(100)}/${'b'.repeat(100)}/${'c'.repeat(53)}`;
    expect(at255).toHaveLength(255);
    expect(checkResourcePath(at255)).toEqual({ ok: true, path: at255 });
    expect(refusal(`${at255}c`)).toBe('must be at most 255 characters');
  });

  it('says a lone surrogate is not well-formed text', () => {
    expect(refusal('a\udc00b.txt')).toBe('must be well-formed text (no lone surrogate)');
    expect(refusal('\ud83d')).toBe('must be well-formed text (no lone surrogate)');
  });

  it('refuses one character of each control and invisible range, and takes their neighbours', () => {
    // one from each range or single of the rule: C0, DEL and C1, soft hyphen, Arabic letter mark,
    // zero-width and direction marks, separators and embeddings, word joiner and isolates, BOM,
    // interlinear annotations
    for (const c of ['\u0000', '\u0001', '\u001f', '\u007f', '\u0085', '\u009f', '\u00ad', '\u061c', '\u200b', '\u200d', '\u200f', '\u2028', '\u2029', '\u202a', '\u202e', '\u2060', '\u2066', '\u206f', '\ufeff', '\ufff9', '\ufffa', '\ufffb']) {
      expect(refusal(`a${c}b.csv`), c.codePointAt(0)!.toString(16)).toBe('must not contain control or invisible characters');
    }
    for (const c of ['\u00a0', '\u00ae', '\u061b', '\u200a', '\u2010', '\u2027', '\u202f', '\u205f', '\u2070', '\ufefe', '\ufff8', '\ufffc']) {
      expect(checkResourcePath(`a${c}b.csv`), c.codePointAt(0)!.toString(16)).toEqual({ ok: true, path: `a${c}b.csv` });
    }
  });

  it('refuses each reserved character', () => {
    for (const c of ['"', '*', ':', '<', '>', '?', '\\', '|']) {
      expect(refusal(`a${c}b.csv`), c).toBe('must not contain any of " * : < > ? \\ |');
    }
  });

  it('says an absolute path must be relative', () => {
    expect(refusal('/a.csv')).toBe('must be relative (no leading /)');
    expect(refusal('/')).toBe('must be relative (no leading /)');
  });

  it('takes 8 folders deep and refuses 9', () => {
    expect(checkResourcePath('a/b/c/d/e/f/g/h.csv')).toEqual({ ok: true, path: 'a/b/c/d/e/f/g/h.csv' });
    expect(refusal('a/b/c/d/e/f/g/h/i.csv')).toBe('must be at most 8 folders deep');
  });

  it('names the rule a folder name breaks', () => {
    for (const path of ['a//b.csv', 'a/', 'a/b/']) expect(refusal(path), path).toBe('must not have an empty folder name (// or a trailing /)');
    for (const path of ['.', '..', './a.csv', 'a/../b.csv', 'a/.']) expect(refusal(path), path).toBe('must not contain . or .. as a folder name');
    for (const path of [' a.csv', 'a.csv ', 'a /b.csv', 'a/ b.csv', 'a.', 'a./b.csv', '...']) {
      expect(refusal(path), JSON.stringify(path)).toBe('must not have a name that starts or ends with a space, or ends with a dot');
    }
  });

  it('takes a name of 100 characters and refuses 101', () => {
    const name100 = `${'n'.repeat(96)}.csv`;
    expect(checkResourcePath(`f/${name100}`)).toEqual({ ok: true, path: `f/${name100}` });
    expect(refusal(`f/n${name100}`)).toBe('must have names of at most 100 characters');
    expect(refusal(`${'f'.repeat(101)}/a.csv`)).toBe('must have names of at most 100 characters');
  });

  it('stores one form of a name: decomposed accents are composed', () => {
    expect(checkResourcePath('Cafe\u0301/e\u0301te\u0301.csv')).toEqual({ ok: true, path: 'Caf\u00e9/\u00e9t\u00e9.csv' });
  });
});

describe('uploadPath, by its messages', () => {
  it('takes each readable extension in any letter case, after a name', () => {
    expect(uploadPath('a.csv')).toEqual({ ok: true, path: 'uploads/a.csv' });
    expect(uploadPath('a.JSON')).toEqual({ ok: true, path: 'uploads/a.JSON' });
    expect(uploadPath('a.ndjson')).toEqual({ ok: true, path: 'uploads/a.ndjson' });
    expect(uploadPath('a.JsonL')).toEqual({ ok: true, path: 'uploads/a.JsonL' });
  });

  it('refuses a bare extension, another extension and a folder in the name', () => {
    const notReadable = 'must be a CSV, JSON or NDJSON file (.csv, .json, .ndjson, .jsonl)';
    for (const name of ['.csv', '.json', '.ndjson', '.jsonl', 'a.csv.txt', 'csv', 'a.xlsx']) expect(uploadPath(name), name).toEqual({ ok: false, message: notReadable });
    expect(uploadPath('a/b.csv')).toEqual({ ok: false, message: 'must be a file name, not a path' });
    expect(uploadPath('')).toEqual({ ok: false, message: 'must not have an empty folder name (// or a trailing /)' });
  });
});

describe('fileSizeText, at each unit boundary', () => {
  it('moves to the next unit at 1024 of the last, and stops at GB', () => {
    expect(fileSizeText(1024 * 1024 - 1)).toBe('1023 KB');
    expect(fileSizeText(1024 * 1024)).toBe('1 MB');
    expect(fileSizeText(1024 * 1024 * 1024)).toBe('1 GB');
    expect(fileSizeText(5 * 1024 * 1024 * 1024 * 1024)).toBe('5120 GB');
    expect(fileSizeText(10 * 1024)).toBe('10 KB');
    expect(fileSizeText(10.5 * 1024)).toBe('10 KB');
    expect(fileSizeText(1.25 * 1024 * 1024)).toBe('1.2 MB');
  });
});

describe('media types, character by character', () => {
  it('takes every token character on either side of the slash, up to 64 each', () => {
    expect(mediaTypeOf('0!#$&^_.+-z/0!#$&^_.+-z')).toBe('0!#$&^_.+-z/0!#$&^_.+-z');
    expect(mediaTypeOf(`${'a'.repeat(64)}/${'b'.repeat(64)}`)).toBe(`${'a'.repeat(64)}/${'b'.repeat(64)}`);
    expect(mediaTypeOf(`${'a'.repeat(65)}/b`)).toBeUndefined();
    expect(mediaTypeOf(`a/${'b'.repeat(65)}`)).toBeUndefined();
  });

  it('refuses what is not one whole type/subtype', () => {
    for (const text of ['x text/csv', 'text/csv x', 'text/csv/x', '/csv', 'text/', 'text', 'text/c,sv', 'text/c@sv']) expect(mediaTypeOf(text), text).toBeUndefined();
    expect(mediaTypeOf(null)).toBeUndefined();
    expect(mediaTypeOf(undefined)).toBeUndefined();
    expect(mediaTypeOf('  Application/PDF ; name=x')).toBe('application/pdf');
  });

  it("records the extension's type whatever its letter case, and only the last segment's", () => {
    expect(recordedContentType(undefined, 'REPORT.CSV')).toBe('text/csv');
    expect(recordedContentType('nonsense', 'a/b.Json')).toBe('application/json');
    expect(recordedContentType(null, 'v1.csv/readme')).toBe('application/octet-stream');
    expect(recordedContentType('', 'photo.jpeg')).toBe('image/jpeg');
  });

  it('serves inert text with UTF-8 and other inert types bare, whatever was declared with it', () => {
    expect(servedContentType('TEXT/Markdown; charset=latin1')).toBe('text/markdown; charset=utf-8');
    expect(servedContentType('text/plain')).toBe('text/plain; charset=utf-8');
    expect(servedContentType('application/json; charset=utf-16')).toBe('application/json');
    expect(servedContentType('')).toBe('application/octet-stream');
  });
});

describe('attachmentDisposition, character by character', () => {
  it('calls a nameless download "download"', () => {
    expect(attachmentDisposition('reports/')).toBe(`attachment; filename="download"; filename*=UTF-8''`);
  });

  it("percent-encodes ' ( ) * in the exact name, which encodeURIComponent leaves", () => {
    expect(attachmentDisposition("it's (1)*.csv")).toBe(`attachment; filename="it's (1)*.csv"; filename*=UTF-8''it%27s%20%281%29%2A.csv`);
  });

  it('replaces %, backslash, DEL and controls in the fallback, and keeps printable ASCII', () => {
    expect(attachmentDisposition('100%\\x\u007f\t~.csv')).toBe(`attachment; filename="100__x__~.csv"; filename*=UTF-8''100%25%5Cx%7F%09~.csv`);
  });
});

describe('downloadFailureText, without a message', () => {
  it('uses the fallback when the server said nothing, and trims what it said', () => {
    expect(downloadFailureText('b.csv', 500, undefined, 'Server error')).toBe('b.csv could not be downloaded: Server error');
    expect(downloadFailureText('b.csv', 500, '  Disk full \n', 'x')).toBe('b.csv could not be downloaded: Disk full');
    expect(downloadFailureText('b.csv', 404, undefined, 'x')).toBe("b.csv is not among this workspace's files.");
  });
});
