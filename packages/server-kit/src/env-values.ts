/**
 * A comma-separated configuration value as its items: trimmed, empty items dropped (`a, b,,` → a, b).
 * The one parser of such lists for the server's and the gateway's environment (issue 33).
 */
export function commaSeparated(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
