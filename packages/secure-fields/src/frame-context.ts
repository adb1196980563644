/** What a secure-field frame knows about where it runs, read once from its URL. */
export type FrameContext = {
  /** The frame's id, as the parent named it. */
  frameId: string;
  /** The embedding page's origin: the only one messages go to or are accepted from. */
  parentOrigin: string;
  /** The same-origin channel shared by the frames of one form. */
  channel: BroadcastChannel;
};

/**
 * Opens a frame's context from its URL (`id`, `origin`, `channel`), or refuses to run: outside an
 * iframe, without an id or parent origin, or embedded by another origin than the URL names, the
 * frame shows a notice and returns null.
 */
export function openFrameContext(win: Window & typeof globalThis, href: string): FrameContext | null {
  const params = new URL(href).searchParams;
  const frameId = params.get('id') ?? '';
  const parentOrigin = params.get('origin') ?? '';
  const ancestors = win.location.ancestorOrigins as DOMStringList | undefined;
  if (!frameId || !parentOrigin || win.parent === win || (ancestors && ancestors.length > 0 && ancestors[0] !== parentOrigin)) {
    win.document.body.textContent = 'This secure field works only inside the checkout.';
    return null;
  }
  return { frameId, parentOrigin, channel: new win.BroadcastChannel(`roots-sf:${params.get('channel') ?? frameId}`) };
}
