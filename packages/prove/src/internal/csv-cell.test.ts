import { describe, expect, it } from 'vitest';
import { formatExportMarkdown, type ExportTable } from '../diff/export.js';
import { mdCell } from './csv-cell.js';

// A review (first session of 2026-12-06): `export --md` escaped only "|" in labels, so a categorical axis
// value `<img src=x onerror=alert(1)>` reached a Markdown renderer that allows raw HTML as an element, and
// `**not bold** _x_` as strong and emphasis. A label must read as the literal text.
describe('mdCell', () => {
  it('writes markup as entities and Markdown punctuation with backslashes, so the text reads literally', () => {
    expect(mdCell('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(mdCell('**not bold** _x_')).toBe('\\*\\*not bold\\*\\* \\_x\\_');
    expect(mdCell('a & b &amp; c')).toBe('a &amp; b &amp;amp; c');
    expect(mdCell('`code` [link](u) ![i](u) ~~s~~ # \\ |')).toBe('\\`code\\` \\[link\\](u) \\!\\[i\\](u) \\~\\~s\\~\\~ \\# \\\\ \\|');
    // A line break would end the table row: written as a character reference.
    expect(mdCell('one\ntwo\r\n')).toBe('one&#10;two&#13;&#10;');
  });

  it('leaves plain labels as they are', () => {
    expect(mdCell('slack 2 · strictness strict')).toBe('slack 2 · strictness strict');
    // Underscores inside a word cannot start emphasis: snake_case axis names stay readable.
    expect(mdCell('prompt_variant skeptical · generator__hash f00c')).toBe('prompt_variant skeptical · generator__hash f00c');
    expect(mdCell('_lead trail_ a_ _b')).toBe('\\_lead trail\\_ a\\_ \\_b');
    expect(mdCell('temperature 0.7 · model gpt-4o (2024-08-06)')).toBe('temperature 0.7 · model gpt-4o (2024-08-06)');
  });

  it('export --md writes a hostile label as literal text in its table row', () => {
    const table = {
      rows: [{ run_id: 'r1', run_name: 'run *one*', condition: 'variant <img src=x onerror=alert(1)>', episodes: 2, without_outcome: 0, mean_t: 1, outcomes: [{ outcome: 'passed', count: 2, rate: 1, lower: 0.34, upper: 1 }] }],
      outcomes: ['passed'],
      level: 0.95,
    } as unknown as ExportTable;
    const md = formatExportMarkdown(table);
    expect(md).toContain('## run \\*one\\* (r1)\n');
    expect(md).toContain('| variant &lt;img src=x onerror=alert(1)&gt; | 2 | 0 |');
    expect(md).not.toContain('<img');
  });
});

// The session's own review: export --md left bidirectional controls in a label, and a Markdown preview
// applied them to the text after it.
describe('mdCell and bidirectional controls', () => {
  it('shows them as code points', () => {
    expect(mdCell('name \u202Eright-to-left')).toBe('name \u27E8U+202E\u27E9right-to-left');
    expect(mdCell('a|b\u2066')).toBe('a\\|b\u27E8U+2066\u27E9');
  });
});
