import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HUGE_TEXTS, hostileString } from './hostile.fixture';
import { API_KEY_NAME_REQUIRED, canSubmitQuestion, isEmailEditable, isValidEmail, PROFILE_MESSAGES, validateApiKeyName, validateProfile } from './validation';

describe('texts', () => {
  it('are the spec texts word for word', () => {
    expect(PROFILE_MESSAGES).toEqual({ nameRequired: 'Enter your name', emailInvalid: 'Enter valid email address' });
    expect(API_KEY_NAME_REQUIRED).toBe('Name is mandatory');
  });
});

describe('isValidEmail', () => {
  it.each(['ada@example.com', 'a.b+tag@sub.example.co.uk', "o'brien@example.ie", 'x@a-b.io', ' ada@example.com '])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each(['', ' ', 'ada', 'ada@', '@example.com', 'ada@example', 'ada@@example.com', 'ada@exa mple.com', 'ada @example.com', 'ada@-example.com', 'ada@example-.com', 'ada@example..com', 'ada@.example.com', 'ada@example.com.', 'adé@example.com', '"a"@example.com'])(
    'refuses %j',
    (email) => {
      expect(isValidEmail(email)).toBe(false);
    },
  );

  it('refuses nothing and overlong addresses', () => {
    expect(isValidEmail(null)).toBe(false);
    expect(isValidEmail(undefined)).toBe(false);
    expect(isValidEmail(`${'a'.repeat(250)}@b.co`)).toBe(false);
    // 254 characters is the longest address
    expect(isValidEmail(`${'a'.repeat(248)}@b.com`)).toBe(true);
    expect(isValidEmail(`${'a'.repeat(249)}@b.com`)).toBe(false);
  });

  it('a valid address has exactly one @ and a dotted domain; huge input is answered quickly', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        if (isValidEmail(text)) {
          const [local, domain, ...rest] = text.trim().split('@');
          expect(rest).toEqual([]);
          expect(local).not.toBe('');
          expect(domain).toContain('.');
        }
      }),
    );
    for (const text of HUGE_TEXTS) {
      const started = performance.now();
      expect(isValidEmail(text)).toBe(false);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it('accepts generated plain addresses', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9._%+-]{1,20}$/), fc.stringMatching(/^[a-z0-9]{1,10}$/), fc.constantFrom('com', 'io', 'co.uk'), (local, host, tld) => {
        expect(isValidEmail(`${local}@${host}.${tld}`)).toBe(true);
      }),
    );
  });
});

describe('validateProfile', () => {
  it('is empty for a valid profile', () => {
    expect(validateProfile({ name: 'Ada', email: 'ada@example.com' })).toEqual({});
  });

  it('names each failing field with its message', () => {
    expect(validateProfile({ name: '  ', email: 'ada@example.com' })).toEqual({ name: 'Enter your name' });
    expect(validateProfile({ name: 'Ada', email: 'ada' })).toEqual({ email: 'Enter valid email address' });
    expect(validateProfile({ name: null, email: undefined })).toEqual({ name: 'Enter your name', email: 'Enter valid email address' });
  });

  it('only ever reports the two spec messages', () => {
    fc.assert(
      fc.property(hostileString, hostileString, (name, email) => {
        const errors = validateProfile({ name, email });
        expect(errors.name === undefined || errors.name === PROFILE_MESSAGES.nameRequired).toBe(true);
        expect(errors.email === undefined || errors.email === PROFILE_MESSAGES.emailInvalid).toBe(true);
        expect(errors.name === undefined).toBe(name.trim() !== '');
        expect(errors.email === undefined).toBe(isValidEmail(email));
      }),
    );
  });
});

describe('validateApiKeyName and canSubmitQuestion', () => {
  it('require text after trimming', () => {
    expect(validateApiKeyName('default')).toBeUndefined();
    expect(validateApiKeyName('')).toBe('Name is mandatory');
    expect(validateApiKeyName(' \t')).toBe('Name is mandatory');
    expect(validateApiKeyName(null)).toBe('Name is mandatory');
    expect(canSubmitQuestion('What were sales last month?')).toBe(true);
    expect(canSubmitQuestion('   ')).toBe(false);
    expect(canSubmitQuestion(undefined)).toBe(false);
  });

  it('agree with each other for any text', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        expect(validateApiKeyName(text) === undefined).toBe(canSubmitQuestion(text));
        expect(canSubmitQuestion(text)).toBe(text.trim().length > 0);
      }),
    );
  });
});

describe('isEmailEditable', () => {
  it("is true only for user ids of the provider's own database", () => {
    expect(isEmailEditable('auth0|65a1b2')).toBe(true);
    expect(isEmailEditable('google-oauth2|123')).toBe(false);
    expect(isEmailEditable('windowslive|123')).toBe(false);
    expect(isEmailEditable('xauth0|1')).toBe(false);
    expect(isEmailEditable('')).toBe(false);
    expect(isEmailEditable(null)).toBe(false);
  });
});
