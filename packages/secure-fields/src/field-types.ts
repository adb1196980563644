/** The secure-field frame types: one html + js each. No DOM types here (the gateway imports this). */
export const FIELD_TYPES = ['card-number', 'cardholder-name', 'cvv', 'expiry-date', 'expiry-month', 'expiry-year'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
