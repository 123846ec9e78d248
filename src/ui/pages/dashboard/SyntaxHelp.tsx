import { Accordion, AccordionHeader, AccordionItem, AccordionPanel, Body1, makeStyles, tokens } from '@fluentui/react-components';
import { BLOCK_MARKER } from '../../../domain/dashboard/blocks';

// A short reference of what DASHBOARD_CONTENT may hold: the components the renderer knows
// (src/domain/dashboard/allow.ts) with their props, and how the builder separates blocks.

const COMPONENTS: readonly { readonly example: string; readonly what: string }[] = [
  { example: '<DatasetChart alias="monthly-sales" />', what: 'the dataset’s chart; add showTable to show its rows below' },
  { example: '<DatasetData alias="monthly-sales" />', what: 'the dataset’s rows as a table' },
  { example: '<DatasetLink alias="monthly-sales">Open sales</DatasetLink>', what: 'a link to the dataset’s page' },
  { example: '<DownloadDataset alias="monthly-sales" tooltip="Sales as CSV" />', what: 'a button that downloads the dataset as CSV' },
  { example: '<Back />', what: 'a button that goes back' },
  { example: '## A heading\n\nSome **markdown** text.', what: 'text is markdown; plain HTML tags such as <div> and <p> are allowed, scripts and event handlers are not' },
  { example: `first text\n\n${BLOCK_MARKER}\n\nsecond text`, what: 'separates two text blocks; a component on its own line is a block by itself' },
  { example: `<div style={{ display: 'flex', gap: 16 }}>…</div>`, what: 'props are literal values only: strings, numbers, true/false, lists and objects; nothing in braces is ever run' },
];

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, margin: 0, paddingLeft: tokens.spacingHorizontalL },
  code: { display: 'block', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, backgroundColor: tokens.colorNeutralBackground3, padding: tokens.spacingHorizontalXS, borderRadius: tokens.borderRadiusSmall },
});

export function SyntaxHelp() {
  const styles = useStyles();
  return (
    <Accordion collapsible>
      <AccordionItem value="help">
        <AccordionHeader size="small">Syntax help</AccordionHeader>
        <AccordionPanel>
          <ul className={styles.list}>
            {COMPONENTS.map(({ example, what }) => (
              <li key={example}>
                <code className={styles.code}>{example}</code>
                <Body1>{what}</Body1>
              </li>
            ))}
          </ul>
        </AccordionPanel>
      </AccordionItem>
    </Accordion>
  );
}
