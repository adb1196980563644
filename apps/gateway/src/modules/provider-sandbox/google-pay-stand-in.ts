/**
 * The Google-type wallet stand-in (`GET /sandbox/google-pay/pay.js`): the JS surface of Google's
 * `pay.js` that the checkout SDK uses — `google.payments.api.PaymentsClient` with `isReadyToPay`,
 * `createButton` and `loadPaymentData` (API 2.0) — backed by a gateway-origin sheet instead of
 * Google's. `loadPaymentData` opens the sheet in a popup (so it must run in the click, as Google's
 * does), resolves with PaymentData when the shopper picks a card, and rejects with
 * `{ statusCode: 'CANCELED' }` when they cancel or close it.
 */

/** `type` of the message the sheet posts to its opener. */
export const GOOGLE_PAY_SHEET_MESSAGE = 'roots-sandbox:google-pay';

export const GOOGLE_PAY_STAND_IN_SCRIPT = `/* Roots gateway sandbox: Google Pay API stand-in (API 2.0 surface). */
(function () {
  'use strict';
  var script = document.currentScript;
  var gatewayOrigin = new URL(script && script.src ? script.src : location.href).origin;
  var MESSAGE = ${JSON.stringify(GOOGLE_PAY_SHEET_MESSAGE)};

  function isValidRequest(request) {
    return !!request && request.apiVersion === 2 && request.apiVersionMinor === 0 && Array.isArray(request.allowedPaymentMethods);
  }
  function developerError(message) {
    return { statusCode: 'DEVELOPER_ERROR', statusMessage: message };
  }

  function PaymentsClient(options) {
    this.environment = (options && options.environment) || 'TEST';
  }

  PaymentsClient.prototype.isReadyToPay = function (request) {
    if (!isValidRequest(request)) return Promise.reject(developerError('isReadyToPay needs apiVersion 2, apiVersionMinor 0 and allowedPaymentMethods'));
    var card = request.allowedPaymentMethods.some(function (method) { return method && method.type === 'CARD'; });
    return Promise.resolve({ result: card });
  };

  PaymentsClient.prototype.createButton = function (options) {
    if (!options || typeof options.onClick !== 'function') throw developerError('createButton needs an onClick handler');
    var wrapper = document.createElement('div');
    wrapper.className = 'gpay-button-container';
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'gpay-button ' + (options.buttonColor || 'default') + ' ' + (options.buttonType || 'buy');
    button.setAttribute('aria-label', 'Buy with Google Pay');
    button.textContent = 'Buy with Google Pay';
    var dark = options.buttonColor !== 'white';
    button.style.cssText = 'display:block;min-height:40px;border:0;border-radius:4px;font:500 15px system-ui,sans-serif;cursor:pointer;' +
      (options.buttonSizeMode === 'fill' ? 'width:100%;' : 'min-width:240px;') +
      (dark ? 'background:#000;color:#fff;' : 'background:#fff;color:#3c4043;box-shadow:0 0 0 1px #dadce0 inset;');
    button.addEventListener('click', function (event) { options.onClick(event); });
    wrapper.appendChild(button);
    return wrapper;
  };

  PaymentsClient.prototype.loadPaymentData = function (request) {
    if (!isValidRequest(request) || !request.transactionInfo || !request.merchantInfo) {
      return Promise.reject(developerError('loadPaymentData needs a PaymentDataRequest (API 2.0)'));
    }
    var method = request.allowedPaymentMethods[0] || {};
    var tokenization = (method.tokenizationSpecification && method.tokenizationSpecification.parameters) || {};
    var query = new URLSearchParams({
      origin: location.origin,
      merchantName: request.merchantInfo.merchantName || '',
      totalPrice: request.transactionInfo.totalPrice || '',
      currencyCode: request.transactionInfo.currencyCode || '',
      gatewayMerchantId: tokenization.gatewayMerchantId || '',
      billingAddressRequired: method.parameters && method.parameters.billingAddressRequired ? '1' : '0'
    });
    var popup = window.open(gatewayOrigin + '/sandbox/google-pay/sheet?' + query.toString(), 'roots-google-pay', 'popup=yes,width=420,height=640');
    if (!popup) return Promise.reject({ statusCode: 'CANCELED', statusMessage: 'The payment sheet could not open (popup blocked).' });
    return new Promise(function (resolve, reject) {
      var closedTimer = setInterval(function () {
        if (popup.closed) finish(null);
      }, 400);
      function onMessage(event) {
        if (event.origin !== gatewayOrigin || event.source !== popup) return;
        var data = event.data;
        if (!data || data.type !== MESSAGE) return;
        finish(data);
      }
      function finish(data) {
        clearInterval(closedTimer);
        window.removeEventListener('message', onMessage);
        if (data && data.paymentData) resolve(data.paymentData);
        else reject({ statusCode: 'CANCELED', statusMessage: 'User closed the Payment Request UI.' });
      }
      window.addEventListener('message', onMessage);
    });
  };

  var google = (window.google = window.google || {});
  google.payments = google.payments || {};
  google.payments.api = google.payments.api || {};
  google.payments.api.PaymentsClient = PaymentsClient;
})();
`;
