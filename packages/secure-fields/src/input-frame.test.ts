// @vitest-environment jsdom
// @vitest-environment-options {"url":"https://shop.example/"}
import { afterEach, describe, expect, it } from 'vitest';
import { FRAME_MESSAGE_TAG, type FrameFieldOptions, type InputFrameType } from '@roots/contracts/frame-protocol';
import { startInputFrame } from './input-frame';

const SHOP = 'https://shop.example';

/** A same-origin channel shared by the frames of one test, delivering at once (like BroadcastChannel, without the sender). */
class TestChannel {
  static open: TestChannel[] = [];
  private listeners: Array<(event: { data: unknown }) => void> = [];
  constructor(readonly name: string) {
    TestChannel.open.push(this);
  }
  postMessage(data: unknown): void {
    for (const channel of TestChannel.open)
      if (channel !== this && channel.name === this.name) channel.listeners.forEach((listener) => listener({ data }));
  }
  addEventListener(_type: string, listener: (event: { data: unknown }) => void): void {
    this.listeners.push(listener);
  }
  close(): void {}
}

type Sent = { frameId: string; type: string; state?: { isValid: boolean; value: string; error?: string; required: boolean } };
/** Everything the frames posted to the page (they share one parent window). */
let sent: Sent[] = [];

function openFrame(field: InputFrameType, options: FrameFieldOptions) {
  const frameId = `f${document.querySelectorAll('iframe').length}`;
  const iframe = document.createElement('iframe');
  document.body.append(iframe);
  const win = iframe.contentWindow as Window & typeof globalThis;
  const shop = win.parent;
  Object.defineProperty(shop, 'postMessage', { value: (message: Sent) => sent.push(message), configurable: true });
  Object.defineProperty(win, 'BroadcastChannel', { value: TestChannel });
  startInputFrame(
    field,
    win,
    `https://gw.example/secure-fields/v1/${field}.html?id=${frameId}&origin=${encodeURIComponent(SHOP)}&channel=c1`,
  );
  const fromParent = (data: Record<string, unknown>) =>
    win.dispatchEvent(new win.MessageEvent('message', { data: { tag: FRAME_MESSAGE_TAG, v: 1, ...data }, origin: SHOP, source: shop }));
  fromParent({ type: 'init', options });
  const control = win.document.getElementById('field') as HTMLInputElement & HTMLSelectElement;
  return {
    win,
    control,
    fromParent,
    type(value: string) {
      control.value = value;
      control.dispatchEvent(new win.Event('input'));
      control.dispatchEvent(new win.Event('blur'));
    },
    change() {
      control.dispatchEvent(new win.Event('change'));
    },
    shown: () => win.document.getElementById('error')!.textContent,
    lastState: () => sent.filter((message) => message.type === 'event' && message.frameId === frameId).at(-1)!.state!,
  };
}

afterEach(() => {
  document.body.replaceChildren();
  TestChannel.open = [];
  sent = [];
});

describe('non-card collect frames (checkout-spec §3, §5)', () => {
  it('input field: mask, required, its rule’s own message, and never the value to the parent', () => {
    const frame = openFrame('input-field', {
      required: true,
      mask: { pattern: '+1 (XXX) XXX-XXXX' },
      validations: [{ type: 'LENGTH_MATCH_RULE', params: { min: 17, error: 'Enter the whole phone number' } }],
    });
    frame.fromParent({ type: 'validate' });
    expect(frame.shown()).toBe('This field is required!');
    frame.type('555 12');
    expect(frame.control.value).toBe('+1 (555) 12');
    expect(frame.shown()).toBe('Enter the whole phone number');
    frame.type('5551234567');
    expect(frame.control.value).toBe('+1 (555) 123-4567');
    expect(frame.shown()).toBe('');
    expect(frame.lastState()).toMatchObject({ isValid: true, value: '', required: true });
    expect(JSON.stringify(sent)).not.toContain('555');
  });

  it('PIN: digits only, 4 to 12; a confirm PIN must match the named element', () => {
    const pin = openFrame('pin', { name: 'pin', required: true });
    const confirm = openFrame('pin', {
      name: 'confirm',
      required: true,
      validations: [{ type: 'ELEMENT_VALUE_MATCH_RULE', params: { element: 'pin', error: 'The PINs differ' } }],
    });
    pin.type('12a');
    expect(pin.control.value).toBe('12');
    expect(pin.shown()).toBe('Fill in the field');
    pin.type('1234');
    expect(pin.shown()).toBe('');
    confirm.type('4321');
    expect(confirm.shown()).toBe('The PINs differ');
    confirm.type('1234');
    expect(confirm.shown()).toBe('');
    pin.type('9999');
    expect(confirm.shown()).toBe('The PINs differ');
    expect(confirm.lastState().isValid).toBe(false);
  });

  it('checkbox: required until checked, valid with its value', () => {
    const frame = openFrame('checkbox', { required: true, value: 'yes', label: 'I agree' });
    expect(frame.win.document.querySelector('label')!.textContent).toBe('I agree');
    frame.fromParent({ type: 'validate' });
    expect(frame.shown()).toBe('This field is required!');
    frame.control.checked = true;
    frame.change();
    expect(frame.shown()).toBe('');
    expect(frame.lastState().isValid).toBe(true);
    frame.fromParent({ type: 'reset' });
    expect(frame.control.checked).toBe(false);
  });

  it('dropdown: the choices, a placeholder, and required', () => {
    const frame = openFrame('dropdown', {
      required: true,
      placeholder: 'Choose',
      choices: [
        { value: 'br', text: 'Brazil' },
        { value: 'us', text: 'United States' },
      ],
    });
    expect([...frame.control.options].map((option) => option.textContent)).toEqual(['Choose', 'Brazil', 'United States']);
    frame.fromParent({ type: 'validate' });
    expect(frame.shown()).toBe('This field is required!');
    frame.control.value = 'us';
    frame.change();
    expect(frame.lastState().isValid).toBe(true);
  });

  it('file input: only the allowed types', () => {
    const frame = openFrame('file-input', { allowedFileTypes: ['.pdf'] });
    expect(frame.control.accept).toBe('.pdf');
    const choose = (name: string, type: string) => {
      Object.defineProperty(frame.control, 'files', { value: [new frame.win.File(['x'], name, { type })], configurable: true });
      frame.change();
    };
    choose('photo.png', 'image/png');
    expect(frame.shown()).toBe('Fill in the field');
    choose('id.pdf', 'application/pdf');
    expect(frame.shown()).toBe('');
    expect(frame.lastState()).toMatchObject({ isValid: true, value: '' });
  });
});

describe('set-value from the page (setValue outside PROD, checkout-spec §5)', () => {
  it('an input takes the value through its mask and reports the new state', () => {
    const frame = openFrame('input-field', { required: true, mask: { pattern: '+1 (XXX) XXX-XXXX' } });
    frame.fromParent({ type: 'set-value', value: '5551234567' });
    expect(frame.control.value).toBe('+1 (555) 123-4567');
    expect(frame.lastState()).toMatchObject({ isValid: true, value: '' });
  });

  it('a checkbox is checked by its own value; a dropdown selects the choice', () => {
    const box = openFrame('checkbox', { value: 'yes', required: true });
    box.fromParent({ type: 'set-value', value: 'yes' });
    expect(box.control.checked).toBe(true);
    const menu = openFrame('dropdown', { choices: [{ value: 'br', text: 'Brazil' }] });
    menu.fromParent({ type: 'set-value', value: 'br' });
    expect(menu.control.value).toBe('br');
  });

  it('the PIN ignores it', () => {
    const frame = openFrame('pin', {});
    frame.fromParent({ type: 'set-value', value: '1234' });
    expect(frame.control.value).toBe('');
  });
});
