import { describe, expect, it } from 'vitest';
import { judgedRatio, median } from '../../bench/util';

describe('a bench ratio printed beside its verdict', () => {
  it('has two decimals when they tell the verdict', () => {
    expect(judgedRatio(0.913, 0.9, '>=')).toBe('0.91x (>= 0.9x)');
    expect(judgedRatio(0.874, 1, '<=')).toBe('0.87x (<= 1x)');
  });

  it('has three where two would round it across the limit', () => {
    expect(judgedRatio(0.896, 0.9, '>=')).toBe('0.896x (>= 0.9x)');
    expect(judgedRatio(1.004, 1, '<=')).toBe('1.004x (<= 1x)');
    expect(judgedRatio(1.2049, 1.2, '<=')).toBe('1.205x (<= 1.2x)');
  });
});

describe('the median a bench ratio is judged by', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(median([1.3, 0.9, 1.0])).toBe(1.0);
    expect(median([1.2, 0.8, 1.0, 0.9])).toBeCloseTo(0.95, 10);
    expect(median([])).toBeNaN();
  });
});
