import { CARD_NETWORK_NAMES, VAULT_INVALID_TOKEN_MESSAGE } from '@roots/contracts/gateway-constants';
import type {
  BinLookupResult,
  CardNetwork,
  SaveInstrumentRequest,
  StoredInstrument,
  VaultTokenizeRequest,
  VaultTokenizeResponse,
} from '@roots/contracts/gateway';
import { GatewayError } from '../../errors';
import { newId } from '../../lib/ids';
import type { ClientPrincipal } from '../sessions/bearer-token';
import { issuerCountryOf, lookupBin } from './bin-lookup';
import type { CardCipher, CardSecret } from './card-cipher';
import { binOf, validateCard } from './card-validation';
import type { InstrumentRow, VaultRepository } from './vault.repository';

/** A vault token is usable for this long after tokenisation. */
// 'Invalid token' (checkout-spec §8): expired, already used or unknown — the vault does not say which.
export const VAULT_TOKEN_TTL_MS = 15 * 60_000;

/** A stored card's network as the contracts name it; 'Card' when the vault does not know it. */
function networkName(network: string | null): string {
  return (CARD_NETWORK_NAMES as Partial<Record<string, string>>)[network ?? ''] ?? 'Card';
}

export function instrumentView(row: InstrumentRow): StoredInstrument {
  const network = row.network as StoredInstrument['data']['network'];
  return {
    id: row.id,
    displayName: `${networkName(row.network)} •••• ${row.last4}`,
    paymentMethod: 'card',
    status: row.status as StoredInstrument['status'],
    holderReference: row.holderReference,
    futureUsage: row.futureUsage,
    data: { ...(network ? { network } : {}), bin: row.bin, last4: row.last4, binLookup: { issuerCountry: { code: row.issuerCountry } } },
    createdAt: row.createdAt.toISOString(),
  };
}

/** The vault: card data in, tokens and non-sensitive card facts out; ciphertext at rest. */
export class VaultService {
  constructor(
    private readonly repository: VaultRepository,
    private readonly cipher: CardCipher,
  ) {}

  async tokenize(principal: ClientPrincipal, input: VaultTokenizeRequest, now = new Date()): Promise<VaultTokenizeResponse> {
    const card = validateCard(input, now);
    const secret: CardSecret = {
      number: card.number,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      holderName: input.cardholderName?.trim() || undefined,
    };
    const token = newId('tok');
    const expiresAt = new Date(now.getTime() + VAULT_TOKEN_TTL_MS);
    await this.repository.insertToken({
      id: token,
      sessionId: principal.sessionId,
      encryptedCard: this.cipher.encrypt(secret),
      network: card.network,
      bin: card.bin,
      last4: card.last4,
      expiresAt,
    });
    return { token, network: card.network, bin: card.bin, last4: card.last4, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Save-instrument (checkout-spec §3): turns a vault token into an instrument of the holder —
   * `created` when it is to be stored (it becomes `enabled` after a successful authorization),
   * `transient` for a one-off payment.
   */
  async saveInstrument(
    principal: ClientPrincipal,
    input: SaveInstrumentRequest,
    providerConfigId: string,
    now = new Date(),
  ): Promise<StoredInstrument> {
    if (input.holderReference !== principal.holderReference)
      throw new GatewayError('FORBIDDEN', 'holderReference does not match the session');
    if (input.data.vaultProviderConfigId !== providerConfigId) throw new GatewayError('BAD_REQUEST', 'Unknown vaultProviderConfigId');
    const token = await this.repository.consumeToken(input.data.encryptedData, principal.sessionId, now);
    if (!token) throw new GatewayError('NOT_FOUND', VAULT_INVALID_TOKEN_MESSAGE);
    const row = await this.repository.insertInstrument({
      id: newId('ins'),
      holderReference: principal.holderReference,
      status: input.storeInstrument ? 'created' : 'transient',
      futureUsage: input.futureUsage,
      encryptedCard: token.encryptedCard,
      network: token.network,
      bin: token.bin,
      last4: token.last4,
      issuerCountry: issuerCountryOf(token.bin),
    });
    return instrumentView(row);
  }

  /**
   * A wallet payment's network token kept as an instrument of the holder (Apple-type payments with
   * `storeInstrument`): `created` now, `enabled` once the payment that brought it succeeds, then
   * usable for merchant-initiated charges like a stored card.
   */
  async storeNetworkToken(
    holderReference: string,
    card: { number: string; network: CardNetwork; last4: string; expiryMonth: number; expiryYear: number; holderName?: string | undefined },
  ): Promise<InstrumentRow> {
    const bin = binOf(card.number);
    return this.repository.insertInstrument({
      id: newId('ins'),
      holderReference,
      status: 'created',
      futureUsage: 'Subscription',
      encryptedCard: this.cipher.encrypt({
        number: card.number,
        expiryMonth: card.expiryMonth,
        expiryYear: card.expiryYear,
        holderName: card.holderName,
      }),
      network: card.network,
      bin,
      last4: card.last4,
      issuerCountry: issuerCountryOf(bin),
    });
  }

  async listInstruments(holderReference: string): Promise<StoredInstrument[]> {
    return (await this.repository.listForHolder(holderReference)).map(instrumentView);
  }

  async deleteInstrument(holderReference: string, id: string): Promise<StoredInstrument> {
    const row = await this.repository.findInstrument(id);
    if (!row || row.holderReference !== holderReference) throw new GatewayError('NOT_FOUND', 'Instrument not found');
    await this.repository.setInstrumentStatus(id, 'deleted');
    return instrumentView({ ...row, status: 'deleted' });
  }

  binLookup(bin: string): BinLookupResult {
    const result = lookupBin(bin);
    if (result.bin.length < 6) throw new GatewayError('VALIDATION_ERROR', 'bin: at least 6 digits are needed');
    return result;
  }

  /** An instrument the holder may pay with, or INSTRUMENT_NOT_USABLE. */
  async usableInstrument(id: string, holderReference: string, options: { merchantInitiated: boolean }): Promise<InstrumentRow> {
    const row = await this.repository.findInstrument(id);
    if (!row || row.holderReference !== holderReference)
      throw new GatewayError('INSTRUMENT_NOT_USABLE', 'Instrument not found for this holder');
    const usable = options.merchantInitiated ? ['enabled'] : ['enabled', 'created', 'transient'];
    if (!usable.includes(row.status)) throw new GatewayError('INSTRUMENT_NOT_USABLE', `Instrument is ${row.status}`);
    return row;
  }

  findInstrument(id: string): Promise<InstrumentRow | undefined> {
    return this.repository.findInstrument(id);
  }

  setInstrumentStatus(id: string, status: StoredInstrument['status']): Promise<void> {
    return this.repository.setInstrumentStatus(id, status);
  }

  decrypt(row: InstrumentRow): CardSecret {
    return this.cipher.decrypt(row.encryptedCard);
  }
}
