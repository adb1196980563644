import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** What the vault keeps of a card: never the CVV. */
export type CardSecret = {
  number: string;
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
  holderName?: string | undefined;
};

const VERSION = 'v1';
const IV_BYTES = 12;

/**
 * AES-256-GCM encryption of card data at rest. Format: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 * The authentication tag makes a tampered or wrong-key ciphertext fail loudly instead of decrypting to garbage.
 */
export class CardCipher {
  private readonly key: Buffer;

  constructor(base64Key: string) {
    this.key = Buffer.from(base64Key, 'base64');
    if (this.key.length !== 32) throw new Error('vault key must be 32 bytes');
  }

  encrypt(card: CardSecret): string {
    return this.seal(JSON.stringify(card));
  }

  decrypt(sealed: string): CardSecret {
    return JSON.parse(this.open(sealed)) as CardSecret;
  }

  /** Encrypts any text (the values of the vault's records). */
  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || !ciphertext) throw new Error('unknown ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Keyed hash (HMAC-SHA256) for values that must be compared but never stored in clear. */
  keyedHash(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }
}
