/** The product's side of the gateway's signed webhooks, for the Adyen tests: the gateway's shared test receiver. */
export { eventually, startWebhookReceiver } from '../../../../test/webhook-receiver';
