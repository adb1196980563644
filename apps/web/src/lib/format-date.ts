import { longDate as sharedLongDate } from '@roots/contracts/subscription-words';

/** A date as a customer reads it on an account or cancel screen: "November 26, 2026", the format of the emails too (issue 35). */
export function longDate(iso: string): string {
  return sharedLongDate(iso);
}
