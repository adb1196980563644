/** en-US copy of account access outside the webapp: access recovery and the not-exist modal. */
export const ACCOUNT_EN_US = {} as const;
