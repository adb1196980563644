import { CheckoutError, type CheckoutErrorCode } from '../core/errors/checkout-error';
import {
  elementName,
  resolveMountTarget,
  validateCollectOptions,
  validateComposableOptions,
  validateElementOptions,
  validateElementUpdate,
  type CollectElementOptions,
  type CollectOptions,
  type ContainerType,
  type ElementType,
} from '../core/config/collect-validation';
import {
  acceptFrameMessage,
  CARD_FRAME_TYPES,
  ELEMENT_EVENTS,
  parentMessage,
  type CollectResult as ProtocolCollectResult,
  type CollectSuccess,
  type CollectedRecord,
  type ElementEvent,
  type ElementState,
  type FrameFieldOptions,
  type FrameFieldType,
} from '@roots/contracts/frame-protocol';
import { EventEmitter } from '../core/events/event-emitter';

/**
 * The error of a failed collect, from the frame's code: a validation failure, a vault error, or a
 * bearer token the vault rejected (checkout-spec §8: "the error is returned to the frame").
 */
export function collectError(error: { code: string; message: string; status?: number | undefined }): CheckoutError {
  const code: CheckoutErrorCode =
    error.code === 'VALIDATION_FAILED' || error.code === 'VAULT_NETWORK_ERROR' || error.code === 'VAULT_CONNECTION_ERROR'
      ? error.code
      : error.code === 'INVALID_BEARER_TOKEN'
        ? 'BEARER_TOKEN_REJECTED'
        : 'COLLECT_OPERATION_FAILED';
  return new CheckoutError(code, error.message, error.status ? { status: error.status } : {});
}

/** Element type → secure frame page (packages/secure-fields). */
const FRAME_OF_TYPE: Record<ElementType, FrameFieldType> = {
  CARD_NUMBER: 'card-number',
  CARDHOLDER_NAME: 'cardholder-name',
  CVV: 'cvv',
  EXPIRATION_DATE: 'expiry-date',
  EXPIRATION_MONTH: 'expiry-month',
  EXPIRATION_YEAR: 'expiry-year',
  PIN: 'pin',
  INPUT_FIELD: 'input-field',
  CHECKBOX: 'checkbox',
  RADIO: 'radio',
  DROPDOWN: 'dropdown',
  FILE_INPUT: 'file-input',
};

/** A card field: one per container, rendered by a card frame. */
const isCardType = (type: ElementType): boolean => (CARD_FRAME_TYPES as readonly FrameFieldType[]).includes(FRAME_OF_TYPE[type]);

/** Card fields are required unless told otherwise; the other collect elements are optional. */
const isRequired = (options: CollectElementOptions): boolean => options.required ?? isCardType(options.type);

/** The frame's options of an element: what it shows and the rules it checks (never values from the parent). */
export function frameOptions(name: string, options: CollectElementOptions): FrameFieldOptions {
  const {
    placeholder,
    label,
    enableCardIcon,
    format,
    styles,
    labelStyles,
    errorTextStyles,
    rejectedNetworks,
    validations,
    mask,
    replacePattern,
    value,
  } = options;
  const [maskPattern, maskTranslation] = mask ?? [];
  const inputMask =
    typeof maskPattern === 'string'
      ? {
          pattern: maskPattern,
          ...(maskTranslation && typeof maskTranslation === 'object' ? { translation: maskTranslation as Record<string, string> } : {}),
        }
      : options.type === 'INPUT_FIELD' && format
        ? { pattern: format }
        : undefined;
  return {
    name,
    ...(placeholder !== undefined ? { placeholder } : {}),
    ...(label !== undefined ? { label } : {}),
    required: isRequired(options),
    ...(enableCardIcon !== undefined ? { enableCardIcon } : {}),
    ...(format !== undefined && options.type !== 'INPUT_FIELD' ? { format } : {}),
    ...(styles ? { styles: styles as Record<string, string> } : {}),
    ...(labelStyles ? { labelStyles: labelStyles as Record<string, string> } : {}),
    ...(errorTextStyles ? { errorTextStyles: errorTextStyles as Record<string, string> } : {}),
    ...(rejectedNetworks ? { rejectedNetworks } : {}),
    ...(validations ? { validations } : {}),
    ...(inputMask ? { mask: inputMask } : {}),
    ...(replacePattern?.[0] !== undefined ? { replacePattern: { pattern: replacePattern[0], replacement: replacePattern[1] ?? '' } } : {}),
    ...(value !== undefined ? { value } : {}),
    ...(options.options ? { choices: options.options } : {}),
    ...(options.allowedFileType ? { allowedFileTypes: options.allowedFileType } : {}),
  };
}

/**
 * What a collect answers: the card's vault token, network, BIN and last 4 when the container holds
 * a card number, and the records stored for the other elements.
 */
export type CollectResult = Partial<CollectSuccess> & { records: CollectedRecord[] };

export type ContainerContext = {
  /** Gateway origin: frames live there and only its messages are accepted. */
  gatewayOrigin: string;
  /** Base URL of the frame pages. */
  elementsURL: string;
  /** Vault tokenize link of the session. */
  tokenizeURL: string;
  /** Vault records URL (`{vaultURL}/v1/records`). */
  recordsURL: string;
  getBearerToken: () => Promise<string>;
  env: 'DEV' | 'SANDBOX' | 'PROD';
  warn: (message: string) => void;
  window: Window & typeof globalThis;
  /** How long a frame may take to report READY; default {@link FRAME_READY_TIMEOUT_MS}. */
  readyTimeoutMs?: number;
  /** How long a frame may take to answer a validation; default {@link VALIDATE_TIMEOUT_MS}. */
  validateTimeoutMs?: number;
  /** How long a collect may take; default {@link COLLECT_TIMEOUT_MS}. */
  collectTimeoutMs?: number;
  /** The vault refused the bearer token (session expired): raise it and refresh; a token resolved retries once. */
  onUnauthorized?: (refusedToken: string | undefined) => Promise<string | undefined>;
};

/** A frame that has not reported READY after this long failed to load (CONTAINER_MOUNT_FAILED). */
export const FRAME_READY_TIMEOUT_MS = 20_000;
/** A frame that has not answered a validation after this long failed (COLLECT_OPERATION_FAILED). */
export const VALIDATE_TIMEOUT_MS = 10_000;
/** A collect (tokenise and store) that has not answered after this long failed (COLLECT_OPERATION_FAILED). */
export const COLLECT_TIMEOUT_MS = 45_000;

/** Container events (checkout-spec §4 "Container lifecycle"): every mounted frame ready, or a frame or collect failed. */
export type ContainerEvents = { ready: { elements: string[] }; error: CheckoutError };
export const CONTAINER_EVENTS = ['ready', 'error'] as const;

const EMPTY_STATE: ElementState = { isEmpty: true, isComplete: false, isValid: false, isFocused: false, value: '', required: true };
/** Characters of the card number a composable container's events carry (checkout-spec §9). */
export const COMPOSABLE_CARD_NUMBER_CHARS = 8;

/** Element types setValue reaches: never a card field, the PIN or a file. */
const SETTABLE_TYPES: readonly ElementType[] = ['INPUT_FIELD', 'CHECKBOX', 'RADIO', 'DROPDOWN'];

let frameCounter = 0;

/** One collect element: a secure frame from the gateway origin. The parent only sees its masked state. */
export class CollectElement {
  readonly name: string;
  readonly frameId = `rf${(frameCounter += 1)}${Math.random().toString(36).slice(2, 8)}`;
  readonly events = new EventEmitter<Record<ElementEvent, ElementState>>([...ELEMENT_EVENTS]);
  state: ElementState = { ...EMPTY_STATE };
  iframe: HTMLIFrameElement | undefined;
  ready = false;
  private readyWaiters: Array<{ resolve: () => void; reject: (error: CheckoutError) => void }> = [];
  private readyTimer: number | undefined;
  private readonly pendingValidations = new Map<string, (state: ElementState) => void>();
  /** Set when the frame did not report READY in time; cleared by {@link reload}. */
  failed: CheckoutError | undefined;

  constructor(
    readonly options: CollectElementOptions,
    private readonly container: CollectContainer,
  ) {
    this.name = elementName(options);
    this.state.required = isRequired(options);
  }

  get field(): FrameFieldType {
    return FRAME_OF_TYPE[this.options.type];
  }

  get mounted(): boolean {
    return this.iframe?.isConnected ?? false;
  }

  /** Mounts the frame into a selector or element. Operations before the frame is ready wait for it. */
  mount(target: string | HTMLElement): void {
    const host = resolveMountTarget(target, this.container.context.window.document);
    const doc = host.ownerDocument;
    const iframe = doc.createElement('iframe');
    const { context } = this.container;
    const url = new URL(`${context.elementsURL}/${this.field}.html`);
    url.searchParams.set('id', this.frameId);
    url.searchParams.set('origin', context.window.location.origin);
    url.searchParams.set('channel', this.container.channelId);
    iframe.src = url.toString();
    this.startReadyTimer();
    // Scripts and its own origin (vault calls, sibling channel); no top navigation, popups or forms.
    iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin');
    iframe.title = this.options.label ?? this.options.altText ?? this.field.replace('-', ' ');
    iframe.dataset.rootsField = this.field;
    iframe.dataset.rootsElement = this.name;
    iframe.setAttribute('allow', 'payment');
    iframe.className = 'roots-frame';
    iframe.style.cssText = 'border:0;width:100%;height:44px;display:block';
    if (this.options.label) {
      const label = doc.createElement('div');
      label.className = 'roots-label';
      label.textContent = this.options.label;
      // The visible label lives beside the frame in the page; the frame's own (screen-reader) label gets them too.
      for (const [property, value] of Object.entries(this.options.labelStyles ?? {}))
        if (typeof value === 'string')
          label.style.setProperty(
            property.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
            value,
          );
      host.append(label);
    }
    host.append(iframe);
    this.iframe = iframe;
    this.container.register(this);
  }

  unmount(): void {
    this.iframe?.remove();
    this.iframe = undefined;
    this.ready = false;
    this.stopReadyTimer();
  }

  /** Loads the frame again (the shopper's retry after a load timeout). */
  reload(): void {
    if (!this.iframe) return;
    this.failed = undefined;
    this.ready = false;
    const src = this.iframe.src;
    this.iframe.src = 'about:blank';
    this.iframe.src = src;
    this.startReadyTimer();
  }

  private startReadyTimer(): void {
    this.stopReadyTimer();
    const win = this.container.context.window;
    this.readyTimer = win.setTimeout(() => {
      if (this.ready) return;
      const error = new CheckoutError('CONTAINER_MOUNT_FAILED', `The secure field ${this.name} did not load in time`);
      this.failed = error;
      this.readyWaiters.splice(0).forEach((waiter) => waiter.reject(error));
      this.container.reportError(error);
    }, this.container.context.readyTimeoutMs ?? FRAME_READY_TIMEOUT_MS);
  }

  private stopReadyTimer(): void {
    if (this.readyTimer !== undefined) this.container.context.window.clearTimeout(this.readyTimer);
    this.readyTimer = undefined;
  }

  on(event: ElementEvent, handler: (state: ElementState) => void): () => void {
    return this.events.on(event, handler);
  }

  update(options: Partial<CollectElementOptions>): void {
    validateElementUpdate(this.options, options);
    Object.assign(this.options, options);
    if (this.ready) this.sendInit();
  }

  /** Clears the field; only outside PROD (a warning in PROD). */
  clearValue(): void {
    if (this.container.context.env === 'PROD') return this.container.context.warn('clearValue works only outside the PROD environment');
    this.post(parentMessage({ type: 'reset' }));
  }

  /**
   * Sets the value of an input, checkbox, radio or dropdown element; only outside PROD (a warning
   * in PROD, checkout-spec §5). Card fields and the PIN take no value from the page (card data never
   * crosses into the merchant page): a warning there too.
   * @example element.setValue('ada@example.com') // SANDBOX or DEV
   */
  setValue(value: string): void {
    const { env, warn } = this.container.context;
    if (env === 'PROD') return warn('setValue works only outside the PROD environment');
    if (!SETTABLE_TYPES.includes(this.options.type)) return warn(`setValue is not supported by the secure ${this.field} frame`);
    this.post(parentMessage({ type: 'set-value', value }));
  }

  /** Resolves once the frame is READY; rejects with CONTAINER_MOUNT_FAILED when it failed to load in time. */
  whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  /**
   * Asks the frame to validate and answers the state it reports right after (not the last state
   * seen): the frame shows its error, then answers `validated`.
   * @throws COLLECT_OPERATION_FAILED when the frame does not answer within `validateTimeoutMs`.
   */
  async validate(): Promise<ElementState> {
    await this.whenReady();
    const requestId = `v${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const win = this.container.context.window;
    let timer: number | undefined;
    return new Promise<ElementState>((resolve, reject) => {
      this.pendingValidations.set(requestId, resolve);
      timer = win.setTimeout(() => {
        if (!this.pendingValidations.delete(requestId)) return;
        reject(new CheckoutError('COLLECT_OPERATION_FAILED', `The secure field ${this.name} did not answer the validation in time`));
      }, this.container.context.validateTimeoutMs ?? VALIDATE_TIMEOUT_MS);
      this.post(parentMessage({ type: 'validate', requestId }));
    }).finally(() => win.clearTimeout(timer));
  }

  /** @internal from the container: a frame's answer to {@link validate}. */
  receiveValidated(requestId: string, state: ElementState): void {
    const resolve = this.pendingValidations.get(requestId);
    if (!resolve) return;
    this.pendingValidations.delete(requestId);
    this.state = { ...this.state, ...state, value: this.state.value };
    resolve(this.state);
  }

  post(message: unknown): void {
    this.iframe?.contentWindow?.postMessage(message, this.container.context.gatewayOrigin);
  }

  sendInit(): void {
    this.post(parentMessage({ type: 'init', options: frameOptions(this.name, this.options) }));
  }

  /** Called by the container with an accepted event. */
  receive(event: ElementEvent, received: ElementState): void {
    // checkout-spec §9: a composable container's card number events carry at most its first 8 characters.
    const composableCardNumber = this.container.type === 'COMPOSABLE' && this.options.type === 'CARD_NUMBER';
    const state = composableCardNumber ? { ...received, value: received.value.slice(0, COMPOSABLE_CARD_NUMBER_CHARS) } : received;
    this.state = state;
    if (event === 'READY' && !this.ready) {
      this.ready = true;
      this.failed = undefined;
      this.stopReadyTimer();
      this.sendInit();
      this.readyWaiters.splice(0).forEach((waiter) => waiter.resolve());
    }
    this.events.emit(event, state);
    if (event === 'READY') this.container.checkReady();
  }
}

/**
 * A collect container (checkout-spec §4 "Container lifecycle"): creates elements, routes the
 * frames' messages (origin, window and shape checked), answers bearer-token requests, and
 * collects a vault token. COMPOSABLE containers also check their layout.
 */
export class CollectContainer {
  readonly elements: CollectElement[] = [];
  readonly events = new EventEmitter<ContainerEvents>([...CONTAINER_EVENTS]);
  readonly channelId = Math.random().toString(36).slice(2, 12);
  private readonly pendingCollects = new Map<
    string,
    { resolve: (value: ProtocolCollectResult) => void; reject: (error: CheckoutError) => void }
  >();
  private readonly listener: (event: MessageEvent) => void;
  private listening = false;

  constructor(
    readonly context: ContainerContext,
    readonly type: ContainerType = 'COLLECT',
    readonly composable?: { layout: number[] },
  ) {
    if (type === 'COMPOSABLE') validateComposableOptions(composable);
    this.listener = (event) => this.onMessage(event);
  }

  create(options: unknown): CollectElement {
    const validated = validateElementOptions(options, {
      elementNames: this.elements.map((element) => element.name),
      warn: this.context.warn,
    });
    // One of each card field per container (they make one card); other elements may repeat.
    if (isCardType(validated.type) && this.elements.some((element) => element.options.type === validated.type))
      throw new CheckoutError('DUPLICATE_ELEMENT', `a ${validated.type} element already exists in this container`);
    const element = new CollectElement(validated, this);
    this.elements.push(element);
    return element;
  }

  /**
   * Mounts every element of a COMPOSABLE container at once, in rows of the layout's sizes
   * (checkout-spec §5: the layout sum equals the element count). COLLECT containers mount their
   * elements one by one instead.
   * @throws CONTAINER_MOUNT_FAILED for a COLLECT container or one already mounted.
   */
  mount(target: string | HTMLElement): void {
    if (this.type !== 'COMPOSABLE')
      throw new CheckoutError('CONTAINER_MOUNT_FAILED', 'only a COMPOSABLE container mounts as a whole; mount each element instead');
    if (this.elements.some((element) => element.mounted))
      throw new CheckoutError('CONTAINER_MOUNT_FAILED', 'the container is already mounted');
    const { layout } = validateComposableOptions(this.composable, this.elements.length);
    const host = resolveMountTarget(target, this.context.window.document);
    const doc = host.ownerDocument;
    let next = 0;
    for (const size of layout) {
      const row = doc.createElement('div');
      row.className = 'roots-row';
      host.append(row);
      for (let index = 0; index < size; index += 1) {
        const cell = doc.createElement('div');
        cell.className = 'roots-cell';
        row.append(cell);
        this.elements[next]!.mount(cell);
        next += 1;
      }
    }
  }

  /** Listens to the container's `ready` (every mounted frame ready) and `error` (a frame or collect timed out). */
  on<Name extends keyof ContainerEvents & string>(name: Name, handler: (payload: ContainerEvents[Name]) => void): () => void {
    return this.events.on(name, handler);
  }

  /** Reloads every frame that failed to load (the shopper's retry). */
  retry(): void {
    this.elements.filter((element) => element.failed || !element.ready).forEach((element) => element.reload());
  }

  /** @internal from an element: a frame failed to load in time. */
  reportError(error: CheckoutError): void {
    this.events.emit('error', error);
  }

  private readyReported = false;
  /** @internal from an element: emits `ready` once every mounted element is ready. */
  checkReady(): void {
    const mounted = this.elements.filter((element) => element.iframe);
    if (this.readyReported || mounted.length === 0 || mounted.length < this.elements.length || !mounted.every((element) => element.ready))
      return;
    this.readyReported = true;
    this.events.emit('ready', { elements: mounted.map((element) => element.name) });
  }

  register(_element: CollectElement): void {
    if (this.type === 'COMPOSABLE') validateComposableOptions(this.composable, this.elements.length);
    if (!this.listening) {
      this.context.window.addEventListener('message', this.listener);
      this.listening = true;
    }
  }

  destroy(): void {
    this.context.window.removeEventListener('message', this.listener);
    this.listening = false;
    this.elements.forEach((element) => element.unmount());
  }

  /**
   * Validates every field inside its frame (errors show there) and resolves whether all are valid,
   * from each frame's answer rather than the last state the page saw (checkout-spec §5).
   */
  async validate(): Promise<boolean> {
    this.assertMounted();
    const states = await Promise.all(this.elements.map((element) => element.validate()));
    return states.every((state) => state.isValid);
  }

  isValid(): boolean {
    return this.elements.length > 0 && this.elements.every((element) => element.state.isValid && element.ready);
  }

  reset(): void {
    this.elements.forEach((element) => element.post(parentMessage({ type: 'reset' })));
  }

  /**
   * Collects every element into the vault, inside the frames (checkout-spec §3 "Collect options"):
   * the card is tokenised (its token, network, BIN and last 4 are answered at the top level, as
   * before), the other elements with a `table` and `column` — and `additionalFields.records` — are
   * stored as records, answered with their ids and, unless `tokens: false`, a token per field.
   * The card number's frame collects, else the first element's.
   * @throws CARD_FORM_COLLECT_ELEMENT_NOT_MOUNTED before every element is mounted.
   * @example
   * const { token, records } = await container.collect({ upsert: [{ table: 'persons', column: 'email' }] });
   */
  async collect(options?: CollectOptions): Promise<CollectResult> {
    try {
      return await this.collectOnce(options);
    } catch (error) {
      // The vault refused the token (expired session): refresh once through the client, collect again.
      if (!(error instanceof CheckoutError) || error.code !== 'BEARER_TOKEN_REJECTED' || !this.context.onUnauthorized) throw error;
      const fresh = await this.context.onUnauthorized(undefined);
      if (!fresh) throw error;
      return this.collectOnce(options);
    }
  }

  private async collectOnce(options?: CollectOptions): Promise<CollectResult> {
    const validated = validateCollectOptions(options);
    this.assertMounted();
    await Promise.all(this.elements.map((element) => element.whenReady()));
    const collector = this.elements.find((element) => element.options.type === 'CARD_NUMBER') ?? this.elements[0]!;
    const requestId = `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const win = this.context.window;
    let timer: number | undefined;
    const result = await new Promise<ProtocolCollectResult>((resolve, reject) => {
      this.pendingCollects.set(requestId, { resolve, reject });
      timer = win.setTimeout(() => {
        if (!this.pendingCollects.delete(requestId)) return;
        const error = new CheckoutError('COLLECT_OPERATION_FAILED', 'The collect did not answer in time');
        this.reportError(error);
        reject(error);
      }, this.context.collectTimeoutMs ?? COLLECT_TIMEOUT_MS);
      collector.post(
        parentMessage({
          type: 'collect',
          requestId,
          tokenizeURL: this.context.tokenizeURL,
          recordsURL: this.context.recordsURL,
          elements: this.elements.map((element) => ({
            frameId: element.frameId,
            field: element.field,
            ...(element.options.table ? { table: element.options.table } : {}),
            ...(element.options.column ? { column: element.options.column } : {}),
            ...(element.options.skyflowID ? { skyflowID: element.options.skyflowID } : {}),
          })),
          additionalRecords: (validated.additionalFields?.records ?? []).map((record) => ({
            table: record.table,
            fields: Object.fromEntries(Object.entries(record.fields).map(([column, value]) => [column, String(value)])),
            ...(record.skyflowID ? { skyflowID: record.skyflowID } : {}),
          })),
          tokens: validated.tokens ?? true,
          upsert: validated.upsert ?? [],
        }),
      );
    }).finally(() => win.clearTimeout(timer));
    return { ...result.card, records: result.records };
  }

  private assertMounted(): void {
    if (this.elements.length === 0 || this.elements.some((element) => !element.mounted))
      throw new CheckoutError('CARD_FORM_COLLECT_ELEMENT_NOT_MOUNTED');
  }

  private onMessage(event: MessageEvent): void {
    const sources = this.elements.map((element) => element.iframe?.contentWindow);
    const message = acceptFrameMessage(event, { origin: this.context.gatewayOrigin, sources });
    if (!message) return;
    const element = this.elements.find(
      (candidate) => candidate.frameId === message.frameId && candidate.iframe?.contentWindow === event.source,
    );
    if (!element) return;
    switch (message.type) {
      case 'event':
        element.receive(message.event, message.state);
        break;
      case 'validated':
        element.receiveValidated(message.requestId, message.state);
        break;
      case 'height':
        if (element.iframe) element.iframe.style.height = `${Math.max(40, message.height)}px`;
        break;
      case 'token-request':
        void this.context.getBearerToken().then(
          (token) => element.post(parentMessage({ type: 'bearer-token', requestId: message.requestId, token })),
          (error: unknown) => {
            const pending = this.pendingCollects.get(message.requestId);
            this.pendingCollects.delete(message.requestId);
            pending?.reject(
              error instanceof CheckoutError ? error : new CheckoutError('INVALID_BEARER_TOKEN', undefined, { cause: error }),
            );
          },
        );
        break;
      case 'collect-result': {
        const pending = this.pendingCollects.get(message.requestId);
        this.pendingCollects.delete(message.requestId);
        if (!pending) return;
        if (message.ok) pending.resolve(message.result);
        else {
          pending.reject(collectError(message.error));
        }
        break;
      }
    }
  }
}
