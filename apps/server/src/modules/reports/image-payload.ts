import { API_MESSAGES } from '@roots/contracts';
import { AppError } from '../../errors';

const DATA_URL_PREFIX = /^data:[a-z0-9.+/-]*(;[a-z0-9=.+-]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes the `image` field of report/create: base64, optionally as a `data:` URL. The bytes go to
 * the analysis engine and nowhere else.
 * @throws AppError VALIDATION_ERROR (400) when the text is not base64.
 */
export function decodeImagePayload(text: string): Buffer {
  const base64 = text.replace(DATA_URL_PREFIX, '');
  if (base64.length === 0 || base64.length % 4 === 1 || !BASE64.test(base64)) {
    throw new AppError('VALIDATION_ERROR', API_MESSAGES.imageNotBase64);
  }
  return Buffer.from(base64, 'base64');
}
