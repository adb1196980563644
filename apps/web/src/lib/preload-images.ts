/** The fixed image list preloaded at start-up outside the webapp area (product-spec §2). */
export const PRELOADED_IMAGES = [
  'images/walkthrough-1.svg',
  'images/walkthrough-2.svg',
  'images/walkthrough-3.svg',
  'images/face-guide.svg',
] as const;

/**
 * Starts loading every image so later screens show them at once. A failure is only logged.
 * @returns a promise that settles when every image has loaded or failed (never rejects).
 */
export function preloadImages(urls: readonly string[] = PRELOADED_IMAGES, log: Pick<Console, 'warn'> = console): Promise<void> {
  return Promise.all(
    urls.map(
      (url) =>
        new Promise<void>((resolve) => {
          const image = new Image();
          image.onload = () => resolve();
          image.onerror = () => {
            log.warn(`[roots] image preload failed: ${url}`);
            resolve();
          };
          image.src = url;
        }),
    ),
  ).then(() => undefined);
}
