/**
 * The test merchant's checkout page. Query: `mode=dropin|card|collect`, `holder`, `methods`, `amount`;
 * `address=refuse` makes the PayPal delivery-address callback refuse the buyer's address.
 * `ttl` gives the session's first token that many seconds. `collect` lays out a collect container of non-card elements and a Collect button.
 * It records every SDK event in `window.__rootsEvents`; the collect container or the drop-in is `window.__rootsCheckout`. On a return from a hosted page it reuses
 * the session kept in sessionStorage.
 */
export function merchantPage(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Roots test merchant</title>
<style>body{font-family:system-ui,sans-serif;max-width:480px;margin:24px auto;padding:0 16px}</style></head>
<body>
<main>
<h1>Subscribe</h1>
<div id="checkout"></div>
</main>
<script type="module">
import { initCheckout, MOUNT_DELAY_MS } from '/roots-checkout.js';
const params = new URLSearchParams(location.search);
window.__rootsEvents = [];
let session = params.has('roots-return') ? JSON.parse(sessionStorage.getItem('test-session') || 'null') : null;
if (!session) {
  const query = new URLSearchParams();
  for (const key of ['holder', 'methods', 'amount', 'ttl']) if (params.get(key)) query.set(key, params.get(key));
  session = await (await fetch('/init/session?' + query)).json();
  sessionStorage.setItem('test-session', JSON.stringify(session));
}
// getBearerToken trades the session's latest token for a fresh one of the same session.
let latestToken = session.bearerToken;
const getBearerToken = async () => {
  const answer = await fetch('/init/session/token', { method: 'POST', body: JSON.stringify({ bearer_token: latestToken }) });
  if (!answer.ok) return undefined;
  latestToken = (await answer.json()).bearerToken;
  window.__rootsEvents.push({ name: 'tokenRefreshed', payload: {} });
  return latestToken;
};
const checkout = initCheckout({ session, getBearerToken, options: { env: 'SANDBOX', logLevel: 'WARN' } });
const mode = params.get('mode') || 'dropin';
if (mode === 'collect') {
  const container = checkout.container('COLLECT');
  window.__rootsCheckout = container;
  const host = document.getElementById('checkout');
  const element = (options) => {
    const slot = document.createElement('div');
    host.append(slot);
    container.create(options).mount(slot);
  };
  element({ type: 'INPUT_FIELD', name: 'email', table: 'persons', column: 'email', label: 'Email', required: true,
    labelStyles: { color: 'rgb(0, 0, 128)' }, errorTextStyles: { color: 'rgb(176, 0, 32)', fontSize: '13px' },
    validations: [{ type: 'REGEX_MATCH_RULE', params: { regex: '^[^@\\\\s]+@[^@\\\\s]+$', error: 'Enter an email address' } }] });
  element({ type: 'PIN', name: 'pin', table: 'persons', column: 'pin', label: 'PIN', required: true });
  element({ type: 'PIN', name: 'confirm', label: 'Confirm PIN', required: true,
    validations: [{ type: 'ELEMENT_VALUE_MATCH_RULE', params: { element: 'pin', error: 'The PINs differ' } }] });
  element({ type: 'DROPDOWN', name: 'country', table: 'persons', column: 'country', label: 'Country', placeholder: 'Choose',
    options: [{ value: 'BR', text: 'Brazil' }, { value: 'US', text: 'United States' }] });
  element({ type: 'CHECKBOX', name: 'marketing', table: 'consents', column: 'marketing', label: 'Send me news', value: 'yes' });
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Collect';
  host.append(button);
  button.addEventListener('click', () => container
    .collect({ additionalFields: { records: [{ table: 'persons', fields: { plan: 'weekly' } }] }, upsert: [{ table: 'persons', column: 'email' }] })
    .then(
      (result) => window.__rootsEvents.push({ name: 'collect', payload: result }),
      (error) => window.__rootsEvents.push({ name: 'collectError', payload: { code: error.code, message: error.message } }),
    ));
  document.body.dataset.ready = 'true';
} else {
const dropin = mode === 'card'
  ? checkout.createCardForm({ showCardHolderName: true, showStoreInstrumentCheckbox: true, showAddress: true,
      installments: [{ count: 3, amount: { value: 833, currency: 'USD' } }, { count: 6, amount: { value: 417, currency: 'USD' } }] })
  : checkout.createDropin({ card: { showStoreInstrumentCheckbox: true }, redirectMode: params.get('redirectMode') || 'page',
      onBeforePay: () => params.get('block') !== '1',
      payPal: { onDeliveryAddressChanged: (address) => {
        window.__rootsEvents.push({ name: 'deliveryAddress', payload: address });
        return params.get('address') !== 'refuse';
      } } });
window.__rootsCheckout = dropin;
for (const name of ['ready', 'activate', 'deactivate', 'success', 'pending', 'failure', 'sessionExpired', 'binChanged'])
  dropin.on(name, (payload) => window.__rootsEvents.push({ name, payload: JSON.parse(JSON.stringify(payload)) }));
setTimeout(() => dropin.mount('#checkout').then(() => { document.body.dataset.ready = 'true'; }), MOUNT_DELAY_MS);
}
</script>
</body>
</html>`;
}
