import type { FaceBox } from '@roots/contracts/face-check';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

const percent = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;

/**
 * A group photo (ADR 192): the customer's photo with each face the check found outlined as a button
 * ('Face 1 of 3', left to right); tapping one, or Enter/Space on it, chooses it. The photo is the
 * preview already in memory; the boxes are fractions of it, so they follow its displayed size.
 */
export function FaceChooser({
  previewUrl,
  faces,
  onChoose,
  onRetake,
}: {
  previewUrl: string;
  faces: FaceBox[];
  onChoose: (face: FaceBox) => void;
  onRetake: () => void;
}) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  // The question replaces the progress bar: focus goes to it, so a screen reader reads it first.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="step face-choice" data-testid="face-choice">
      <h1 className="screen__title" ref={heading} tabIndex={-1}>
        {t('screens.onboarding.chooseFaceTitle')}
      </h1>
      <p>{t('screens.onboarding.chooseFaceHint', { count: faces.length })}</p>
      <div className="face-choice__photo">
        <img className="face-choice__image" src={previewUrl} alt={t('screens.onboarding.chooseFacePhotoAlt')} />
        {faces.map((face, index) => (
          <button
            key={`${face.x},${face.y}`}
            type="button"
            className="face-choice__face"
            style={{ left: percent(face.x), top: percent(face.y), width: percent(face.width), height: percent(face.height) }}
            aria-label={t('screens.onboarding.chooseFaceLabel', { index: index + 1, count: faces.length })}
            onClick={() => onChoose(face)}
          >
            <span className="face-choice__number" aria-hidden="true">
              {index + 1}
            </span>
          </button>
        ))}
      </div>
      <button type="button" className="button button--secondary" onClick={onRetake}>
        {t('screens.onboarding.processingRetake')}
      </button>
    </section>
  );
}
