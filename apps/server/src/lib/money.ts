/** USD amount (e.g. 24.99) to minor units (2499), rounding half away from zero. */
export function toMinor(amount: number): number {
  return Math.round(amount * 100 + Number.EPSILON);
}

export function fromMinor(minor: number): number {
  return minor / 100;
}

export function formatUsd(minor: number): string {
  return `$${(minor / 100).toFixed(2)}`;
}
