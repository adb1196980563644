import { cleanup, render, screen } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { writeSessionValue } from '../../lib/session-keys';
import { SelfieNotice } from './selfie-notice';

const renderNotice = (inMemory: boolean) =>
  render(
    <I18nextProvider i18n={createI18n('Roots')}>
      <SelfieNotice inMemory={inMemory} />
    </I18nextProvider>,
  );

beforeEach(() => sessionStorage.clear());
afterEach(cleanup);

describe('the paywall’s word on the selfie (ADR 145)', () => {
  it('says nothing while the photo is in this tab’s memory: the report is made from it after payment', () => {
    writeSessionValue('selfieTaken', '1');
    renderNotice(true);
    expect(screen.queryByTestId('selfie-notice')).toBeNull();
  });

  it('after a reload that let the photo go, says it will be asked again after payment', () => {
    writeSessionValue('selfieTaken', '1');
    renderNotice(false);
    expect(screen.getByTestId('selfie-notice').textContent).toBe(
      'Your selfie was kept only in this tab’s memory and never stored, so reloading the page let it go. We will ask for your selfie again after payment, in your account.',
    );
    // The tab keeps a flag, never the photo.
    expect(Object.values(sessionStorage)).toEqual(['1']);
  });

  it('on a direct link, where no photo was taken, says it will be asked after payment', () => {
    renderNotice(false);
    expect(screen.getByTestId('selfie-notice').textContent).toBe('We will ask for your selfie after payment, in your account.');
  });
});
