/**
 * jsdom has the `<dialog>` element but not its modal methods: a stand-in for the browser's own
 * `showModal()` and `close()` (the attribute and the `close` event), so the components that use the
 * app's dialog (components/ui/dialog.tsx) render in unit tests. The browser journeys run the real one.
 */
if (typeof HTMLDialogElement !== 'undefined' && typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}
