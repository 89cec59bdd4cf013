import { describe, expect, it } from 'vitest';
import { parseBlocks } from './Markdown';

describe('parseBlocks', () => {
  it('reads headings, paragraphs, code fences and tables (with escaped pipes)', () => {
    const source = [
      '第一段',
      '接着一行',
      '',
      '## 认证',
      '```json',
      '{ "a": 1 }',
      '```',
      '| HTTP | message |',
      '| --- | --- |',
      '| 400 | a \\| b |',
      '| 404 | `x` |',
      '结尾',
    ].join('\n');
    expect(parseBlocks(source)).toEqual([
      { kind: 'paragraph', text: '第一段 接着一行' },
      { kind: 'heading', text: '认证' },
      { kind: 'code', text: '{ "a": 1 }' },
      {
        kind: 'table',
        head: ['HTTP', 'message'],
        rows: [
          ['400', 'a | b'],
          ['404', '`x`'],
        ],
      },
      { kind: 'paragraph', text: '结尾' },
    ]);
  });
});
