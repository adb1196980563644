// @vitest-environment jsdom
// @vitest-environment-options {"url":"https://shop.example/"}
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@roots/contracts/messages';
import type { CardFrameType as FieldType } from '@roots/contracts/frame-protocol';
import { startFrame } from './frame';
import { FRAME_MESSAGE_TAG } from '@roots/contracts/frame-protocol';

const SHOP = 'https://shop.example';

/** A same-origin sibling channel that goes nowhere (one frame per test). */
class SilentChannel {
  postMessage(): void {}
  addEventListener(): void {}
  close(): void {}
}

/** A sibling channel the test speaks on: it hands the test's messages to the frame and keeps the frame's. */
class RecordingChannel {
  static last: RecordingChannel;
  readonly posted: unknown[] = [];
  private readonly listeners: Array<(event: { data: unknown }) => void> = [];
  constructor() {
    RecordingChannel.last = this;
  }
  postMessage(data: unknown): void {
    this.posted.push(data);
  }
  addEventListener(_type: string, listener: (event: { data: unknown }) => void): void {
    this.listeners.push(listener);
  }
  deliver(data: unknown): void {
    this.listeners.forEach((listener) => listener({ data }));
  }
  close(): void {}
}

type Sent = { type: string; event?: string; state?: { isValid: boolean; error?: string } };

/** Runs one secure field in a fresh frame whose parent is the (merchant) page's window. */
function openFrame(field: FieldType, channel: typeof SilentChannel | typeof RecordingChannel = SilentChannel) {
  const sent: Sent[] = [];
  const iframe = document.createElement('iframe');
  document.body.append(iframe);
  const win = iframe.contentWindow as Window & typeof globalThis;
  // The page's own window (vitest's `window` global is a copy of it): record what the frame posts.
  const shop = win.parent;
  Object.defineProperty(shop, 'postMessage', { value: (message: Sent) => sent.push(message), configurable: true });
  Object.defineProperty(win, 'BroadcastChannel', { value: channel });
  startFrame(field, win, `https://gw.example/secure-fields/v1/${field}.html?id=f1&origin=${encodeURIComponent(SHOP)}&channel=c1`);
  const fromParent = (data: Record<string, unknown>) =>
    win.dispatchEvent(new win.MessageEvent('message', { data: { tag: FRAME_MESSAGE_TAG, v: 1, ...data }, origin: SHOP, source: shop }));
  const input = win.document.querySelector('input')!;
  return {
    sent,
    fromParent,
    type(value: string) {
      input.value = value;
      input.dispatchEvent(new win.Event('input'));
      input.dispatchEvent(new win.Event('blur'));
    },
    shown: () => win.document.getElementById('error')!.textContent,
    lastState: () => sent.filter((message) => message.type === 'event').at(-1)!.state!,
  };
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('secure field messages (product-spec §5, §8)', () => {
  it.each<[FieldType, string]>([
    ['card-number', '4242 4242 4242 4241'],
    ['card-number', '4242 4242'],
    ['cardholder-name', 'A'],
    ['cvv', '12'],
    ['expiry-date', '13/40'],
    ['expiry-date', '01/20'],
    ['expiry-month', '13'],
    ['expiry-year', '19'],
  ])('%s "%s" is invalid: Fill in the field', (field, value) => {
    const frame = openFrame(field);
    frame.fromParent({ type: 'init', options: {} });
    frame.type(value);
    expect(frame.shown()).toBe(MESSAGES.fillInField);
    expect(frame.lastState()).toMatchObject({ isValid: false, error: 'Fill in the field' });
  });

  it.each<FieldType>(['card-number', 'cardholder-name', 'cvv', 'expiry-date', 'expiry-month', 'expiry-year'])(
    'an empty required %s says Fill in the field once validated',
    (field) => {
      const frame = openFrame(field);
      frame.fromParent({ type: 'init', options: {} });
      expect(frame.shown()).toBe('');
      frame.fromParent({ type: 'validate' });
      expect(frame.shown()).toBe('Fill in the field');
    },
  );

  it('an empty optional field says nothing and is valid', () => {
    const frame = openFrame('cardholder-name');
    frame.fromParent({ type: 'init', options: { required: false } });
    frame.fromParent({ type: 'validate' });
    expect(frame.shown()).toBe('');
    expect(frame.lastState().isValid).toBe(true);
  });

  it('a rejected network: Discover cards are not accepted.', () => {
    const frame = openFrame('card-number');
    frame.fromParent({ type: 'init', options: { rejectedNetworks: ['discover'] } });
    frame.type('6011 1111 1111 1117');
    expect(frame.shown()).toBe('Discover cards are not accepted.');
    expect(frame.lastState().isValid).toBe(false);
    frame.type('4242 4242 4242 4242');
    expect(frame.shown()).toBe('');
    expect(frame.lastState().isValid).toBe(true);
  });

  it('accepts Discover when the form rejects no network', () => {
    const frame = openFrame('card-number');
    frame.fromParent({ type: 'init', options: {} });
    frame.type('6011 1111 1111 1117');
    expect(frame.shown()).toBe('');
    expect(frame.lastState().isValid).toBe(true);
  });

  it('valid values show no message', () => {
    for (const [field, value] of [
      ['cardholder-name', "Ada O'Neil-Byron"],
      ['cvv', '123'],
      ['expiry-date', '12/34'],
      ['expiry-month', '07'],
      ['expiry-year', '34'],
    ] as const) {
      const frame = openFrame(field);
      frame.fromParent({ type: 'init', options: {} });
      frame.type(value);
      expect(frame.shown(), field).toBe('');
    }
  });
});

describe('validate with a request id (checkout-spec §5: validate() asks the frames)', () => {
  it('shows the error, then answers validated with the fresh state and the same request id', () => {
    const frame = openFrame('cvv');
    frame.fromParent({ type: 'init', options: {} });
    frame.type('12');
    frame.fromParent({ type: 'validate', requestId: 'v1' });
    const answer = frame.sent.at(-1) as Sent & { requestId?: string };
    expect(answer).toMatchObject({ type: 'validated', requestId: 'v1', state: { isValid: false, error: 'Fill in the field' } });
    expect(frame.shown()).toBe('Fill in the field');
  });

  it('a validate without a request id answers nothing beyond its events', () => {
    const frame = openFrame('cvv');
    frame.fromParent({ type: 'init', options: {} });
    frame.fromParent({ type: 'validate' });
    expect(frame.sent.some((message) => message.type === 'validated')).toBe(false);
  });
});

describe('a card field never takes a value from the page', () => {
  it('ignores set-value', () => {
    const frame = openFrame('cardholder-name');
    frame.fromParent({ type: 'init', options: {} });
    const before = frame.sent.length;
    frame.fromParent({ type: 'set-value', value: 'Ada Lovelace' });
    expect(document.querySelector('iframe')!.contentDocument!.querySelector('input')!.value).toBe('');
    expect(frame.sent).toHaveLength(before);
  });
});

describe('the styles of the parent reach the frame (checkout-spec §3 labelStyles, errorTextStyles)', () => {
  it('styles the frame’s label and its error line', () => {
    const frame = openFrame('cvv');
    frame.fromParent({
      type: 'init',
      options: { labelStyles: { color: 'navy', fontWeight: '600' }, errorTextStyles: { color: 'rgb(176, 0, 32)', fontSize: '12px' } },
    });
    const doc = document.querySelector('iframe')!.contentDocument!;
    const label = doc.querySelector('label')!;
    expect(label.style.color).toBe('navy');
    expect(label.style.fontWeight).toBe('600');
    const error = doc.getElementById('error')!;
    expect(error.style.color).toBe('rgb(176, 0, 32)');
    expect(error.style.fontSize).toBe('12px');
  });
});

describe('a card field asked for its value by the collecting frame', () => {
  it('answers its state’s validity: an empty optional field is valid', () => {
    const frame = openFrame('cardholder-name', RecordingChannel);
    frame.fromParent({ type: 'init', options: { required: false } });
    RecordingChannel.last.deliver({ type: 'values-request', requestId: 'r1' });
    expect(RecordingChannel.last.posted).toContainEqual({
      type: 'values',
      requestId: 'r1',
      frameId: 'f1',
      field: 'cardholder-name',
      value: '',
      valid: true,
    });
  });

  it('shows its error and tells the parent (state, then height)', () => {
    const frame = openFrame('cvv', RecordingChannel);
    frame.fromParent({ type: 'init', options: {} });
    RecordingChannel.last.deliver({ type: 'values-request', requestId: 'r1' });
    expect(RecordingChannel.last.posted).toContainEqual({
      type: 'values',
      requestId: 'r1',
      frameId: 'f1',
      field: 'cvv',
      value: '',
      valid: false,
    });
    expect(frame.shown()).toBe(MESSAGES.fillInField);
    expect(frame.lastState()).toMatchObject({ isValid: false, error: MESSAGES.fillInField });
    expect(frame.sent.at(-1)).toMatchObject({ type: 'height' });
  });
});

describe('secure field placeholders (checkout-spec §2)', () => {
  it.each<[FieldType, string]>([
    ['cardholder-name', 'Card holder'],
    ['card-number', '1234 1234 1234 1234'],
    ['expiry-month', 'MM'],
    ['expiry-year', 'YY'],
    ['expiry-date', 'MM/YY'],
    ['cvv', 'CVC'],
  ])('%s shows %j by default', (field, placeholder) => {
    openFrame(field);
    const frame = document.querySelector('iframe')!.contentWindow!;
    expect(frame.document.querySelector('input')!.placeholder).toBe(placeholder);
  });
});
