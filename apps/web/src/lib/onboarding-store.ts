import type { FaceBox } from '@roots/contracts/face-check';
import { create } from 'zustand';
import { readQuizEmail, storeQuizEmail } from './session-keys';

/**
 * A compressed selfie kept in this tab's memory only; never written to storage or sent before
 * purchase checks. `face`: in a group photo, the face the customer chose (ADR 192), sent with the photo.
 */
export type Selfie = { blob: Blob; previewUrl: string; width: number; height: number; face?: FaceBox };

type OnboardingState = {
  /** product-spec §3 onboarding state: null until a photo is taken; it can be set or cleared. */
  selfie: Selfie | null;
  setSelfie: (selfie: Selfie) => void;
  clearSelfie: () => void;
};

export const useOnboardingStore = create<OnboardingState>((set, get) => ({
  selfie: null,
  setSelfie: (selfie) => {
    const previous = get().selfie;
    // The same photo with a face chosen keeps its preview.
    if (previous && previous.previewUrl !== selfie.previewUrl) URL.revokeObjectURL(previous.previewUrl);
    set({ selfie });
  },
  clearSelfie: () => {
    const previous = get().selfie;
    if (previous) URL.revokeObjectURL(previous.previewUrl);
    set({ selfie: null });
  },
}));

/** A quiz question number, 1 to 20 (product-spec §3). */
export type QuizQuestionNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20;

/** The chosen option id per question; null until answered. */
export type QuizAnswers = Record<QuizQuestionNumber, string | null>;

/** Every answer unset, as the quiz state starts (product-spec §3: quiz answers 1 to 20, each initially null). */
export function emptyQuizAnswers(): QuizAnswers {
  return Object.fromEntries(Array.from({ length: 20 }, (_, index) => [index + 1, null])) as QuizAnswers;
}

type QuizState = {
  /** When this visit's quiz was opened (ISO 8601); null before. */
  startDate: string | null;
  /** The buyer's email: prefilled from the session value `userQuizEmail`, written back there. */
  email: string;
  quizAnswers: QuizAnswers;
  /** The paywall's payment form is open (product-spec §3 quiz state). */
  isPaymentModalOpen: boolean;
  /** The payment method chosen in the drop-in: card (preselected) or apple. */
  selectedPaymentMethod: 'card' | 'apple';
  /** The buyer's names, from the card form's holder or the Apple Pay billing contact; '' until known. */
  firstName: string;
  lastName: string;
  /** Records the opening time once; reopening the quiz with Back keeps the first one. */
  startQuiz: (now?: Date) => void;
  answer: (question: QuizQuestionNumber, option: string) => void;
  setEmail: (email: string) => void;
  setPaymentModalOpen: (open: boolean) => void;
  selectPaymentMethod: (method: 'card' | 'apple') => void;
  setNames: (names: { firstName: string; lastName: string }) => void;
};

/**
 * product-spec §3 quiz state of the quiz variant, in this tab's memory. The email is the one value
 * that outlives a reload: it is kept in session storage (`userQuizEmail`), where the paywall reads it.
 */
export const useQuizStore = create<QuizState>((set, get) => ({
  startDate: null,
  email: readQuizEmail(),
  quizAnswers: emptyQuizAnswers(),
  isPaymentModalOpen: false,
  selectedPaymentMethod: 'card',
  firstName: '',
  lastName: '',
  startQuiz: (now = new Date()) => {
    if (get().startDate === null) set({ startDate: now.toISOString(), email: readQuizEmail() || get().email });
  },
  answer: (question, option) => set((state) => ({ quizAnswers: { ...state.quizAnswers, [question]: option } })),
  setEmail: (email) => {
    storeQuizEmail(email);
    set({ email });
  },
  setPaymentModalOpen: (isPaymentModalOpen) => set({ isPaymentModalOpen }),
  selectPaymentMethod: (selectedPaymentMethod) => set({ selectedPaymentMethod }),
  setNames: ({ firstName, lastName }) => set({ firstName: firstName.trim(), lastName: lastName.trim() }),
}));
