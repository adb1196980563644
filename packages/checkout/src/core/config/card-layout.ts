import { CheckoutError } from '../errors/checkout-error';

/** Card form fields of the client (checkout-spec §3). */
export const CARD_FIELDS = ['cardholder_name', 'card_number', 'expiry_month', 'expiry_year', 'expiry_date', 'security_code'] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** Default placeholders (checkout-spec §2). */
export const DEFAULT_PLACEHOLDERS: Record<CardField, string> = {
  cardholder_name: 'Card holder',
  card_number: '1234 1234 1234 1234',
  expiry_month: 'MM',
  expiry_year: 'YY',
  expiry_date: 'MM/YY',
  security_code: 'CVC',
};

export type CardLayoutOptions = { showCardHolderName?: boolean; showSingleExpiryDateField?: boolean; layout?: CardField[][] };

/**
 * The card form's rows. Default: [holder name] when shown, card number, then expiry + CVV with a
 * single expiry field (2 rows) or month, year and CVV (3 rows). A custom layout may not repeat a field.
 */
export function cardLayout(options: CardLayoutOptions = {}): CardField[][] {
  if (options.layout) {
    const seen = new Set<string>();
    for (const row of options.layout) {
      if (!Array.isArray(row)) throw new CheckoutError('INVALID_LAYOUT', 'a card layout is a list of rows of field types');
      for (const field of row) {
        if (!CARD_FIELDS.includes(field)) throw new CheckoutError('INVALID_ELEMENT_TYPE', `unknown card field ${String(field)}`);
        if (seen.has(field)) throw new CheckoutError('DUPLICATE_LAYOUT_FIELD', `field ${field} appears twice in the layout`);
        seen.add(field);
      }
    }
    return options.layout;
  }
  const rows: CardField[][] = [];
  if (options.showCardHolderName) rows.push(['cardholder_name']);
  rows.push(['card_number']);
  if (options.showSingleExpiryDateField ?? true) rows.push(['expiry_date', 'security_code']);
  else rows.push(['expiry_month', 'expiry_year'], ['security_code']);
  return rows;
}
