// The in-app browser escape page (open-in-browser.html); a file of its own, as the page CSP allows no inline script.
/* global URL, URLSearchParams, location, document, navigator */
// The target arrives in ?url=; only an address of this product's own origin is followed, so the
// page can never send a visitor to another site (no open redirect on our origin, issue 22).
function ownAddress(value) {
  try {
    const url = new URL(value, location.href);
    return /^https?:$/.test(url.protocol) && url.origin === location.origin ? url.href : null;
  } catch {
    return null;
  }
}
const target = ownAddress(new URLSearchParams(location.search).get('url') || '');
if (target) {
  document.getElementById('open').href = target;
  // iOS 13–14 in-app browsers ignore the Safari scheme; the Shortcuts app opens its x-error
  // URL in the default browser when the named shortcut does not exist (ADR 101).
  const ios = /iPhone OS (\d+)_/.exec(navigator.userAgent);
  if (ios && Number(ios[1]) >= 13 && Number(ios[1]) <= 14)
    location.href = 'shortcuts://x-callback-url/run-shortcut?name=open-' + Date.now() + '&x-error=' + encodeURIComponent(target);
}
