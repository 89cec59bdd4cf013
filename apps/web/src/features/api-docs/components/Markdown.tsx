import type { ReactNode } from 'react';
import styles from './Markdown.module.css';

/**
 * The little Markdown the API document's introduction uses (headings, paragraphs, code fences,
 * tables, `code` and **bold**), as React elements: never as HTML, so the text cannot inject
 * markup, and no Markdown library in the bundle.
 */
export type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'table'; head: string[]; rows: string[][] }
  | { kind: 'paragraph'; text: string };

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replaceAll('\\|', '|'));

/** The blocks of `source`, line by line. */
export function parseBlocks(source: string): Block[] {
  const lines = source.split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('```')) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? '').startsWith('```'); i++) code.push(lines[i] ?? '');
      blocks.push({ kind: 'code', text: code.join('\n') });
    } else if (/^#{1,6} /.test(line)) {
      flush();
      blocks.push({ kind: 'heading', text: line.replace(/^#+ /, '') });
    } else if (line.trim().startsWith('|')) {
      flush();
      const table: string[] = [];
      for (; i < lines.length && (lines[i] ?? '').trim().startsWith('|'); i++) table.push(lines[i] ?? '');
      i--;
      const [head = '', , ...rows] = table;
      blocks.push({ kind: 'table', head: cells(head), rows: rows.map(cells) });
    } else if (line.trim() === '') flush();
    else paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

/** `code` and **bold** inside a line. */
function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).map((part, i) => {
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
    if (part.startsWith('`') && part.endsWith('`')) return <code key={i}>{part.slice(1, -1)}</code>;
    // biome-ignore lint/suspicious/noArrayIndexKey: as above
    if (part.startsWith('**') && part.endsWith('**')) return <strong key={i}>{part.slice(2, -2)}</strong>;
    return part;
  });
}

export function Markdown({ source }: { source: string }) {
  return (
    <div className={styles.markdown}>
      {parseBlocks(source).map((b, i) => {
        const key = `${b.kind}-${i}`;
        if (b.kind === 'heading') return <h3 key={key}>{inline(b.text)}</h3>;
        if (b.kind === 'code') return <pre key={key}>{b.text}</pre>;
        if (b.kind === 'paragraph') return <p key={key}>{inline(b.text)}</p>;
        return (
          <div key={key} className={styles.tableWrap}>
            <table>
              <thead>
                <tr>
                  {b.head.map((h) => (
                    <th key={h}>{inline(h)}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {b.rows.map((row, r) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows of one fixed text
                  <tr key={r}>
                    {row.map((c, j) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: cells of one fixed row
                      <td key={j}>{inline(c)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </div>
  );
}
