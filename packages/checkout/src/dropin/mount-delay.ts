/** Delay before mounting the drop-in on the paywall (checkout-spec §2, §9); one constant for the SDK and its React bindings. */
export const MOUNT_DELAY_MS = 50;
