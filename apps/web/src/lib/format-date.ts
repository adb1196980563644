/** A date as a customer reads it on an account or cancel screen: "November 26, 2026". */
export function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
