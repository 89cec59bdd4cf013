import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// One money format everywhere, admin included (issue 28): every amount on a screen goes through
// formatMoney (@gpu/shared/money: ¥, thousands separators, two decimals) or components/Price.tsx,
// which wraps the same formatter for a "¥" styled apart. This scan fails when an amount is
// formatted by hand again (today's ¥1000.00, ¥1,000, 918.80 元 and ¥15.8 came from such code).

interface Rule {
  name: string;
  pattern: RegExp;
}

const RULES: Rule[] = [
  { name: 'toFixed (decimals by hand)', pattern: /\.toFixed\(/ },
  { name: 'toLocaleString (grouping by hand)', pattern: /\.toLocaleString\(/ },
  { name: 'Intl.NumberFormat', pattern: /Intl\.NumberFormat/ },
  { name: 'formatCurrency (no thousands separators)', pattern: /\bformatCurrency\(/ },
  { name: 'formatYuan outside Price.tsx', pattern: /\bformatYuan\(/ },
  { name: '"¥" glued to a value in a template', pattern: /¥\$\{/ },
  { name: 'a value followed by 元', pattern: /\$\{[^}]*\}\s*元/ },
  { name: 'a "¥" of its own beside a figure', pattern: /<small>¥<\/small>|['"]¥['"]|>¥</ },
  { name: 'an antd Statistic with 元 as its suffix', pattern: /suffix[:=]\s*\{?\s*[\w.]*\.yuan\b/ },
];

/**
 * The places where a rule's pattern is right, each with why. Price.tsx is the formatter's web
 * wrapper; the rest are SPEC's texts or inputs (not amounts shown).
 */
const ALLOWED: { file: string; rule: string; why: string }[] = [
  {
    file: 'components/Price.tsx',
    rule: 'formatYuan outside Price.tsx',
    why: 'the wrapper itself (<0.01 for tiny prices)',
  },
  { file: 'components/Price.tsx', rule: 'a "¥" of its own beside a figure', why: 'the wrapper styles its ¥' },
  {
    file: 'locales/zh-CN.ts',
    rule: 'a value followed by 元',
    why: 'SPEC §5 recharge messages: "单笔充值金额为 100 - 100000 元之间的整数" (limits, not an amount)',
  },
  {
    file: 'features/recharge/components/AmountPicker.tsx',
    rule: 'a "¥" of its own beside a figure',
    why: 'the custom amount input’s prefix (typed, not shown money)',
  },
  {
    file: 'features/admin-ops/components/dashboard/OpsDashboard.tsx',
    rule: 'a "¥" of its own beside a figure',
    why: 'the low-balance threshold input’s prefix (typed, not shown money)',
  },
  {
    file: 'features/recharge/components/AmountPicker.tsx',
    rule: 'an antd Statistic with 元 as its suffix',
    why: 'the custom amount input’s suffix, not a Statistic',
  },
];

export interface Finding {
  file: string;
  line: number;
  rule: string;
  text: string;
}

/** Hand-made money formats in `files` (path relative to src → source), less the allowed ones. */
export function moneyFormatFindings(files: Record<string, string>): Finding[] {
  const found: Finding[] = [];
  for (const [file, source] of Object.entries(files)) {
    source.split('\n').forEach((text, i) => {
      const trimmed = text.trim();
      // Comments may quote formats (e.g. "never a made-up ¥0.00").
      if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return;
      for (const rule of RULES) {
        if (!rule.pattern.test(text)) continue;
        if (ALLOWED.some((a) => a.file === file && a.rule === rule.name)) continue;
        found.push({ file, line: i + 1, rule: rule.name, text: trimmed });
      }
    });
  }
  return found;
}

const SRC = path.resolve(import.meta.dirname, '..');
function sources(dir = SRC): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) Object.assign(out, sources(full));
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$|test-setup|test-utils/.test(e.name))
      out[path.relative(SRC, full).split(path.sep).join('/')] = readFileSync(full, 'utf8');
  }
  return out;
}

describe('one money format', () => {
  it('apps/web/src formats no amount by hand', () => {
    const files = sources();
    expect(Object.keys(files).length).toBeGreaterThan(100);
    expect(moneyFormatFindings(files)).toEqual([]);
  });

  it('every allowance still matches something (none left over from removed code)', () => {
    const files = sources();
    for (const a of ALLOWED) {
      const rule = RULES.find((r) => r.name === a.rule);
      expect(rule, a.rule).toBeDefined();
      expect(
        files[a.file]?.split('\n').some((l) => rule?.pattern.test(l)),
        `${a.file}: ${a.rule}`,
      ).toBe(true);
    }
  });

  it('finds each hand-made format it names', () => {
    const planted: Record<string, string> = {
      'features/x/A.tsx': [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: planted source text, not a template
        'const a = `¥${amount.toFixed(2)}`;',
        "const b = total.toLocaleString('zh-CN');",
        'const c = formatCurrency(v);',
        'const d = formatYuan(v);',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: planted source text, not a template
        'const e = `${formatYuan(v)} 元`;',
        '<small>¥</small>{v}',
        "{ key: 'k', value: v, precision: 2, suffix: i18n.yuan }",
        'new Intl.NumberFormat("zh-CN")',
        '// a comment may say ¥1,000.00 or toFixed(2)',
        'const ok = formatMoney(v);',
      ].join('\n'),
    };
    const rules = moneyFormatFindings(planted).map((f) => `${f.line} ${f.rule}`);
    expect(rules).toEqual([
      '1 toFixed (decimals by hand)',
      '1 "¥" glued to a value in a template',
      '2 toLocaleString (grouping by hand)',
      '3 formatCurrency (no thousands separators)',
      '4 formatYuan outside Price.tsx',
      '5 formatYuan outside Price.tsx',
      '5 a value followed by 元',
      '6 a "¥" of its own beside a figure',
      '7 an antd Statistic with 元 as its suffix',
      '8 Intl.NumberFormat',
    ]);
  });
});
