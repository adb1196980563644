import type { AdyenConfig } from './adyen-library';

/** Adyen's own Checkout base URL the library builds endpoints on (test platform; live is derived by the library). */
const ADYEN_TEST_CHECKOUT = 'https://checkout-test.adyen.com/v71';

/** Adyen answered with an HTTP error: `status`, and Adyen's `errorCode` / `errorType` when it sent a service error. */
export class AdyenHttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string | undefined,
    readonly errorType: string | undefined,
  ) {
    super(`Adyen answered ${status}${errorCode ? ` (errorCode ${errorCode}, ${errorType ?? 'unknown type'})` : ''}`);
    this.name = 'AdyenHttpError';
  }

  /** 5xx and 429: the same request (same idempotency key) may be sent again. */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429;
  }
}

/** No answer in time, or the connection failed: the outcome is unknown, the request may be sent again. */
export class AdyenUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AdyenUnreachableError';
  }
}

type RequestOptions = { method?: string; headers?: Record<string, string | number | string[]>; idempotencyKey?: string };

/**
 * The HTTP client the Adyen library sends through (the library accepts one: `client.httpClient`):
 * fetch with a hard timeout, so a timeout is told apart from an answer, and an optional base URL
 * in place of Adyen's (a validating mock of Adyen's definition in tests). The library still builds
 * the endpoints, serialises the requests and reads the answers. Bodies are never logged or kept:
 * a first payment's body carries card data.
 */
export class AdyenTransport {
  constructor(private readonly options: { baseUrl: string | undefined; timeoutMs: number }) {}

  async request(endpoint: string, json: string, config: AdyenConfig, _isApiKeyRequired: boolean, requestOptions: RequestOptions = {}) {
    const url =
      this.options.baseUrl && endpoint.startsWith(ADYEN_TEST_CHECKOUT)
        ? this.options.baseUrl + endpoint.slice(ADYEN_TEST_CHECKOUT.length)
        : endpoint;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (config.apiKey) headers['x-api-key'] = config.apiKey;
    if (requestOptions.idempotencyKey) headers['idempotency-key'] = requestOptions.idempotencyKey;
    if (config.applicationName) headers['user-agent'] = config.applicationName;
    let response: Response;
    try {
      response = await fetch(url, {
        method: requestOptions.method ?? 'POST',
        headers,
        body: (requestOptions.method ?? 'POST') === 'GET' ? null : json,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      // The cause names the network failure only: fetch errors never carry the request body.
      throw new AdyenUnreachableError(`Adyen did not answer: ${(error as Error).name}`, { cause: error });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new AdyenUnreachableError(`Adyen's answer was cut: ${(error as Error).name}`, { cause: error });
    }
    if (!response.ok) {
      let service: { errorCode?: unknown; errorType?: unknown } = {};
      try {
        service = JSON.parse(text) as typeof service;
      } catch {
        // Not a service error body (a proxy's page): the status alone tells.
      }
      throw new AdyenHttpError(
        response.status,
        typeof service.errorCode === 'string' ? service.errorCode : undefined,
        typeof service.errorType === 'string' ? service.errorType : undefined,
      );
    }
    return text;
  }
}
