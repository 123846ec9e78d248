import { Button, Caption1, Checkbox, Input, makeStyles, MessageBar, MessageBarBody, Spinner, tokens } from '@fluentui/react-components';
import { ArrowSyncRegular, ChevronDownRegular, ChevronRightRegular, SearchRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import type { HalLike } from '../../../../../domain/hal';
import { choicesOf, rulesFor, selectRulesOf, STREAM_TEXTS, type CatalogStream, type StreamChoice } from '../../../../../domain/streamSelection';
import { extractorOf } from '../../../../../machines/streamPicker/streamPicker.machine';
import { useMachines } from '../../../../MachinesProvider';
import { pipelinesMachines } from '../../../../machineAreas/pipelines';

const useStyles = makeStyles({
  part: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, borderTop: `1px solid ${tokens.colorNeutralStroke2}`, paddingTop: tokens.spacingVerticalS },
  head: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  tools: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
  list: { display: 'flex', flexDirection: 'column', maxHeight: '420px', overflowY: 'auto' },
  stream: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0 },
  fields: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', paddingLeft: tokens.spacingHorizontalXXXL },
  muted: { color: tokens.colorNeutralForeground3 },
  count: { color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap' },
  mono: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
});

/** Past this many streams a filter helps find one. */
const FILTER_FROM = 8;

/**
 * An extractor's streams in the pipeline editor (issue 37, item 6): what its own discovery listed
 * for the saved settings, ticked by the `select` rules in force; a tick writes the rules as the
 * `{extractor}._select` property, which Save keeps with the pipeline. The machine reads the streams
 * and runs the discovery; this view only renders and turns ticks into rules.
 */
export function StreamPicker({ pipeline, component, value, disabled, onChange }: { pipeline: HalLike | null; component: string; value: unknown; disabled: boolean; onChange: (value: string | undefined) => void }) {
  const styles = useStyles();
  if (pipeline === null) {
    return (
      <div className={styles.part} role="group" aria-label={`Streams of ${component}`}>
        <strong>{STREAM_TEXTS.title}</strong>
        <Caption1 className={styles.muted}>{STREAM_TEXTS.saveFirst}</Caption1>
      </div>
    );
  }
  return <SavedStreams pipeline={pipeline} component={component} value={value} disabled={disabled} onChange={onChange} />;
}

function SavedStreams({ pipeline, component, value, disabled, onChange }: { pipeline: HalLike; component: string; value: unknown; disabled: boolean; onChange: (value: string | undefined) => void }) {
  const styles = useStyles();
  const machines = useMachines(pipelinesMachines);
  const picker = useActorRef(machines.streamPicker, { input: { pipeline, component } });
  const extractor = useSelector(picker, (s) => extractorOf(s.context));
  const message = useSelector(picker, (s) => s.context.message);
  const loading = useSelector(picker, (s) => s.matches('loading'));
  const failed = useSelector(picker, (s) => s.matches('failed'));
  const discovering = useSelector(picker, (s) => s.matches('starting') || s.matches('waiting') || s.matches('checking'));
  const canDiscover = useSelector(picker, (s) => s.can({ type: 'user.discover' }));
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  // the pipeline's rules as being edited, else those the server has in force (a repository's own), else everything
  const rules = selectRulesOf(value) ?? extractor?.select ?? undefined;
  const streams: CatalogStream[] = extractor?.streams ?? [];
  const choices = choicesOf(streams, rules ?? undefined);
  const chosen = new Map(choices.map((c) => [c.stream, c]));
  const write = (next: StreamChoice[]) => onChange(JSON.stringify(rulesFor(next, streams)));
  const toggleStream = (stream: CatalogStream, on: boolean) => write(on ? [...choices.filter((c) => c.stream !== stream.name), { stream: stream.name, properties: 'all' }] : choices.filter((c) => c.stream !== stream.name));
  const toggleField = (stream: CatalogStream, field: string, on: boolean) => {
    const current = chosen.get(stream.name);
    const names = current === undefined ? [] : current.properties === 'all' ? stream.properties.map((p) => p.name) : current.properties;
    const next = on ? [...names, field] : names.filter((n) => n !== field);
    write([...choices.filter((c) => c.stream !== stream.name), { stream: stream.name, properties: next }]);
  };
  const shown = filter.trim() === '' ? streams : streams.filter((s) => s.name.toLowerCase().includes(filter.trim().toLowerCase()));

  return (
    <div className={styles.part} role="group" aria-label={`Streams of ${component}`}>
      <div className={styles.head}>
        <strong>{STREAM_TEXTS.title}</strong>
        <div className={styles.tools}>
          {extractor?.streams && (
            <>
              <Button size="small" appearance="subtle" disabled={disabled} onClick={() => write(streams.map((s) => ({ stream: s.name, properties: 'all' })))}>Select all</Button>
              <Button size="small" appearance="subtle" disabled={disabled} onClick={() => write([])}>Clear</Button>
            </>
          )}
          <Button size="small" icon={discovering ? <Spinner size="extra-tiny" /> : <ArrowSyncRegular />} disabled={!canDiscover || disabled} onClick={() => picker.send({ type: 'user.discover' })}>
            {extractor?.streams ? STREAM_TEXTS.discoverAgain : STREAM_TEXTS.discover}
          </Button>
        </div>
      </div>
      {loading && <Spinner size="tiny" label="Loading streams" labelPosition="after" />}
      {discovering && <Caption1 role="status">{STREAM_TEXTS.discovering}</Caption1>}
      {message !== null && (
        <MessageBar intent={failed ? 'error' : 'warning'} role="alert">
          <MessageBarBody>{message}</MessageBarBody>
        </MessageBar>
      )}
      {failed && <Button size="small" onClick={() => picker.send({ type: 'user.retry' })}>Try again</Button>}
      {!loading && !failed && extractor && !extractor.streams && <Caption1 className={styles.muted}>{canDiscover || discovering ? STREAM_TEXTS.notDiscovered : STREAM_TEXTS.saveFirst}</Caption1>}
      {extractor?.streams && (
        <>
          <Caption1 className={styles.muted}>
            {rules === undefined ? STREAM_TEXTS.everything : `${choices.length} of ${streams.length} streams selected`}
            {extractor.discovered ? ` · discovered ${new Date(extractor.discovered).toLocaleString()}` : ''}
          </Caption1>
          {streams.length > FILTER_FROM && <Input size="small" contentBefore={<SearchRegular />} placeholder="Filter streams" aria-label="Filter streams" value={filter} onChange={(_, d) => setFilter(d.value)} />}
          <div className={styles.list}>
            {shown.map((stream) => {
              const choice = chosen.get(stream.name);
              const expanded = open.has(stream.name);
              const picked = choice === undefined ? 0 : choice.properties === 'all' ? stream.properties.length : choice.properties.length;
              return (
                <div key={stream.name}>
                  <div className={styles.stream}>
                    <Button
                      size="small"
                      appearance="transparent"
                      aria-label={`${expanded ? 'Hide' : 'Show'} the fields of ${stream.name}`}
                      aria-expanded={expanded}
                      icon={expanded ? <ChevronDownRegular /> : <ChevronRightRegular />}
                      onClick={() => setOpen((was) => (was.has(stream.name) ? new Set([...was].filter((n) => n !== stream.name)) : new Set([...was, stream.name])))}
                    />
                    <Checkbox
                      className={styles.mono}
                      label={stream.name}
                      disabled={disabled}
                      checked={choice === undefined ? false : choice.properties === 'all' ? true : 'mixed'}
                      onChange={(_, d) => toggleStream(stream, d.checked === true)}
                    />
                    <Caption1 className={styles.count}>
                      {picked} of {stream.properties.length} fields
                    </Caption1>
                  </div>
                  {expanded && (
                    <div className={styles.fields} role="group" aria-label={`Fields of ${stream.name}`}>
                      {stream.properties.map((p) => (
                        <Checkbox
                          key={p.name}
                          className={styles.mono}
                          label={`${p.name}${p.type ? ` · ${p.type}` : ''}${p.automatic ? ' · key' : ''}`}
                          disabled={disabled || p.automatic}
                          checked={choice !== undefined && (choice.properties === 'all' || choice.properties.includes(p.name))}
                          onChange={(_, d) => toggleField(stream, p.name, d.checked === true)}
                        />
                      ))}
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        </>
      )}
    </div>
  );
}
