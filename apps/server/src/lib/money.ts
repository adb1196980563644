/** USD amount (e.g. 24.99) to minor units (2499), rounding half away from zero. */
export function toMinor(amount: number): number {
  return Math.round(amount * 100 + Number.EPSILON);
}

export function fromMinor(minor: number): number {
  return minor / 100;
}

/** Minor units as an amount with cents, for emails and receipts: 100 → "$1.00" (the paywall's `formatUsd` takes dollars). */
export function formatMinorUsd(minor: number): string {
  return `$${(minor / 100).toFixed(2)}`;
}
