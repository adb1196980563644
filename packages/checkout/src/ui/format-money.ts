import type { Amount } from '@roots/contracts/gateway';

/** Minor units → '$24.99' (en-US). */
export function formatMoney(amount: Amount, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: amount.currency }).format(amount.value / 100);
}
