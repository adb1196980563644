import {
  binOf,
  CARD_FRAME_TYPES,
  isOwnVaultURL,
  type CollectedRecord,
  type CollectRecordInput,
  type CollectResult,
  type CollectSuccess,
  type FrameFieldType,
  type ParentToFrameMessage,
  type SiblingMessage,
} from '@roots/contracts/frame-protocol';
import { storeRecords, tokenize } from './vault-client';

/** How long the collecting frame waits for its siblings' values. */
export const SIBLING_TIMEOUT_MS = 3_000;

type CollectMessage = Extract<ParentToFrameMessage, { type: 'collect' }>;
type FieldValue = { field: FrameFieldType; value: string; valid: boolean };

export type CollectorFrame = {
  win: Window & typeof globalThis;
  frameId: string;
  channel: { postMessage(message: SiblingMessage): void };
  /** This frame's own value, normalised (expiry as MM/YYYY, digits only for the card number…). */
  own: () => FieldValue;
  /** Posts the collect result (or error) to the parent. */
  post: (
    message: { type: 'collect-result'; requestId: string } & (
      { ok: true; result: CollectResult } | { ok: false; error: { code: string; message: string; status?: number } }
    ),
  ) => void;
  /** Asks the parent for a bearer token (`token-request`). */
  requestToken: (requestId: string) => void;
};

/**
 * Groups the element values bound for the vault into records: one per table (and skyflowID), the
 * integrator's additional records merged into the element record of the same table. Card fields
 * and empty optional values are left out.
 */
export function recordsToStore(
  elements: CollectMessage['elements'],
  values: ReadonlyMap<string, FieldValue>,
  additional: readonly CollectRecordInput[],
): CollectRecordInput[] {
  const records = new Map<string, CollectRecordInput>();
  const key = (table: string, skyflowID?: string) => `${table}\u0000${skyflowID ?? ''}`;
  for (const element of elements) {
    const value = values.get(element.frameId)?.value ?? '';
    // Card values go only to the card tokenize call, never into records.
    const isCard = (CARD_FRAME_TYPES as readonly FrameFieldType[]).includes(element.field);
    if (!element.table || !element.column || isCard || value === '') continue;
    const id = key(element.table, element.skyflowID);
    const record = records.get(id) ?? { table: element.table, fields: {}, ...(element.skyflowID ? { skyflowID: element.skyflowID } : {}) };
    record.fields[element.column] = value;
    records.set(id, record);
  }
  for (const extra of additional) {
    const id = key(extra.table, extra.skyflowID);
    const record = records.get(id);
    if (record) record.fields = { ...extra.fields, ...record.fields };
    else records.set(id, { ...extra, fields: { ...extra.fields } });
  }
  return [...records.values()].filter((record) => Object.keys(record.fields).length > 0);
}

/**
 * The collect of one container, run by one of its frames (the card number, or the first element):
 * gathers every element's value from the sibling channel, stops on an invalid one, asks the parent
 * for the bearer token, tokenises the card into the vault and stores the other values as records.
 * Only the tokens go back to the parent.
 */
export class Collector {
  private readonly pendingValues = new Map<string, { values: Map<string, FieldValue>; wanted: Set<string>; done: () => void }>();
  private readonly pendingTokens = new Map<string, (token: string) => void>();

  constructor(private readonly frame: CollectorFrame) {}

  /** A sibling's answer to a values request. */
  receiveValues(message: Extract<SiblingMessage, { type: 'values' }>): void {
    const pending = this.pendingValues.get(message.requestId);
    if (!pending || !pending.wanted.has(message.frameId)) return;
    pending.values.set(message.frameId, { field: message.field, value: message.value, valid: message.valid });
    pending.wanted.delete(message.frameId);
    if (pending.wanted.size === 0) pending.done();
  }

  receiveBearerToken(requestId: string, token: string): void {
    this.pendingTokens.get(requestId)?.(token);
    this.pendingTokens.delete(requestId);
  }

  async collect(message: CollectMessage): Promise<void> {
    const { win, frameId } = this.frame;
    const { requestId } = message;
    const fail = (code: string, text: string, status?: number) =>
      this.frame.post({ type: 'collect-result', requestId, ok: false, error: { code, message: text, ...(status ? { status } : {}) } });
    const origin = win.location.origin;
    if (!isOwnVaultURL(message.tokenizeURL, origin) || !isOwnVaultURL(message.recordsURL, origin))
      return fail('COLLECT_OPERATION_FAILED', 'The vault URLs are not this vault');

    const values = new Map<string, FieldValue>([[frameId, this.frame.own()]]);
    const wanted = new Set(message.elements.map((element) => element.frameId).filter((id) => id !== frameId));
    await new Promise<void>((resolve) => {
      const timer = win.setTimeout(resolve, SIBLING_TIMEOUT_MS);
      this.pendingValues.set(requestId, {
        values,
        wanted,
        done: () => {
          win.clearTimeout(timer);
          resolve();
        },
      });
      if (wanted.size === 0) resolve();
      else this.frame.channel.postMessage({ type: 'values-request', requestId });
    });
    this.pendingValues.delete(requestId);
    const invalid = message.elements.filter((element) => !values.get(element.frameId)?.valid);
    if (invalid.length > 0) return fail('VALIDATION_FAILED', `Invalid fields: ${invalid.map((element) => element.field).join(', ')}`);

    const token = await new Promise<string>((resolve) => {
      this.pendingTokens.set(requestId, resolve);
      this.frame.requestToken(requestId);
    });
    const context = { token, userAgent: win.navigator.userAgent, newKey: () => win.crypto.randomUUID() };
    const byField = (field: FrameFieldType) => {
      const element = message.elements.find((candidate) => candidate.field === field);
      return element ? values.get(element.frameId)?.value : undefined;
    };

    let card: CollectSuccess | undefined;
    const number = byField('card-number');
    if (number !== undefined) {
      const [month, year] = byField('expiry-date')?.split('/') ?? [byField('expiry-month') ?? '', byField('expiry-year') ?? ''];
      const name = byField('cardholder-name');
      const answer = await tokenize(
        message.tokenizeURL,
        {
          cardNumber: number,
          expiryMonth: month ?? '',
          expiryYear: year ?? '',
          cvv: byField('cvv') ?? '',
          ...(name ? { cardholderName: name } : {}),
        },
        { ...context, idempotencyKey: context.newKey() },
      );
      if (!answer.ok) return fail(answer.error.code, answer.error.message, answer.error.status);
      const { token: vaultToken, network, bin, last4, expiresAt } = answer.result;
      card = { token: vaultToken, network, bin: binOf(bin), last4, expiresAt };
    }

    let records: CollectedRecord[] = [];
    const toStore = recordsToStore(message.elements, values, message.additionalRecords);
    if (toStore.length > 0) {
      const answer = await storeRecords(
        message.recordsURL,
        { records: toStore, tokens: message.tokens, ...(message.upsert.length > 0 ? { upsert: message.upsert } : {}) },
        { ...context, idempotencyKey: context.newKey() },
      );
      if (!answer.ok) return fail(answer.error.code, answer.error.message, answer.error.status);
      records = answer.result.records;
    }
    this.frame.post({ type: 'collect-result', requestId, ok: true, result: { ...(card ? { card } : {}), records } });
  }
}
