import { describe, expect, it } from 'vitest';
import { EPISODE_COLUMN_TYPES } from './episode-row.js';
import { axisTypes, columnOrder, columnType, NULLABLE_COLUMNS } from './episode-schema.js';

describe('episode schema', () => {
  const axes = axisTypes({ slack: { type: 'continuous', values: [4, 8] }, strictness: { type: 'categorical', values: ['strict'] } });

  it('orders the columns run_id, condition, the axes by name, then the fixed tail', () => {
    expect(columnOrder(axes)).toEqual(['run_id', 'condition', 'slack', 'strictness', 'replicate_index', 'seed', 'outcome', 't', 'score', 'error', 'meta', 'duration_ms']);
  });

  it('types the fixed columns as the documented EPISODE_COLUMN_TYPES, and the axes by their type', () => {
    for (const [column, documented] of Object.entries(EPISODE_COLUMN_TYPES)) {
      expect([column, columnType(column, axes)]).toEqual([column, documented.split(' ')[0]]);
      expect([column, NULLABLE_COLUMNS.has(column)]).toEqual([column, documented.endsWith('(nullable)')]);
    }
    expect(columnType('slack', axes)).toBe('double');
    expect(columnType('strictness', axes)).toBe('utf8');
  });
});
