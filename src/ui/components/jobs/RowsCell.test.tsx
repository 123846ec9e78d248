// @vitest-environment happy-dom
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_RUN_TEXTS } from '../../../domain/firstRun';
import { jobSchema, type Job } from '../../../domain/resources';
import { RowsCell } from './RowsCell';

const show = (job: Pick<Job, 'rowsLoaded' | 'rowsByStream'>) =>
  render(
    <FluentProvider theme={webLightTheme}>
      <RowsCell job={job} label="job 1 Nov" />
    </FluentProvider>,
  ).container;

afterEach(cleanup);
// happy-dom's Web Animations reject when a popover's motion is cut short at unmount; without
// `animate` Fluent skips the motion, and what is tested here is what the popover holds
beforeAll(() => Object.defineProperty(HTMLElement.prototype, 'animate', { value: undefined, configurable: true }));
afterAll(() => Reflect.deleteProperty(HTMLElement.prototype, 'animate'));

describe("a job's Rows cell", () => {
  it('shows the total, and opens the rows per stream when it is pressed (a tap or a click, not a hover), most first', async () => {
    const container = show({ rowsLoaded: 1234, rowsByStream: { orders: 1000, customers: 200, web_sessions: 34 } });
    const button = screen.getByRole('button', { name: /rows: by stream, job 1 Nov/ });
    expect(button.textContent).toBe((1234).toLocaleString());
    expect(container.querySelector('dl')).toBeNull();
    fireEvent.click(button);
    const surface = await screen.findByRole('group', { name: 'Rows by stream, job 1 Nov' });
    expect([...surface.querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['orders', 'customers', 'web_sessions']);
    expect([...surface.querySelectorAll('dd')].map((d) => d.textContent)).toEqual([(1000).toLocaleString(), '200', '34']);
    // rows merged on their keys are deliberate, and said where the count is read (issue 38)
    expect(surface.textContent).toContain(FIRST_RUN_TEXTS.rowsMerged);
    // and closes with Escape, as a press outside does
    fireEvent.keyDown(surface, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Rows by stream, job 1 Nov' })).toBeNull());
  });

  it('shows the total alone for a job that counted no stream, and nothing without a total', () => {
    expect(show({ rowsLoaded: 42, rowsByStream: {} }).textContent).toBe('42');
    cleanup();
    expect(show({ rowsLoaded: 7 }).querySelector('button')).toBeNull();
    cleanup();
    expect(show({ rowsLoaded: null }).textContent).toBe('');
  });

  it("says which rows no stream accounts for (a stream named __proto__ does not survive the body's parse)", async () => {
    const job = jobSchema.parse({ id: 'j', type: 'PIPELINE_RUN', status: 'COMPLETE', created: 'x', rowsLoaded: 5, rowsByStream: JSON.parse('{"orders": 3, "__proto__": 2}') as unknown, _links: {} });
    show(job);
    fireEvent.click(screen.getByRole('button'));
    const surface = await screen.findByRole('group', { name: 'Rows by stream, job 1 Nov' });
    expect([...surface.querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['orders', 'not by stream']);
    expect([...surface.querySelectorAll('dd')].map((d) => d.textContent)).toEqual(['3', '2']);
    fireEvent.keyDown(surface, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Rows by stream, job 1 Nov' })).toBeNull());
  });
});
