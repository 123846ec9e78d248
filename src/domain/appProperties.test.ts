import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appProperty, homePage, isMultilineAppProperty, menuItemAltTextKey, menuItemLabel, TOOLBAR_SEARCH_PLACEHOLDER, toolbarSearchPlaceholder } from './appProperties';
import { hostileStringWithHuge } from './hostile.fixture';

describe('appProperty', () => {
  it('reads own text values only', () => {
    const workspace = { appProperties: { HOME_PAGE: 'news', COUNT: 3 } };
    expect(appProperty(workspace, 'HOME_PAGE')).toBe('news');
    expect(appProperty(workspace, 'COUNT')).toBeUndefined();
    expect(appProperty(workspace, 'constructor')).toBeUndefined();
    expect(appProperty(workspace, '__proto__')).toBeUndefined();
    expect(appProperty(workspace, 'toString')).toBeUndefined();
    expect(appProperty({ appProperties: null }, 'HOME_PAGE')).toBeUndefined();
    expect(appProperty(undefined, 'HOME_PAGE')).toBeUndefined();
  });
});

describe('toolbarSearchPlaceholder', () => {
  it("defaults to 'Search all datasets' and takes TOOLBAR_SEARCH_ALT_TEXT", () => {
    expect(TOOLBAR_SEARCH_PLACEHOLDER).toBe('Search all datasets');
    expect(toolbarSearchPlaceholder(null)).toBe('Search all datasets');
    expect(toolbarSearchPlaceholder({ appProperties: { TOOLBAR_SEARCH_ALT_TEXT: '  ' } })).toBe('Search all datasets');
    expect(toolbarSearchPlaceholder({ appProperties: { TOOLBAR_SEARCH_ALT_TEXT: 'Find reports' } })).toBe('Find reports');
  });
});

describe('menu labels', () => {
  it('uses MENU_ITEM_{NAME}_ALT_TEXT', () => {
    expect(menuItemAltTextKey('pipelines')).toBe('MENU_ITEM_PIPELINES_ALT_TEXT');
    expect(menuItemLabel({ appProperties: { MENU_ITEM_PIPELINES_ALT_TEXT: 'Sources' } }, 'pipelines', 'data')).toBe('Sources');
    expect(menuItemLabel({ appProperties: {} }, 'pipelines', 'data')).toBe('data');
  });
});

describe('homePage', () => {
  it("defaults to 'feed'", () => {
    expect(homePage(null)).toBe('feed');
    expect(homePage({ appProperties: {} })).toBe('feed');
    expect(homePage({ appProperties: { HOME_PAGE: '' } })).toBe('feed');
    expect(homePage({ appProperties: { HOME_PAGE: ' / ' } })).toBe('feed');
  });

  it('takes HOME_PAGE without surrounding slashes or spaces', () => {
    expect(homePage({ appProperties: { HOME_PAGE: 'news' } })).toBe('news');
    expect(homePage({ appProperties: { HOME_PAGE: ' /dashboard/ ' } })).toBe('dashboard');
    expect(homePage({ appProperties: { HOME_PAGE: 'dataset/sales/by-month' } })).toBe('dataset/sales/by-month');
  });

  it('is never empty and never starts or ends with a slash, quickly even for huge values', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (value) => {
        const started = performance.now();
        const page = homePage({ appProperties: { HOME_PAGE: value } });
        expect(performance.now() - started).toBeLessThan(1_000);
        expect(page).not.toBe('');
        expect(page.startsWith('/')).toBe(false);
        expect(page.endsWith('/')).toBe(false);
      }),
    );
  });
});

describe('isMultilineAppProperty', () => {
  it('edits the dashboard content in several lines, other properties in one', () => {
    expect(isMultilineAppProperty('DASHBOARD_CONTENT')).toBe(true);
    expect(isMultilineAppProperty(' dashboard_content ')).toBe(true);
    expect(isMultilineAppProperty('DASHBOARD_PAGE_TITLE')).toBe(false);
    expect(isMultilineAppProperty('')).toBe(false);
  });
});

describe('menu label keys (mutation testing, issue 40)', () => {
  it('a menu name with spaces around it names the same key', () => {
    expect(menuItemAltTextKey(' news ')).toBe('MENU_ITEM_NEWS_ALT_TEXT');
  });
});
