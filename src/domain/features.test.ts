import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { featureSwitches, GLOBAL_FEATURES, isFeatureEnabled, isLabMenuItemEnabled, LAB_MENU_ITEMS, parseFeatureList, PROFILE_FEATURES, questionsEnabled } from './features';
import { hostileString } from './hostile.fixture';

describe('feature names', () => {
  it('lists the global features of the spec', () => {
    expect(GLOBAL_FEATURES).toEqual([
      'DATA', 'STARRED', 'MANAGE_ACCOUNT', 'NEWS', 'SHARE_TEAMS', 'SHARE_SLACK', 'SHARE_MESSAGE',
      'WORKSPACE_REPOSITORY', 'LAB_PROJECT', 'SAVE_LIST', 'WORKSPACE_ADVANCED_CONFIG', 'LIBRARY',
    ]);
  });

  it('lists the profile features with the Lab menu items', () => {
    expect(PROFILE_FEATURES).toEqual(expect.arrayContaining(['INVITATIONS', 'APP', 'MODIFY_PIPELINE']));
    for (const item of LAB_MENU_ITEMS) expect(PROFILE_FEATURES).toContain(item.toUpperCase());
  });
});

describe('parseFeatureList', () => {
  it('splits on commas and spaces, trims, upper-cases and drops empties', () => {
    expect([...parseFeatureList(' news, starred  DATA,,\tlibrary\n')]).toEqual(['NEWS', 'STARRED', 'DATA', 'LIBRARY']);
  });

  it('is empty for nothing', () => {
    expect(parseFeatureList(null).size).toBe(0);
    expect(parseFeatureList(undefined).size).toBe(0);
    expect(parseFeatureList('').size).toBe(0);
    expect(parseFeatureList(' , ,').size).toBe(0);
  });

  it('never yields an empty, untrimmed, lower-case or separator-holding name', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        for (const name of parseFeatureList(text)) {
          expect(name).not.toBe('');
          expect(name).toBe(name.trim());
          expect(name).toBe(name.toUpperCase());
          expect(name).not.toMatch(/[\s,]/);
        }
      }),
    );
  });
});

describe('isFeatureEnabled', () => {
  it('is off when either the environment or the profile disables it', () => {
    const switches = featureSwitches('NEWS,starred', { featuresDisabled: 'app, invitations' });
    expect(isFeatureEnabled(switches, 'NEWS')).toBe(false);
    expect(isFeatureEnabled(switches, 'starred')).toBe(false);
    expect(isFeatureEnabled(switches, 'APP')).toBe(false);
    expect(isFeatureEnabled(switches, ' Invitations ')).toBe(false);
    expect(isFeatureEnabled(switches, 'DATA')).toBe(true);
  });

  it('is on for everything when nothing is disabled', () => {
    const switches = featureSwitches(undefined, null);
    for (const name of [...GLOBAL_FEATURES, ...PROFILE_FEATURES]) expect(isFeatureEnabled(switches, name)).toBe(true);
  });

  it('hides Lab menu items by name', () => {
    const switches = featureSwitches('', { featuresDisabled: 'DATASTORES,help' });
    expect(isLabMenuItemEnabled(switches, 'datastores')).toBe(false);
    expect(isLabMenuItemEnabled(switches, 'help')).toBe(false);
    expect(isLabMenuItemEnabled(switches, 'pipelines')).toBe(true);
  });

  it('a listed name is always disabled, in any letter case', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[A-Za-z_]{1,12}$/), { minLength: 1, maxLength: 5 }), fc.boolean(), (names, fromProfile) => {
        const list = names.join(', ');
        const switches = fromProfile ? featureSwitches(null, { featuresDisabled: list }) : featureSwitches(list, undefined);
        for (const name of names) {
          expect(isFeatureEnabled(switches, name.toLowerCase())).toBe(false);
          expect(isFeatureEnabled(switches, name.toUpperCase())).toBe(false);
        }
      }),
    );
  });
});

describe('questionsEnabled', () => {
  it("is true only for exactly 'true'", () => {
    expect(questionsEnabled({ appProperties: { FEATURE_QUESTIONS: 'true' } })).toBe(true);
    for (const value of ['TRUE', 'True', ' true', 'true ', '1', 'yes', '']) {
      expect(questionsEnabled({ appProperties: { FEATURE_QUESTIONS: value } })).toBe(false);
    }
    expect(questionsEnabled({ appProperties: { FEATURE_QUESTIONS: true } })).toBe(false);
    expect(questionsEnabled({ appProperties: {} })).toBe(false);
    expect(questionsEnabled({ appProperties: null })).toBe(false);
    expect(questionsEnabled({})).toBe(false);
    expect(questionsEnabled(null)).toBe(false);
  });

  it('ignores an inherited property', () => {
    const inherited = Object.create({ FEATURE_QUESTIONS: 'true' }) as Record<string, string>;
    expect(questionsEnabled({ appProperties: inherited })).toBe(false);
  });
});
