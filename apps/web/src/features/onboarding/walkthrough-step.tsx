import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlreadyCustomer } from '../../components/ui/already-customer';
import { usePublicConfig } from '../../lib/public-config-context';

type Slide = { title: string; text: string };

/**
 * Three slides (product-spec §1), then the consent step. No discount is said here: no price is on
 * this screen to strike through, and a discount is shown only beside its reference price (ADR 148).
 */
export function WalkthroughStep({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { copy } = usePublicConfig();
  const slides = t('screens.onboarding.slides', { returnObjects: true }) as Slide[];
  const [index, setIndex] = useState(0);
  const slide = slides[index]!;
  const last = index === slides.length - 1;
  return (
    <section
      className="step walkthrough"
      aria-roledescription="carousel"
      aria-label={t('screens.onboarding.slideOf', { current: index + 1, total: slides.length })}
    >
      <img className="walkthrough__art" src={`images/walkthrough-${index + 1}.svg`} alt="" width={180} height={180} />
      <h1 className="screen__title">{index === 0 ? copy.headline : slide.title}</h1>
      <p>{slide.text}</p>
      {index === 0 && (
        <>
          <ul className="landing__claims">
            <li>{copy.privacyClaim}</li>
            <li>{copy.biometricClaim}</li>
            <li>{t('screens.landing.honesty')}</li>
          </ul>
        </>
      )}
      {last && (
        <p className="landing__users">
          <strong>{copy.usersClaim}</strong> {t('screens.landing.usersLabel')}
        </p>
      )}
      <ol className="walkthrough__dots" aria-hidden="true">
        {slides.map((item, i) => (
          <li key={item.title} className={i === index ? 'is-active' : undefined} />
        ))}
      </ol>
      <button type="button" className="button button--primary" onClick={() => (last ? onDone() : setIndex(index + 1))}>
        {last ? t('screens.landing.cta') : t('screens.onboarding.next')}
      </button>
      {index === 0 && <AlreadyCustomer />}
    </section>
  );
}
