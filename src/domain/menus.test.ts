import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { featureSwitches } from './features';
import { appMenu, helpIcon, isSafeMenuPath, labMenu, parseAppMenuItems } from './menus';

const ws = (appProperties: Record<string, string> = {}) => ({ id: 'w1', appProperties });
const none = featureSwitches('', null);

describe('labMenu', () => {
  it('lists the spec entries in order with pipelines labelled data', () => {
    const items = labMenu(ws(), none);
    expect(items.map((i) => i.name)).toEqual(['pipelines', 'project', 'datasets', 'channels', 'datastores', 'dataplugins', 'settings', 'help']);
    expect(items[0]?.label).toBe('Data');
  });
  it('takes labels from MENU_ITEM_{NAME}_ALT_TEXT', () => {
    const items = labMenu(ws({ MENU_ITEM_PIPELINES_ALT_TEXT: 'Imports' }), none);
    expect(items[0]?.label).toBe('Imports');
  });
  it('hides entries disabled by the profile and project when LAB_PROJECT is off', () => {
    const items = labMenu(ws(), featureSwitches('LAB_PROJECT', { featuresDisabled: 'DATASTORES,help' }));
    expect(items.map((i) => i.name)).toEqual(['pipelines', 'datasets', 'channels', 'dataplugins', 'settings']);
  });
  it('uses HELP_CUSTOM_FA_MENU_ICON for the help icon', () => {
    expect(labMenu(ws({ HELP_CUSTOM_FA_MENU_ICON: 'fa-life-ring' }), none).at(-1)?.icon).toBe('fa-life-ring');
    expect(helpIcon(ws({ HELP_CUSTOM_FA_MENU_ICON: '   ' }))).toBe('help');
  });
});

describe('appMenu', () => {
  it('defaults to the app areas, honouring global switches', () => {
    expect(appMenu(ws(), none).map((i) => i.path)).toContain('feed');
    expect(appMenu(ws(), featureSwitches('NEWS,STARRED,LIBRARY', null)).map((i) => i.name)).toEqual(['home', 'explore', 'channels', 'dashboard', 'help']);
  });
  it('is replaced by a valid APP_MENU_ITEMS', () => {
    const items = appMenu(ws({ APP_MENU_ITEMS: JSON.stringify([{ name: 'kpi', path: 'dashboard', faIcon: 'fa-chart-bar', label: 'KPIs' }]) }), none);
    expect(items).toEqual([{ name: 'kpi', path: 'dashboard', icon: 'fa-chart-bar', label: 'KPIs' }]);
  });
  it('ignores malformed APP_MENU_ITEMS', () => {
    for (const bad of ['{', '[]', '{"name":"x"}', '[{"name":1}]', 'null']) {
      expect(appMenu(ws({ APP_MENU_ITEMS: bad }), none)[0]?.name).toBe('home');
    }
  });
  it('drops entries whose path could leave the app', () => {
    expect(parseAppMenuItems(JSON.stringify([{ name: 'x', path: 'javascript:alert(1)' }, { name: 'y', path: '//evil.example' }, { name: 'z', path: 'feed' }]))?.map((i) => i.name)).toEqual(['z']);
  });
  it('never throws and never yields an unsafe path', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const items = parseAppMenuItems(text) ?? [];
        for (const item of items) expect(isSafeMenuPath(item.path)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.record({ name: fc.string({ minLength: 1 }), path: fc.string({ minLength: 1 }) })), (entries) => {
        for (const item of parseAppMenuItems(JSON.stringify(entries)) ?? []) {
          expect(item.path.toLowerCase().startsWith('javascript:')).toBe(false);
          expect(item.path.startsWith('//')).toBe(false);
        }
      }),
    );
  });
});

describe('menus, entry by entry', () => {
  it('gives each Lab entry its own icon, help its configured one', () => {
    expect(labMenu(ws({ HELP_CUSTOM_FA_MENU_ICON: 'fa-life-ring' }), none)).toEqual([
      { name: 'pipelines', label: 'Data', path: 'pipelines', icon: 'data' },
      { name: 'project', label: 'Project', path: 'project', icon: 'project' },
      { name: 'datasets', label: 'Datasets', path: 'datasets', icon: 'datasets' },
      { name: 'channels', label: 'Channels', path: 'channels', icon: 'channels' },
      { name: 'datastores', label: 'Data Stores', path: 'datastores', icon: 'datastores' },
      { name: 'dataplugins', label: 'Plugins', path: 'dataplugins', icon: 'dataplugins' },
      { name: 'settings', label: 'Settings', path: 'settings', icon: 'settings' },
      { name: 'help', label: 'Help', path: 'help', icon: 'fa-life-ring' },
    ]);
  });

  it('gives each app entry its name as icon, help its configured one', () => {
    expect(appMenu(ws({ HELP_CUSTOM_FA_MENU_ICON: 'fa-life-ring' }), none)).toEqual([
      { name: 'home', label: 'Home', path: 'feed', icon: 'home' },
      { name: 'explore', label: 'Explore', path: 'explore', icon: 'explore' },
      { name: 'news', label: 'News', path: 'news', icon: 'news' },
      { name: 'starred', label: 'Starred', path: 'starred', icon: 'starred' },
      { name: 'channels', label: 'Channels', path: 'channels', icon: 'channels' },
      { name: 'library', label: 'Library', path: 'library', icon: 'library' },
      { name: 'dashboard', label: 'Dashboard', path: 'dashboard', icon: 'dashboard' },
      { name: 'help', label: 'Help', path: 'help', icon: 'fa-life-ring' },
    ]);
  });

  it('reads no APP_MENU_ITEMS as none, and trims the paths it keeps', () => {
    expect(parseAppMenuItems(undefined)).toBeUndefined();
    expect(parseAppMenuItems(JSON.stringify([{ name: 'x', path: ' feed ' }]))).toEqual([{ name: 'x', label: 'x', path: 'feed', icon: 'x' }]);
  });

  it('accepts a path with spaces around it, and no path with a space or a character outside its set inside', () => {
    expect(isSafeMenuPath(' feed ')).toBe(true);
    expect(isSafeMenuPath('a b')).toBe(false);
    expect(isSafeMenuPath('feed<')).toBe(false);
    expect(isSafeMenuPath('<feed')).toBe(false);
  });
});
