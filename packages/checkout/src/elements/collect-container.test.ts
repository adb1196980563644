// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRAME_MESSAGE_TAG } from '@roots/contracts/frame-protocol';
import { CollectContainer, collectError, frameOptions, type ContainerContext } from './collect-container';

const context: ContainerContext = {
  gatewayOrigin: 'https://gw.example',
  elementsURL: 'https://gw.example/secure-fields/v1',
  tokenizeURL: 'https://gw.example/vault/v1/tokens',
  recordsURL: 'https://gw.example/vault/v1/records',
  getBearerToken: async () => 'token',
  env: 'SANDBOX',
  warn: () => {},
  window,
};

afterEach(() => {
  document.body.replaceChildren();
});

const ready = { isEmpty: false, isComplete: true, isValid: true, isFocused: false, value: '', required: true };
/** What a frame of this container says to the page, from the gateway origin and its own window. */
const fromFrame = (frame: HTMLIFrameElement, frameId: string, data: Record<string, unknown>) =>
  window.dispatchEvent(
    new MessageEvent('message', {
      data: { tag: FRAME_MESSAGE_TAG, v: 1, frameId, ...data },
      origin: 'https://gw.example',
      source: frame.contentWindow,
    }),
  );

describe('collect elements in frames', () => {
  it('every element type mounts its own gateway frame, sandboxed, named by id, origin and channel', () => {
    const container = new CollectContainer(context);
    const types = ['CARD_NUMBER', 'PIN', 'INPUT_FIELD', 'CHECKBOX', 'RADIO', 'DROPDOWN', 'FILE_INPUT'] as const;
    for (const type of types) {
      const extra =
        type === 'CHECKBOX' || type === 'RADIO' ? { value: 'yes' } : type === 'DROPDOWN' ? { options: [{ value: 'a', text: 'A' }] } : {};
      container.create({ type, ...extra }).mount(document.body);
    }
    const frames = [...document.querySelectorAll('iframe')];
    expect(frames.map((frame) => new URL(frame.src).pathname.split('/').at(-1))).toEqual([
      'card-number.html',
      'pin.html',
      'input-field.html',
      'checkbox.html',
      'radio.html',
      'dropdown.html',
      'file-input.html',
    ]);
    for (const frame of frames) {
      expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
      const params = new URL(frame.src).searchParams;
      expect(params.get('origin')).toBe(window.location.origin);
      expect(params.get('channel')).toBe(container.channelId);
      expect(params.get('id')).toMatch(/^rf/);
    }
  });

  it('frame options carry rules and choices, never a value to pre-fill', () => {
    expect(
      frameOptions('phone', {
        type: 'INPUT_FIELD',
        label: 'Phone',
        mask: ['+1 (XXX) XXX-XXXX', { X: '[0-9]' }],
        replacePattern: ['\\s'],
        validations: [{ type: 'LENGTH_MATCH_RULE', params: { min: 17 } }],
      }),
    ).toEqual({
      name: 'phone',
      label: 'Phone',
      required: false,
      mask: { pattern: '+1 (XXX) XXX-XXXX', translation: { X: '[0-9]' } },
      replacePattern: { pattern: '\\s', replacement: '' },
      validations: [{ type: 'LENGTH_MATCH_RULE', params: { min: 17 } }],
    });
    expect(frameOptions('country', { type: 'DROPDOWN', options: [{ value: 'br', text: 'Brazil' }] })).toMatchObject({
      choices: [{ value: 'br', text: 'Brazil' }],
      required: false,
    });
    expect(frameOptions('id', { type: 'FILE_INPUT', allowedFileType: ['.pdf'] })).toMatchObject({ allowedFileTypes: ['.pdf'] });
    expect(frameOptions('zip', { type: 'INPUT_FIELD', format: 'XXXXX-XXX' })).toMatchObject({ mask: { pattern: 'XXXXX-XXX' } });
    expect(frameOptions('card_number', { type: 'CARD_NUMBER', format: 'XXXX-XXXX-XXXX-XXXX' })).toMatchObject({
      required: true,
      format: 'XXXX-XXXX-XXXX-XXXX',
    });
  });

  it('frame options carry labelStyles and errorTextStyles to the frame (checkout-spec §3)', () => {
    expect(
      frameOptions('card_number', {
        type: 'CARD_NUMBER',
        styles: { color: 'black' },
        labelStyles: { color: 'navy' },
        errorTextStyles: { color: '#b00020', fontSize: '12px' },
      }),
    ).toMatchObject({
      styles: { color: 'black' },
      labelStyles: { color: 'navy' },
      errorTextStyles: { color: '#b00020', fontSize: '12px' },
    });
  });

  it('a COMPOSABLE container mounts its elements in rows of the layout', () => {
    const container = new CollectContainer(context, 'COMPOSABLE', { layout: [1, 2] });
    container.create({ type: 'CARD_NUMBER' });
    container.create({ type: 'EXPIRATION_DATE' });
    container.create({ type: 'CVV' });
    container.mount(document.body);
    const rows = [...document.querySelectorAll('.roots-row')];
    expect(rows.map((row) => row.querySelectorAll('iframe').length)).toEqual([1, 2]);
    expect(() => container.mount(document.body)).toThrow(expect.objectContaining({ code: 'CONTAINER_MOUNT_FAILED' }));
  });

  it('maps a frame’s collect error to the catalogue', () => {
    expect(collectError({ code: 'INVALID_BEARER_TOKEN', message: 'Invalid token', status: 401 })).toMatchObject({
      code: 'BEARER_TOKEN_REJECTED',
      status: 401,
    });
    expect(collectError({ code: 'VAULT_CONNECTION_ERROR', message: 'x' }).code).toBe('VAULT_CONNECTION_ERROR');
    expect(collectError({ code: 'VALIDATION_FAILED', message: 'x' }).code).toBe('VALIDATION_FAILED');
    expect(collectError({ code: 'CARD_INVALID', message: 'x' }).code).toBe('COLLECT_OPERATION_FAILED');
  });
});

describe('collect', () => {
  it('a COMPOSABLE container’s card number events carry only the first 8 characters; a COLLECT one the masked value', () => {
    const masked = { ...ready, value: '42424242XXXXXXXX' };
    const seen: Record<string, string> = {};
    for (const type of ['COMPOSABLE', 'COLLECT'] as const) {
      const container = type === 'COMPOSABLE' ? new CollectContainer(context, type, { layout: [2] }) : new CollectContainer(context, type);
      const number = container.create({ type: 'CARD_NUMBER' });
      const cvv = container.create({ type: 'CVV' });
      if (type === 'COMPOSABLE') container.mount(document.body);
      else for (const element of [number, cvv]) element.mount(document.body);
      number.on('CHANGE', (state) => (seen[type] = state.value));
      fromFrame(number.iframe!, number.frameId, { type: 'event', event: 'CHANGE', state: masked });
      fromFrame(cvv.iframe!, cvv.frameId, { type: 'event', event: 'CHANGE', state: { ...ready, value: '' } });
      expect(number.state.value).toBe(seen[type]);
    }
    expect(seen).toEqual({ COMPOSABLE: '42424242', COLLECT: '42424242XXXXXXXX' });
  });

  it('without a card number, the first element’s frame collects the records; the page gets their tokens', async () => {
    const container = new CollectContainer(context);
    const name = container.create({ type: 'INPUT_FIELD', table: 'persons', column: 'name' });
    const pin = container.create({ type: 'PIN', table: 'persons', column: 'pin' });
    name.mount(document.body);
    pin.mount(document.body);
    const posted = vi.spyOn(name.iframe!.contentWindow!, 'postMessage');
    for (const element of [name, pin]) fromFrame(element.iframe!, element.frameId, { type: 'event', event: 'READY', state: ready });
    const collecting = container.collect({
      additionalFields: { records: [{ table: 'persons', fields: { plan: 'weekly', age: 30 } }] },
      upsert: [{ table: 'persons', column: 'name' }],
    });
    await vi.waitFor(() => expect(posted.mock.calls.some(([message]) => (message as { type: string }).type === 'collect')).toBe(true));
    const [message, targetOrigin] = posted.mock.calls.find(([sent]) => (sent as { type: string }).type === 'collect')!;
    expect(targetOrigin).toBe('https://gw.example');
    expect(message).toMatchObject({
      type: 'collect',
      tokenizeURL: 'https://gw.example/vault/v1/tokens',
      recordsURL: 'https://gw.example/vault/v1/records',
      elements: [
        { frameId: name.frameId, field: 'input-field', table: 'persons', column: 'name' },
        { frameId: pin.frameId, field: 'pin', table: 'persons', column: 'pin' },
      ],
      additionalRecords: [{ table: 'persons', fields: { plan: 'weekly', age: '30' } }],
      tokens: true,
      upsert: [{ table: 'persons', column: 'name' }],
    });
    const records = [{ table: 'persons', skyflowID: 'rec_1', fields: { name: 'tkn_1', pin: 'tkn_2', plan: 'tkn_3', age: 'tkn_4' } }];
    fromFrame(name.iframe!, name.frameId, {
      type: 'collect-result',
      requestId: (message as { requestId: string }).requestId,
      ok: true,
      result: { records },
    });
    await expect(collecting).resolves.toEqual({ records });
  });

  it('with a card number, its frame collects and the card’s token comes at the top level', async () => {
    const container = new CollectContainer(context);
    const email = container.create({ type: 'INPUT_FIELD', table: 'persons', column: 'email' });
    const number = container.create({ type: 'CARD_NUMBER' });
    email.mount(document.body);
    number.mount(document.body);
    const posted = vi.spyOn(number.iframe!.contentWindow!, 'postMessage');
    for (const element of [email, number]) fromFrame(element.iframe!, element.frameId, { type: 'event', event: 'READY', state: ready });
    const collecting = container.collect();
    await vi.waitFor(() => expect(posted.mock.calls.some(([message]) => (message as { type: string }).type === 'collect')).toBe(true));
    const requestId = (posted.mock.calls.find(([sent]) => (sent as { type: string }).type === 'collect')![0] as { requestId: string })
      .requestId;
    const card = { token: 'tok_1', network: 'visa', bin: '42424242', last4: '4242', expiresAt: '2030-01-01T00:00:00.000Z' };
    fromFrame(number.iframe!, number.frameId, { type: 'collect-result', requestId, ok: true, result: { card, records: [] } });
    await expect(collecting).resolves.toEqual({ ...card, records: [] });
  });
});

describe('container lifecycle: ready, load and collect timeouts (checkout-spec §4, §8)', () => {
  it('a frame that never reports READY fails with CONTAINER_MOUNT_FAILED; retry reloads it and ready follows', async () => {
    const container = new CollectContainer({ ...context, readyTimeoutMs: 20 });
    const errors: string[] = [];
    const readies: string[][] = [];
    container.on('error', (error) => errors.push(error.code));
    container.on('ready', ({ elements }) => readies.push(elements));
    const number = container.create({ type: 'CARD_NUMBER' });
    number.mount(document.body);
    const waiting = number.whenReady();
    await expect(waiting).rejects.toMatchObject({ code: 'CONTAINER_MOUNT_FAILED' });
    expect(errors).toEqual(['CONTAINER_MOUNT_FAILED']);
    await expect(container.validate()).rejects.toMatchObject({ code: 'CONTAINER_MOUNT_FAILED' });
    container.retry();
    expect(number.failed).toBeUndefined();
    fromFrame(number.iframe!, number.frameId, { type: 'event', event: 'READY', state: ready });
    await expect(number.whenReady()).resolves.toBeUndefined();
    expect(readies).toEqual([['CARD_NUMBER']]);
  });

  it('a collect without an answer fails with COLLECT_OPERATION_FAILED and an error event', async () => {
    const container = new CollectContainer({ ...context, collectTimeoutMs: 20 });
    const errors: string[] = [];
    container.on('error', (error) => errors.push(error.code));
    const number = container.create({ type: 'CARD_NUMBER' });
    number.mount(document.body);
    fromFrame(number.iframe!, number.frameId, { type: 'event', event: 'READY', state: ready });
    await expect(container.collect()).rejects.toMatchObject({ code: 'COLLECT_OPERATION_FAILED' });
    expect(errors).toEqual(['COLLECT_OPERATION_FAILED']);
  });
});

describe('session expiry behind a collect (checkout-spec §4 "Bearer token", §8)', () => {
  it('a token the vault refused is refreshed once and the collect runs again', async () => {
    const onUnauthorized = vi.fn(async () => 'fresh-token');
    const container = new CollectContainer({ ...context, onUnauthorized });
    const number = container.create({ type: 'CARD_NUMBER' });
    number.mount(document.body);
    const posted = vi.spyOn(number.iframe!.contentWindow!, 'postMessage');
    fromFrame(number.iframe!, number.frameId, { type: 'event', event: 'READY', state: ready });
    const collecting = container.collect();
    const collectIds = () =>
      posted.mock.calls.map(([sent]) => sent as { type: string; requestId?: string }).filter((sent) => sent.type === 'collect');
    await vi.waitFor(() => expect(collectIds()).toHaveLength(1));
    fromFrame(number.iframe!, number.frameId, {
      type: 'collect-result',
      requestId: collectIds()[0]!.requestId,
      ok: false,
      error: { code: 'INVALID_BEARER_TOKEN', message: 'Invalid token', status: 401 },
    });
    await vi.waitFor(() => expect(collectIds()).toHaveLength(2));
    const card = { token: 'tok_2', network: 'visa', bin: '42424242', last4: '4242', expiresAt: '2030-01-01T00:00:00.000Z' };
    fromFrame(number.iframe!, number.frameId, {
      type: 'collect-result',
      requestId: collectIds()[1]!.requestId,
      ok: true,
      result: { card, records: [] },
    });
    await expect(collecting).resolves.toEqual({ ...card, records: [] });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('a refresh that gives nothing keeps the refusal', async () => {
    const container = new CollectContainer({ ...context, onUnauthorized: async () => undefined });
    const number = container.create({ type: 'CARD_NUMBER' });
    number.mount(document.body);
    const posted = vi.spyOn(number.iframe!.contentWindow!, 'postMessage');
    fromFrame(number.iframe!, number.frameId, { type: 'event', event: 'READY', state: ready });
    const collecting = container.collect();
    await vi.waitFor(() => expect(posted.mock.calls.some(([sent]) => (sent as { type: string }).type === 'collect')).toBe(true));
    const requestId = (posted.mock.calls.find(([sent]) => (sent as { type: string }).type === 'collect')![0] as { requestId: string })
      .requestId;
    fromFrame(number.iframe!, number.frameId, {
      type: 'collect-result',
      requestId,
      ok: false,
      error: { code: 'INVALID_BEARER_TOKEN', message: 'Invalid token', status: 401 },
    });
    await expect(collecting).rejects.toMatchObject({ code: 'BEARER_TOKEN_REJECTED' });
  });
});

describe('validate() asks the frames (checkout-spec §5)', () => {
  const sentOfType = (spy: { mock: { calls: unknown[][] } }, type: string) =>
    spy.mock.calls.map(([sent]) => sent as { type: string; requestId?: string }).filter((sent) => sent.type === type);

  it('answers from each frame’s reply to validate, not the last state the page saw', async () => {
    const container = new CollectContainer(context);
    const number = container.create({ type: 'CARD_NUMBER' });
    const cvv = container.create({ type: 'CVV' });
    number.mount(document.body);
    cvv.mount(document.body);
    const posted = [number, cvv].map((element) => vi.spyOn(element.iframe!.contentWindow!, 'postMessage'));
    // Both frames last said "valid"; the card number's frame now finds its value invalid.
    for (const element of [number, cvv]) fromFrame(element.iframe!, element.frameId, { type: 'event', event: 'READY', state: ready });
    const validating = container.validate();
    await vi.waitFor(() => posted.forEach((spy) => expect(sentOfType(spy, 'validate')).toHaveLength(1)));
    const [numberRequest, cvvRequest] = posted.map((spy) => sentOfType(spy, 'validate')[0]!.requestId!);
    expect(numberRequest).not.toBe(cvvRequest);
    fromFrame(cvv.iframe!, cvv.frameId, { type: 'validated', requestId: cvvRequest, state: ready });
    fromFrame(number.iframe!, number.frameId, {
      type: 'validated',
      requestId: numberRequest,
      state: { ...ready, isValid: false, isComplete: false, error: 'Fill in the field' },
    });
    await expect(validating).resolves.toBe(false);
    expect(number.state).toMatchObject({ isValid: false, error: 'Fill in the field' });
  });

  it('an answer to another request changes nothing; a frame that never answers fails the validation', async () => {
    const container = new CollectContainer({ ...context, validateTimeoutMs: 20 });
    const number = container.create({ type: 'CARD_NUMBER' });
    number.mount(document.body);
    fromFrame(number.iframe!, number.frameId, { type: 'event', event: 'READY', state: ready });
    const validating = container.validate();
    fromFrame(number.iframe!, number.frameId, { type: 'validated', requestId: 'v-other', state: { ...ready, isValid: false } });
    await expect(validating).rejects.toMatchObject({ code: 'COLLECT_OPERATION_FAILED' });
    expect(number.state.isValid).toBe(true);
  });
});

describe('setValue and clearValue only outside PROD (checkout-spec §5)', () => {
  const posted = (element: { iframe?: HTMLIFrameElement | undefined }) => vi.spyOn(element.iframe!.contentWindow!, 'postMessage');
  const types = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map(([sent]) => (sent as { type: string }).type);

  it('outside PROD: setValue sends the value to an input frame, clearValue resets it', () => {
    const warn = vi.fn();
    const container = new CollectContainer({ ...context, env: 'SANDBOX', warn });
    const email = container.create({ type: 'INPUT_FIELD', table: 'persons', column: 'email' });
    email.mount(document.body);
    const spy = posted(email);
    email.setValue('ada@example.com');
    email.clearValue();
    expect(spy.mock.calls.map(([sent]) => sent)).toEqual([
      expect.objectContaining({ type: 'set-value', value: 'ada@example.com' }),
      expect.objectContaining({ type: 'reset' }),
    ]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('in PROD both only warn and nothing reaches the frame', () => {
    const warn = vi.fn();
    const container = new CollectContainer({ ...context, env: 'PROD', warn });
    const email = container.create({ type: 'INPUT_FIELD', table: 'persons', column: 'email' });
    email.mount(document.body);
    const spy = posted(email);
    email.setValue('ada@example.com');
    email.clearValue();
    expect(types(spy)).toEqual([]);
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      'setValue works only outside the PROD environment',
      'clearValue works only outside the PROD environment',
    ]);
  });

  it('card fields and the PIN take no value from the page, in any environment', () => {
    const warn = vi.fn();
    const container = new CollectContainer({ ...context, env: 'DEV', warn });
    const number = container.create({ type: 'CARD_NUMBER' });
    const pin = container.create({ type: 'PIN' });
    number.mount(document.body);
    pin.mount(document.body);
    const spies = [posted(number), posted(pin)];
    number.setValue('4242424242424242');
    pin.setValue('1234');
    spies.forEach((spy) => expect(types(spy)).toEqual([]));
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
