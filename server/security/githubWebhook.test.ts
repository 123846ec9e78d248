import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../../src/domain/hostile.fixture';
import { githubSignature, pushedBranch, verifyGithubSignature } from './githubWebhook';

const body = Buffer.from('{"ref":"refs/heads/main"}');

describe('verifyGithubSignature', () => {
  it("accepts GitHub's own example signature", () => {
    // the example in GitHub's "Validating webhook deliveries" documentation
    expect(githubSignature("It's a Secret to Everybody", Buffer.from('Hello, World!'))).toBe('sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
  });

  it('accepts the signature of the body under the secret, and nothing else', () => {
    const header = githubSignature('s3cret', body);
    expect(verifyGithubSignature('s3cret', body, header)).toBe(true);
    expect(verifyGithubSignature('other', body, header)).toBe(false);
    expect(verifyGithubSignature('s3cret', Buffer.from(`${body.toString()} `), header)).toBe(false);
    expect(verifyGithubSignature('s3cret', body, header.toUpperCase())).toBe(false);
    expect(verifyGithubSignature('s3cret', body, header.replace('sha256=', 'sha1='))).toBe(false);
    expect(verifyGithubSignature('s3cret', body, undefined)).toBe(false);
    expect(verifyGithubSignature('s3cret', body, [header, header])).toBe(false);
  });

  it('never verifies without a secret, even a signature made with an empty one', () => {
    expect(verifyGithubSignature(null, body, githubSignature('', body))).toBe(false);
    expect(verifyGithubSignature('', body, githubSignature('', body))).toBe(false);
  });

  it('never throws and never accepts a forged header', () => {
    fc.assert(
      fc.property(hostileString, fc.uint8Array({ maxLength: 200 }), (header, bytes) => {
        expect(verifyGithubSignature('s3cret', bytes, header)).toBe(header === githubSignature('s3cret', bytes));
      }),
    );
  });
});

describe('pushedBranch', () => {
  it('names the branch of a branch push only', () => {
    expect(pushedBranch('refs/heads/main')).toBe('main');
    expect(pushedBranch('refs/heads/feature/x')).toBe('feature/x');
    expect(pushedBranch('refs/tags/v1')).toBeUndefined();
    expect(pushedBranch('refs/heads/')).toBeUndefined();
    expect(pushedBranch(42)).toBeUndefined();
  });
});
