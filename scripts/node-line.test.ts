import { describe, expect, it } from 'vitest';
import { NODE_24, SUPPORTED_LINES, nodeSupport } from './lib/node-lines.mjs';

describe('supported Node lines (issue 26)', () => {
  it('supports the maintained LTS lines, warns on Node 20, refuses what cannot run the product', () => {
    expect(SUPPORTED_LINES.map((line) => line.major)).toEqual([22, 24]);
    expect(['v22.12.0', 'v22.20.1', 'v24.0.0', 'v24.21.0', 'v26.1.0'].map(nodeSupport)).toEqual(Array(5).fill('supported'));
    expect(['v20.19.0', 'v20.20.0'].map(nodeSupport)).toEqual(['end-of-life', 'end-of-life']);
    expect(['v18.20.4', 'v20.18.0', 'v22.11.0', 'v21.7.3'].map(nodeSupport)).toEqual(Array(4).fill('unsupported'));
    expect(nodeSupport(`v${NODE_24}`)).toBe('supported');
  });
});
