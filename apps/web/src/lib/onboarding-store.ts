import { create } from 'zustand';

/** A compressed selfie kept in this tab's memory only; never written to storage or sent before purchase checks. */
export type Selfie = { blob: Blob; previewUrl: string; width: number; height: number };

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
    if (previous) URL.revokeObjectURL(previous.previewUrl);
    set({ selfie });
  },
  clearSelfie: () => {
    const previous = get().selfie;
    if (previous) URL.revokeObjectURL(previous.previewUrl);
    set({ selfie: null });
  },
}));
