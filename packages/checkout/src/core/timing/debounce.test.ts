import { describe, expect, it, vi } from 'vitest';
import { debounce } from './debounce';

describe('debounce', () => {
  it('runs once, with the latest arguments, after calls stop for the wait', () => {
    vi.useFakeTimers();
    try {
      const run = vi.fn();
      const debounced = debounce(run, 300);
      debounced('a');
      vi.advanceTimersByTime(299);
      debounced('b');
      vi.advanceTimersByTime(299);
      expect(run).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(run).toHaveBeenCalledExactlyOnceWith('b');
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancel drops the pending run', () => {
    vi.useFakeTimers();
    try {
      const run = vi.fn();
      const debounced = debounce(run, 300);
      debounced();
      debounced.cancel();
      vi.advanceTimersByTime(1_000);
      expect(run).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
