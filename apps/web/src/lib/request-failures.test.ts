import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorFromResponse, postJson, RequestError, requestFailure, timeoutSignal } from './api-client';
import { asIdentityError } from './auth-session';

describe('generic request failures (product-spec §8)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a non-2xx answer without an error text: request failed with status code', async () => {
    const error = await errorFromResponse(new Response('<html>', { status: 502 }));
    expect(error.message).toBe('Request failed with status code 502');
  });

  it('no answer: network error, request aborted, canceled, timeout exceeded', () => {
    expect(requestFailure(new TypeError('Failed to fetch')).message).toBe('Network Error');
    expect(requestFailure(new DOMException('The user aborted a request.', 'AbortError')).message).toBe('Request aborted');
    const controller = new AbortController();
    controller.abort();
    expect(requestFailure(new DOMException('aborted', 'AbortError'), controller.signal).message).toBe('canceled');
    const timed = timeoutSignal(1500);
    expect(requestFailure(new DOMException('signal timed out', 'TimeoutError'), timed).message).toBe('timeout of 1500ms exceeded');
  });

  it('an address fetch cannot send: unsupported protocol', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    await expect(postJson('ftp://example.com/x', {})).rejects.toThrow('Unsupported protocol ftp:');
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('identity errors on sign-in', () => {
  it('a wrong code reads as wrong-password with its message; other errors pass unchanged', () => {
    const mapped = asIdentityError(new RequestError('Request failed with status code 400', 'INVALID_OTP', 400)) as RequestError;
    expect(mapped.code).toBe('auth/wrong-password');
    expect(mapped.message).toBe('That code is not right or has expired. Check the latest email, or ask for a new code.');
    const other = new RequestError('No subscriptions', 'NOT_FOUND', 404);
    expect(asIdentityError(other)).toBe(other);
  });
});
