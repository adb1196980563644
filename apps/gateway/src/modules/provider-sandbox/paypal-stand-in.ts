/**
 * The PayPal JS SDK stand-in (`GET /sandbox/paypal/sdk/js?client-id=…&intent=…&vault=…&currency=…`):
 * the surface the checkout SDK uses — `paypal.Buttons({ style, createOrder | createBillingAgreement,
 * onApprove, onCancel, onError, onShippingAddressChange }).render(container)`, `close()`, `isEligible()`, `paypal.FUNDING` —
 * backed by the gateway's sandbox approval page instead of PayPal's. As with PayPal, the query
 * fixes the script: `vault=true&intent=tokenize` needs `createBillingAgreement`, otherwise
 * `createOrder`; a different choice means loading the script again.
 */

/**
 * The sandbox buyer's delivery address, reported to `onShippingAddressChange` when PayPal's window
 * opens (PayPal reports the buyer's default address the same way, before approval).
 */
export const PAYPAL_SANDBOX_SHIPPING_ADDRESS = { city: 'New York', state: 'NY', countryCode: 'US', postalCode: '10001' } as const;

/** `type` of the message the approval page posts to its opener. */
export const PAYPAL_APPROVAL_MESSAGE = 'roots-sandbox:paypal';

export type PayPalScriptConfig = { clientId: string; intent: 'capture' | 'authorize' | 'tokenize'; vault: boolean; currency: string };

/** The script for one query: the configuration is fixed into it, like PayPal's. */
export function payPalStandInScript(config: PayPalScriptConfig): string {
  return `/* Roots gateway sandbox: PayPal JS SDK stand-in (buttons, funding-eligibility). */
(function () {
  'use strict';
  var config = ${JSON.stringify(config).replace(/</g, '\\u003c')};
  var script = document.currentScript;
  var gatewayOrigin = new URL(script && script.src ? script.src : location.href).origin;
  var MESSAGE = ${JSON.stringify(PAYPAL_APPROVAL_MESSAGE)};
  var SHIPPING_ADDRESS = ${JSON.stringify(PAYPAL_SANDBOX_SHIPPING_ADDRESS)};
  var COLORS = { gold: ['#ffc439', '#111'], blue: ['#0070ba', '#fff'], silver: ['#eee', '#111'], white: ['#fff', '#111'], black: ['#2c2e2f', '#fff'] };

  function waitForApproval(popup, token) {
    return new Promise(function (resolve) {
      var closedTimer = setInterval(function () {
        if (popup.closed) finish({ outcome: 'cancelled' });
      }, 400);
      function onMessage(event) {
        if (event.origin !== gatewayOrigin || event.source !== popup) return;
        var data = event.data;
        if (!data || data.type !== MESSAGE || data.token !== token) return;
        finish(data);
      }
      function finish(data) {
        clearInterval(closedTimer);
        window.removeEventListener('message', onMessage);
        resolve(data);
      }
      window.addEventListener('message', onMessage);
    });
  }

  // The merchant's answer to the buyer's address: a rejected address stops the checkout, like PayPal's window does.
  function shippingAccepted(options, orderID) {
    if (typeof options.onShippingAddressChange !== 'function') return Promise.resolve(true);
    var rejected = false;
    var actions = { reject: function () { rejected = true; return Promise.resolve(); } };
    return Promise.resolve(options.onShippingAddressChange({ orderID: orderID, shippingAddress: SHIPPING_ADDRESS }, actions))
      .then(function () { return !rejected; });
  }

  function Buttons(options) {
    options = options || {};
    var wrapper = null;
    var agreement = config.vault && config.intent === 'tokenize';
    var create = agreement ? options.createBillingAgreement : options.createOrder;

    function fail(error) {
      if (typeof options.onError === 'function') options.onError(error instanceof Error ? error : new Error(String(error)));
    }

    function onClick() {
      var popup = window.open('about:blank', 'roots-paypal', 'popup=yes,width=450,height=640');
      if (!popup) return fail(new Error('The PayPal window could not open (popup blocked).'));
      var token;
      Promise.resolve()
        .then(function () { return create({ paymentSource: 'paypal' }, {}); })
        .then(function (id) {
          if (typeof id !== 'string' || id === '') throw new Error(agreement ? 'Expected a billing agreement token' : 'Expected an order id to be passed');
          token = id;
          return shippingAccepted(options, id);
        })
        .then(function (accepted) {
          if (!accepted) {
            if (!popup.closed) popup.close();
            return { outcome: 'cancelled', shippingRejected: true };
          }
          var id = token;
          var query = new URLSearchParams({ token: id, origin: location.origin });
          popup.location.href = gatewayOrigin + '/sandbox/paypal/checkout?' + query.toString();
          return waitForApproval(popup, id);
        })
        .then(function (result) {
          if (result.outcome === 'approved') {
            var data = agreement
              ? { billingToken: token, orderID: result.orderId, payerID: result.payerId, paymentSource: 'paypal' }
              : { orderID: token, payerID: result.payerId, paymentSource: 'paypal' };
            return options.onApprove(data, {});
          }
          if (typeof options.onCancel === 'function') return options.onCancel({ orderID: agreement ? result.orderId : token });
        })
        .catch(function (error) {
          if (!popup.closed) popup.close();
          fail(error);
        });
    }

    return {
      isEligible: function () { return true; },
      render: function (target) {
        var host = typeof target === 'string' ? document.querySelector(target) : target;
        if (!host) return Promise.reject(new Error('Document is ready and element ' + String(target) + ' does not exist'));
        if (typeof create !== 'function') {
          return Promise.reject(new Error(agreement ? 'Expected createBillingAgreement with vault=true&intent=tokenize' : 'Expected createOrder'));
        }
        if (typeof options.onApprove !== 'function') return Promise.reject(new Error('Expected onApprove'));
        var style = options.style || {};
        var colors = COLORS[style.color] || COLORS.gold;
        wrapper = document.createElement('div');
        wrapper.className = 'paypal-buttons paypal-buttons-context-iframe';
        var button = document.createElement('button');
        button.type = 'button';
        button.setAttribute('aria-label', 'PayPal');
        button.dataset.funding = 'paypal';
        button.textContent = 'PayPal';
        button.style.cssText = 'display:block;width:100%;border:0;cursor:pointer;font:700 16px system-ui,sans-serif;' +
          'height:' + (Number(style.height) || 45) + 'px;' +
          'border-radius:' + (style.shape === 'pill' ? '23px' : '4px') + ';' +
          'background:' + colors[0] + ';color:' + colors[1] + ';';
        button.addEventListener('click', onClick);
        wrapper.appendChild(button);
        if (style.tagline) {
          var tagline = document.createElement('p');
          tagline.textContent = 'The safer, easier way to pay';
          wrapper.appendChild(tagline);
        }
        host.appendChild(wrapper);
        return Promise.resolve();
      },
      close: function () {
        if (wrapper && wrapper.parentNode) wrapper.parentNode.removeChild(wrapper);
        wrapper = null;
        return Promise.resolve();
      }
    };
  }

  window.paypal = { Buttons: Buttons, FUNDING: { PAYPAL: 'paypal' }, version: '5.0.0-roots-sandbox', config: config };
})();
`;
}
